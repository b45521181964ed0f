import { CfnOutput, Duration, RemovalPolicy, SecretValue, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { Key } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { TABLE_DEFINITION } from '../../shared/db/table';
import type { StageConfig } from '../config';
import { NONCURRENT_VERSION_DAYS, OUTBOUND_VISIBILITY_TIMEOUT_S } from '../constants';
import { QueueWithDlq } from '../constructs/queue-with-dlq';
import { RecordingRetention } from '../constructs/recording-retention';
import { acknowledge } from '../nag';
import { recordingsBucketName, stageNames } from '../stage-names';

/** Props of the data stack. */
export interface DataStackProps extends StackProps {
  readonly config: StageConfig;
}

/** The provider credentials the media service and the analysis function use. */
export interface ProviderSecrets {
  /** JSON `{"account_sid", "auth_token"}`. */
  readonly twilio: Secret;
  /** JSON `{"api_key"}`. */
  readonly deepgram: Secret;
  /** JSON `{"api_key"}`. */
  readonly openai: Secret;
  /** Generated: signs the media-stream tokens the engine hands Twilio. */
  readonly streamToken: Secret;
  /** Generated: signs the API's list cursors (every API instance must share it). */
  readonly listCursor: Secret;
}

/**
 * State shared by every other stack: the single table, the recordings bucket, the keys, the
 * provider secrets, the event bus and the outbound-calls queue.
 */
export class DataStack extends Stack {
  readonly table: Table;
  readonly secretsKey: Key;
  readonly recordingsKey: Key;
  readonly recordingsBucket: Bucket;
  readonly accessLogsBucket: Bucket;
  readonly secrets: ProviderSecrets;
  readonly bus: EventBus;
  readonly outbound: QueueWithDlq;
  readonly retention: RecordingRetention;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { config } = props;
    const names = stageNames(config.stage);
    const removalPolicy = config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.secretsKey = new Key(this, 'SecretsKey', {
      alias: names.secretsKeyAlias,
      description: 'Customer-supplied secrets (custom LLM keys, webhook signing secrets), bound to the business by encryption context.',
      enableKeyRotation: true,
      removalPolicy,
    });
    this.recordingsKey = new Key(this, 'RecordingsKey', {
      description: 'Call recordings at rest (S3 bucket key).',
      enableKeyRotation: true,
      removalPolicy,
    });
    this.table = this.createTable(names.tableName, config.retainData, removalPolicy);
    this.accessLogsBucket = this.createAccessLogsBucket(removalPolicy);
    this.recordingsBucket = this.createRecordingsBucket(recordingsBucketName(this, config.stage), removalPolicy);
    this.secrets = this.createSecrets(names.secretName, removalPolicy);
    this.bus = new EventBus(this, 'Bus', { eventBusName: names.eventBusName, description: 'Call lifecycle events.' });
    this.outbound = new QueueWithDlq(this, 'OutboundCalls', {
      queueName: `${names.prefix}-outbound-calls`,
      visibilityTimeout: Duration.seconds(OUTBOUND_VISIBILITY_TIMEOUT_S),
      removalPolicy,
    });
    this.retention = new RecordingRetention(this, 'RecordingRetention', {
      table: this.table,
      bucketName: this.recordingsBucket.bucketName,
      bucketKey: this.recordingsKey,
      namePrefix: names.prefix,
      logRetention: config.logRetention,
      removalPolicy,
    });
    this.addOutputs(config.stage);
  }

  private addOutputs(stage: string): void {
    const names = stageNames(stage);
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The single DynamoDB table.' });
    new CfnOutput(this, 'RecordingsBucketName', { value: this.recordingsBucket.bucketName });
    new CfnOutput(this, 'SecretsKeyAlias', { value: names.secretsKeyAlias });
    for (const provider of ['twilio', 'deepgram', 'openai']) {
      new CfnOutput(this, `${provider}SecretName`, { value: names.secretName(provider), description: 'Fill in before real calls.' });
    }
  }

  /** The table, built from the same declaration the local stack uses (shared/db/table.ts). */
  private createTable(tableName: string, protect: boolean, removalPolicy: RemovalPolicy): Table {
    const def = TABLE_DEFINITION;
    const key = (name: string) => ({ name, type: AttributeType.STRING });
    const table = new Table(this, 'Table', {
      tableName,
      partitionKey: key(def.partitionKey),
      sortKey: key(def.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: def.ttlAttribute,
      // The retention function reads the old image of TTL deletions (recording_key).
      stream: StreamViewType.OLD_IMAGE,
      deletionProtection: protect,
      removalPolicy,
    });
    for (const index of def.globalIndexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: key(index.partitionKey),
        sortKey: key(index.sortKey),
        projectionType: ProjectionType[index.projection],
      });
    }
    return table;
  }

  /** S3 server access logs and ALB access logs (both require SSE-S3 on the target bucket). */
  private createAccessLogsBucket(removalPolicy: RemovalPolicy): Bucket {
    return new Bucket(this, 'AccessLogs', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(365) }],
      removalPolicy,
    });
  }

  /**
   * Recordings: KMS (own key, bucket key on), private, TLS only. Versioning is ON so a buggy
   * overwrite or delete can be undone, and noncurrent versions expire after one day so a
   * retention delete is final within a day.
   */
  private createRecordingsBucket(bucketName: string, removalPolicy: RemovalPolicy): Bucket {
    return new Bucket(this, 'Recordings', {
      bucketName,
      encryption: BucketEncryption.KMS,
      encryptionKey: this.recordingsKey,
      bucketKeyEnabled: true,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      versioned: true,
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: 'recordings/',
      lifecycleRules: [
        {
          id: 'finalize-deletes',
          noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS),
          expiredObjectDeleteMarker: true,
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      removalPolicy,
    });
  }

  /**
   * Provider secrets, created with EMPTY values: the engine then runs with its sandbox providers
   * until ops put real credentials in (docs/deploy.md). CloudFormation never rewrites a value
   * filled in later, because the template value does not change.
   */
  private createSecrets(secretName: (provider: string) => string, removalPolicy: RemovalPolicy): ProviderSecrets {
    const empty = (...fields: string[]) => Object.fromEntries(fields.map((field) => [field, SecretValue.unsafePlainText('')]));
    const secret = (id: string, provider: string, description: string, fields: string[]) => {
      const created = new Secret(this, id, {
        secretName: secretName(provider),
        description,
        secretObjectValue: empty(...fields),
        removalPolicy,
      });
      acknowledge(
        created,
        'AwsSolutions-SMG4',
        `${provider} issues this credential; it is rotated in the ${provider} console, then put here.`,
      );
      return created;
    };
    const streamToken = new Secret(this, 'StreamTokenSecret', {
      secretName: secretName('stream-token'),
      description: 'Signs the short-lived media-stream tokens the engine gives Twilio.',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy,
    });
    acknowledge(
      streamToken,
      'AwsSolutions-SMG4',
      'Rotating it invalidates the tokens of calls being connected; rotate by hand between deploys (docs/deploy.md).',
    );
    const listCursor = new Secret(this, 'ListCursorSecret', {
      secretName: secretName('list-cursor'),
      description: "Signs the API's list cursors (next_cursor), so a client cannot forge or alter one.",
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy,
    });
    acknowledge(
      listCursor,
      'AwsSolutions-SMG4',
      'Rotating it only makes cursors given out before refused (422); rotate by hand between deploys.',
    );
    return {
      twilio: secret('TwilioSecret', 'twilio', 'Twilio: {"account_sid": "AC...", "auth_token": "..."}', ['account_sid', 'auth_token']),
      deepgram: secret('DeepgramSecret', 'deepgram', 'Deepgram: {"api_key": "..."}', ['api_key']),
      openai: secret('OpenAiSecret', 'openai', 'OpenAI: {"api_key": "sk-..."}', ['api_key']),
      streamToken,
      listCursor,
    };
  }
}
