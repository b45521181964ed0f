import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { stageResourceNames } from '../../infra/names';
import { TABLE_DEFINITION } from '../../shared/db/table';
import { synthesizeTlsStage, TLS_STAGE } from './synth';

let data: Template;

beforeAll(() => {
  data = synthesizeTlsStage().templates.data;
});

describe('the single table', () => {
  it('is built from the shared declaration: keys, GSIs (with their projections) and the TTL attribute', () => {
    // Arrange
    const def = TABLE_DEFINITION;
    const keySchema = (pk: string, sk: string) => [
      { AttributeName: pk, KeyType: 'HASH' },
      { AttributeName: sk, KeyType: 'RANGE' },
    ];

    // Assert
    data.hasResourceProperties('AWS::DynamoDB::Table', {
      TableName: stageResourceNames(TLS_STAGE.stage).TABLE_NAME,
      KeySchema: keySchema(def.partitionKey, def.sortKey),
      AttributeDefinitions: Match.arrayWith(def.attributes.map((name) => ({ AttributeName: name, AttributeType: 'S' }))),
      GlobalSecondaryIndexes: def.globalIndexes.map((index) => ({
        IndexName: index.name,
        KeySchema: keySchema(index.partitionKey, index.sortKey),
        Projection: { ProjectionType: index.projection },
      })),
      TimeToLiveSpecification: { AttributeName: def.ttlAttribute, Enabled: true },
    });
  });

  it('has the open-calls index keys only, so a heartbeat is no index write', () => {
    data.hasResourceProperties('AWS::DynamoDB::Table', {
      GlobalSecondaryIndexes: Match.arrayWith([
        { IndexName: 'gsi3', KeySchema: Match.anyValue(), Projection: { ProjectionType: 'KEYS_ONLY' } },
      ]),
    });
  });

  it('is on-demand, encrypted, point-in-time recoverable, protected and retained on a data-keeping stage', () => {
    data.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      SSESpecification: { SSEEnabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
      StreamSpecification: { StreamViewType: 'OLD_IMAGE' },
    });
    data.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain' });
  });
});

describe('recordings', () => {
  it('are KMS-encrypted with their own key, private, versioned and access-logged', () => {
    data.hasResourceProperties('AWS::S3::Bucket', {
      BucketName: Match.stringLikeRegexp('^voice-agent-test-recordings-123456789012-eu-west-1$'),
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [
          { BucketKeyEnabled: true, ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: Match.anyValue() } },
        ],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      VersioningConfiguration: { Status: 'Enabled' },
      LoggingConfiguration: { DestinationBucketName: Match.anyValue(), LogFilePrefix: 'recordings/' },
      LifecycleConfiguration: {
        Rules: [
          Match.objectLike({ NoncurrentVersionExpiration: { NoncurrentDays: 1 }, ExpiredObjectDeleteMarker: true, Status: 'Enabled' }),
        ],
      },
    });
  });

  it('every bucket refuses requests without TLS', () => {
    const buckets = Object.keys(data.findResources('AWS::S3::Bucket'));
    const policies = Object.values(data.findResources('AWS::S3::BucketPolicy'));
    expect(policies).toHaveLength(buckets.length);
    for (const policy of policies) {
      expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
  });
});

describe('recording retention', () => {
  it('expire with their call: a TTL-delete stream consumer filtered to items holding a recording_key', () => {
    data.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Table'), 'StreamArn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['REMOVE'],
              userIdentity: { type: ['Service'], principalId: ['dynamodb.amazonaws.com'] },
              dynamodb: { OldImage: { recording_key: { S: [{ exists: true }] } } },
            }),
          },
        ],
      },
    });
  });
});

describe('keys and secrets', () => {
  it('has a rotating customer-secrets key under the alias the ops command line uses', () => {
    data.hasResourceProperties('AWS::KMS::Alias', { AliasName: stageResourceNames(TLS_STAGE.stage).KMS_KEY_ID });
    const keys = Object.values(data.findResources('AWS::KMS::Key'));
    expect(keys.length).toBeGreaterThanOrEqual(2);
    for (const key of keys) expect(key.Properties.EnableKeyRotation).toBe(true);
  });

  it.each([
    ['twilio', { account_sid: '', auth_token: '' }],
    ['deepgram', { api_key: '' }],
    ['openai', { api_key: '' }],
  ])('creates the %s secret with empty fields for ops to fill (sandbox until then)', (provider, fields) => {
    data.hasResourceProperties('AWS::SecretsManager::Secret', {
      Name: `voice-agent/test/${provider}`,
      SecretString: JSON.stringify(fields),
    });
  });

  it('generates the stream-token secret', () => {
    data.hasResourceProperties('AWS::SecretsManager::Secret', {
      Name: 'voice-agent/test/stream-token',
      GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true },
    });
  });
});

describe('queues and the bus', () => {
  it('outbound calls: SSE, 60 s visibility, DLQ after 5 receives; the DLQ keeps 14 days', () => {
    data.hasResourceProperties('AWS::SQS::Queue', {
      QueueName: 'voice-agent-test-outbound-calls',
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 60,
      RedrivePolicy: { deadLetterTargetArn: Match.anyValue(), maxReceiveCount: 5 },
    });
    data.hasResourceProperties('AWS::SQS::Queue', {
      QueueName: 'voice-agent-test-outbound-calls-dlq',
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
    });
  });

  it('every queue denies non-TLS requests', () => {
    const queues = Object.keys(data.findResources('AWS::SQS::Queue'));
    const policies = Object.values(data.findResources('AWS::SQS::QueuePolicy'));
    const enforced = policies.filter((policy) =>
      (policy.Properties.PolicyDocument.Statement as Array<Record<string, unknown>>).some(
        (statement) => statement.Effect === 'Deny' && JSON.stringify(statement.Condition).includes('aws:SecureTransport'),
      ),
    );
    expect(enforced).toHaveLength(queues.length);
  });

  it('has a custom event bus with no resource policy (nobody outside the account can put events)', () => {
    data.hasResourceProperties('AWS::Events::EventBus', { Name: 'voice-agent-test' });
    data.resourceCountIs('AWS::Events::EventBusPolicy', 0);
  });

  it('outputs the table name', () => {
    data.hasOutput('TableName', { Value: { Ref: Match.stringLikeRegexp('^Table') } });
  });
});
