import { Tags, type App } from 'aws-cdk-lib';
import { hasTls, type StageConfig } from './config';
import { addNagChecks } from './nag';
import { ApiStack } from './stacks/api-stack';
import { DataStack } from './stacks/data-stack';
import { MediaStack } from './stacks/media-stack';
import { OpsStack } from './stacks/ops-stack';
import { WebhooksStack } from './stacks/webhooks-stack';

/**
 * CDK feature flags this service relies on, set on the app so tests and `cdk synth` agree:
 * access-log delivery through a bucket policy (ACLs stay disabled on every bucket), and strong
 * cross-stack references.
 */
const FEATURE_FLAGS: Readonly<Record<string, unknown>> = {
  '@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy': true,
  // Exports stay protected while another stack imports them (CloudFormation's own rule).
  '@aws-cdk/core:defaultCrossStackReferences': 'strong',
};

/** The stacks of one stage. */
export interface ServiceStacks {
  readonly data: DataStack;
  readonly api: ApiStack;
  readonly webhooks: WebhooksStack;
  readonly media: MediaStack;
  readonly ops: OpsStack;
}

/**
 * Adds one stage of the service to `app` (stacks `VoiceAgent-<stage>-{Data,Api,Webhooks,Media,Ops}`)
 * and the cdk-nag AwsSolutions checks, which fail synthesis on any unacknowledged finding. The
 * Api stack holds the web console too (docs/decisions.md "The console is hosted in the API stack").
 * @example buildService(new App(), loadStageConfig('dev'))
 */
export function buildService(app: App, config: StageConfig): ServiceStacks {
  for (const [flag, value] of Object.entries(FEATURE_FLAGS)) app.node.setContext(flag, value);
  const env = config.env;
  const id = (name: string) => `VoiceAgent-${config.stage}-${name}`;
  const common = { env, config };
  const data = new DataStack(app, id('Data'), {
    ...common,
    description: 'Voice agent: table, recordings, keys, secrets, bus, outbound queue.',
  });
  const media = new MediaStack(app, id('Media'), {
    ...common,
    data,
    description: 'Voice agent: media service on Fargate behind a TLS ALB.',
  });
  const api = new ApiStack(app, id('Api'), {
    ...common,
    data,
    mediaWebSocketUrl: media.loadBalancer.publicWebSocketUrl,
    description: 'Voice agent: HTTP API, API function and web console.',
  });
  // With TLS the media URL is a name from the config, so the media stack may depend on the API
  // stack for the console's origin. Without TLS the API stack depends on the media stack (the
  // ALB's generated name) and the console cannot open ws:// from its https page anyway.
  if (hasTls(config)) media.media.allowConsoleOrigin(api.console.origin);
  const webhooks = new WebhooksStack(app, id('Webhooks'), {
    ...common,
    data,
    description: 'Voice agent: event rules, analysis, webhook delivery.',
  });
  const ops = new OpsStack(app, id('Ops'), { ...common, data, api, webhooks, media, description: 'Voice agent: alarms and dashboard.' });
  // IAM policies name the table and bucket by physical name, so order the stacks explicitly too.
  for (const stack of [api, webhooks, media]) stack.addStackDependency(data);
  Tags.of(app).add('service', 'voice-agent');
  Tags.of(app).add('stage', config.stage);
  addNagChecks(app);
  return { data, api, webhooks, media, ops };
}
