import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildService, type ServiceStacks } from '../../infra/build-app';
import { STAGES, validateStageConfig, type StageConfig } from '../../infra/config';

/**
 * One synthesized stage for a test file. Lambda bundling is skipped through the
 * `aws:cdk:bundling-stacks` context (an empty list matches no stack, so NodejsFunction stages a
 * placeholder instead of running esbuild); `npm run synth` bundles for real. Every synthesis also
 * runs cdk-nag, which throws on any unacknowledged finding.
 */

/** A production-like stage: TLS on the media ALB, a fixed account and region, an alarm email, an email domain. */
export const TLS_STAGE: StageConfig = {
  ...STAGES.prod!,
  stage: 'test',
  env: { account: '123456789012', region: 'eu-west-1' },
  media: {
    ...STAGES.prod!.media,
    domainName: 'voice.example.com',
    certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/11111111-2222-3333-4444-555555555555',
    hostedZone: { id: 'Z0123456789ABCDEFGHIJ', name: 'example.com' },
  },
  alarmEmail: 'ops@example.com',
  emailDomain: 'mail.example.com',
};

/** A synthesized stage: its stacks and their templates. */
export interface SynthesizedService {
  readonly app: App;
  readonly stacks: ServiceStacks;
  readonly templates: { readonly [K in keyof ServiceStacks]: Template };
}

/**
 * Builds and synthesizes one stage. CDK's built-in CloudFormation schema validation costs ~1.5 s
 * per synthesis, so it runs only when asked for ({@link synthesizeTlsStage} asks, once).
 */
export function synthesize(config: StageConfig = TLS_STAGE, options: { schemaValidation?: boolean } = {}): SynthesizedService {
  validateStageConfig(config);
  const app = new App({
    context: { 'aws:cdk:bundling-stacks': [] },
    builtinCloudFormationValidation: options.schemaValidation ?? false,
  });
  const stacks = buildService(app, config);
  app.synth();
  const templates = {
    data: Template.fromStack(stacks.data),
    api: Template.fromStack(stacks.api),
    webhooks: Template.fromStack(stacks.webhooks),
    media: Template.fromStack(stacks.media),
    ops: Template.fromStack(stacks.ops),
  };
  return { app, stacks, templates };
}

let tlsStage: SynthesizedService | undefined;

/**
 * {@link TLS_STAGE}, synthesized once per test worker (with schema validation) and shared by every
 * check that only reads it. A synthesis with cdk-nag takes seconds (and importing aws-cdk-lib more):
 * the checks of the five files reading the TLS stage run as one test file (`stages.test.ts`), so
 * they cost one synthesis in one worker.
 */
export function synthesizeTlsStage(): SynthesizedService {
  tlsStage ??= synthesize(TLS_STAGE, { schemaValidation: true });
  return tlsStage;
}

/** Every IAM statement (identity policies) of a template, with the policy's logical id. */
export function policyStatements(template: Template): Array<{ policy: string; statement: Record<string, unknown> }> {
  const policies = template.findResources('AWS::IAM::Policy');
  return Object.entries(policies).flatMap(([policy, resource]) => {
    const statements = (resource.Properties.PolicyDocument.Statement ?? []) as Record<string, unknown>[];
    return statements.map((statement) => ({ policy, statement }));
  });
}

/** The logical id of the only resource of `type` whose logical id starts with `prefix`. */
export function logicalId(template: Template, type: string, prefix: string): string {
  const ids = Object.keys(template.findResources(type)).filter((id) => id.startsWith(prefix));
  if (ids.length !== 1) throw new Error(`expected one ${type} starting with ${prefix}, found ${ids.join(', ') || 'none'}`);
  return ids[0]!;
}

/** Actions of a statement as an array. */
export function actionsOf(statement: Record<string, unknown>): string[] {
  const action = statement.Action;
  return Array.isArray(action) ? (action as string[]) : [action as string];
}

/** A CloudFormation value as text: `{Ref: X}` → `<X>`, `{Fn::GetAtt: [X, A]}` → `<X.A>`, an import → `<import name>`, joins joined. */
export function render(value: unknown): string {
  if (typeof value === 'string') return value;
  const node = value as Record<string, unknown>;
  if (node['Fn::Join']) {
    const [delimiter, items] = node['Fn::Join'] as [string, unknown[]];
    return items.map(render).join(delimiter);
  }
  if (node.Ref) return `<${String(node.Ref)}>`;
  if (node['Fn::GetAtt']) return `<${(node['Fn::GetAtt'] as string[]).join('.')}>`;
  if (node['Fn::ImportValue']) return `<import ${render(node['Fn::ImportValue'])}>`;
  return JSON.stringify(value);
}
