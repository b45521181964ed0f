import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { addNagChecks } from '../../infra/nag';
import { actionsOf, policyStatements, synthesizeTlsStage, type SynthesizedService } from './synth';

let service: SynthesizedService;

/** Every identity-policy statement of the stage, tagged with `<stack>/<policy logical id>`. */
let statements: Array<{ owner: string; statement: Record<string, unknown> }>;

const ownedBy = (prefix: string) => statements.filter(({ owner }) => owner.split('/')[1]!.startsWith(prefix));
const mentions = (statement: Record<string, unknown>, text: string) => JSON.stringify(statement.Resource).includes(text);
const actionsOn = (prefix: string, awsService: string) =>
  ownedBy(prefix)
    .flatMap(({ statement }) => actionsOf(statement))
    .filter((action) => action.startsWith(`${awsService}:`))
    .sort();

/** Actions AWS offers no resource-level permission for; only these may use `Resource: *`. */
const NO_RESOURCE_LEVEL = new Set([
  'xray:PutTraceSegments',
  'xray:PutTelemetryRecords',
  'ecr:GetAuthorizationToken',
  'cloudwatch:PutMetricData',
  'dynamodb:ListStreams',
]);

/** Every acknowledgment in the tree: rule id, reason and where. */
function acknowledgments(root: IConstruct): Array<{ id: string; reason: string; path: string }> {
  return root.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>))
      .map(([id, reason]) => ({ id: id.replace(/^annotation::/i, ''), reason, path: construct.node.path })),
  );
}

beforeAll(() => {
  // The shared TLS-stage synthesis, made with CDK's CloudFormation schema validation on.
  service = synthesizeTlsStage();
  statements = Object.entries(service.templates).flatMap(([stack, template]) =>
    policyStatements(template).map(({ policy, statement }) => ({ owner: `${stack}/${policy}`, statement })),
  );
});

describe('least privilege', () => {
  it('the API function can only GetObject recordings (to presign recording_url): no write, delete or list', () => {
    // Arrange
    const api = ownedBy('ApiRole');
    const onRecordingsKey = api
      .filter(({ statement }) => mentions(statement, 'RecordingsKey'))
      .flatMap(({ statement }) => actionsOf(statement));

    // Assert
    expect(api.length).toBeGreaterThan(0);
    expect(actionsOn('ApiRole', 's3')).toEqual(['s3:GetObject']);
    expect(onRecordingsKey).toEqual(['kms:Decrypt']);
  });

  it('the API function reads no secret but the one that signs list cursors', () => {
    const secretStatements = ownedBy('ApiRole').filter(({ statement }) =>
      actionsOf(statement).some((a) => a.startsWith('secretsmanager:')),
    );
    expect(secretStatements.length).toBeGreaterThan(0);
    for (const { statement } of secretStatements) expect(mentions(statement, 'ListCursorSecret')).toBe(true);
    expect(ownedBy('ApiRole').filter(({ statement }) => mentions(statement, 'TwilioSecret'))).toEqual([]);
  });

  it('the API function only seals customer secrets; the consumers only open them', () => {
    const onSecretsKey = (prefix: string) =>
      ownedBy(prefix)
        .filter(({ statement }) => mentions(statement, 'SecretsKey'))
        .flatMap(({ statement }) => actionsOf(statement));
    expect(onSecretsKey('ApiRole')).toEqual(['kms:Encrypt']);
    for (const consumer of ['AnalysisRole', 'WebhookDeliveryRole', 'MediaTaskTaskRole'])
      expect(onSecretsKey(consumer), consumer).toEqual(['kms:Decrypt']);
  });

  it('only the media service (to inject it at task start) and the sweeper (hang-ups) can read the Twilio secret', () => {
    const readers = statements
      .filter(({ statement }) => actionsOf(statement).includes('secretsmanager:GetSecretValue') && mentions(statement, 'TwilioSecret'))
      .map(({ owner }) => owner)
      .sort();
    expect(readers).toEqual([expect.stringMatching(/^media\/MediaTaskExecutionRole/), expect.stringMatching(/^webhooks\/SweeperRole/)]);
    expect(actionsOn('MediaTaskTaskRole', 'secretsmanager')).toEqual([]);
  });

  it.each([
    ['MediaTaskTaskRole', ['s3:AbortMultipartUpload', 's3:PutObject']],
    ['ApiRole', ['s3:GetObject']],
    ['WebhookDeliveryRole', ['s3:GetObject']],
    ['RecordingRetentionRole', ['s3:DeleteObject']],
    ['AnalysisRole', []],
  ])('%s touches recordings only with %j, only under recordings/', (prefix, expected) => {
    expect(actionsOn(prefix, 's3')).toEqual(expected);
    for (const { statement } of ownedBy(prefix).filter(({ statement }) => actionsOf(statement).some((a) => a.startsWith('s3:')))) {
      expect(JSON.stringify(statement.Resource)).toMatch(/\/recordings\/\*"/);
    }
  });
});

describe('least privilege: email', () => {
  it('only the media task may send email, ses:SendEmail alone, on the stage identity (its ARN, no wildcard)', () => {
    const senders = statements.filter(({ statement }) => actionsOf(statement).some((action) => action.startsWith('ses:')));
    expect(senders.map(({ owner }) => owner)).toEqual([expect.stringMatching(/^media\/MediaTaskTaskRole/)]);
    const { statement } = senders[0]!;
    expect(actionsOf(statement)).toEqual(['ses:SendEmail']);
    const resource = JSON.stringify(statement.Resource);
    expect(resource).toContain(':identity/');
    expect(resource).toContain('EmailIdentity');
    expect(resource).not.toContain('*');
  });
});

/** CDK's S3 deployment function (the console upload): CDK writes its grants, with wildcard actions. */
const isBucketDeployment = (owner: string) => owner.startsWith('api/CustomCDKBucketDeployment');

describe('least privilege: no wildcards', () => {
  it('no principal may Scan the table or use a wildcard action, but the console upload CDK grants itself', () => {
    const actions = statements.filter(({ owner }) => !isBucketDeployment(owner)).flatMap(({ statement }) => actionsOf(statement));
    expect(actions).not.toContain('dynamodb:Scan');
    expect(actions.filter((action) => action.includes('*'))).toEqual([]);
  });

  it("the console upload's wildcards reach the CDK asset bucket and the console bucket, nothing else", () => {
    const deployment = statements.filter(({ owner }) => isBucketDeployment(owner));
    expect(deployment.length).toBeGreaterThan(0);
    for (const { statement } of deployment) {
      const resources = [statement.Resource].flat().map((resource) => JSON.stringify(resource));
      for (const resource of resources) expect(resource).toMatch(/cdk-[a-z0-9]+-assets-|ConsoleSite/);
      expect(actionsOf(statement).every((action) => action.startsWith('s3:'))).toBe(true);
    }
  });

  it('`Resource: *` appears only for actions without resource-level permissions', () => {
    const unscoped = statements.filter(({ statement }) => statement.Resource === '*');
    expect(unscoped.length).toBeGreaterThan(0);
    for (const { owner, statement } of unscoped) {
      for (const action of actionsOf(statement)) expect(NO_RESOURCE_LEVEL.has(action), `${owner}: ${action}`).toBe(true);
    }
  });

  it('metrics may be published in the VoiceAgent namespace only', () => {
    const metrics = statements.filter(({ statement }) => actionsOf(statement).includes('cloudwatch:PutMetricData'));
    expect(metrics.map(({ owner }) => owner)).toEqual([expect.stringMatching(/^media\/MediaTaskTaskRole/)]);
    expect(metrics[0]!.statement.Condition).toEqual({ StringEquals: { 'cloudwatch:namespace': 'VoiceAgent' } });
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('finds nothing unacknowledged in the whole stage (errors and warnings)', () => {
    // Act
    const report = new AwsSolutionsChecks(service.app).validateScope(service.app);

    // Assert
    expect(report.violations.map((violation) => `${violation.ruleName} @ ${violation.violatingResources[0]?.constructPath}`)).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('is registered on the app, so synthesis fails on a finding', () => {
    // Arrange
    const app = new App();
    new Queue(new Stack(app, 'Probe'), 'Unencrypted');
    addNagChecks(app);

    // Act / Assert
    expect(() => app.synth()).toThrow(/AwsSolutions-SQS3|AwsSolutions-SQS4/);
  });

  it('every acknowledgment carries a reason in code', () => {
    const all = acknowledgments(service.app).filter(({ id }) => id.startsWith('AwsSolutions-'));
    expect(all.length).toBeGreaterThan(0);
    for (const { id, reason, path } of all) expect(reason.trim().length, `${id} at ${path}`).toBeGreaterThanOrEqual(20);
  });

  it('acknowledges only these rules (a new one needs a deliberate change here)', () => {
    const ours = acknowledgments(service.app).filter(({ id }) => id.startsWith('AwsSolutions-'));
    const ids = new Set(ours.map(({ id }) => id.replace(/\[.*\]$/, '')));
    expect([...ids].sort()).toEqual([
      'AwsSolutions-APIG4',
      // The console's distribution: no country to block, no code behind it for a WAF, and the
      // default certificate's TLS floor (infra/constructs/console-site.ts).
      'AwsSolutions-CFR1',
      'AwsSolutions-CFR2',
      'AwsSolutions-CFR4',
      'AwsSolutions-EC23',
      'AwsSolutions-ECS2',
      // CDK's S3 deployment function (the console upload): its managed log policy and runtime.
      'AwsSolutions-IAM4',
      'AwsSolutions-IAM5',
      'AwsSolutions-L1',
      'AwsSolutions-SMG4',
      'AwsSolutions-SQS3',
    ]);
  });
});

describe('CloudFormation schema validation (built into CDK)', () => {
  it('reports nothing on any template', () => {
    // Arrange
    const assembly = service.app.synth();
    const report = JSON.parse(readFileSync(join(assembly.directory, 'validation-report.json'), 'utf8'));

    // Assert
    const violations = (report.pluginReports as Array<{ violations: Array<{ ruleName: string; description: string }> }>)
      .flatMap((plugin) => plugin.violations)
      .map((violation) => `${violation.ruleName}: ${violation.description}`);
    expect(violations).toEqual([]);
  });
});
