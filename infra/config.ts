import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { API_KEY_RATE_LIMIT, RATE_LIMIT_WINDOW_SECONDS } from '../shared/domain/rate-limits';

/**
 * Stage configuration: every value that differs between stages, typed, in one place. This is the
 * only file in infra/ that reads `process.env` (the CDK CLI's default account and region).
 */

/** The media service's public entry point and capacity. */
export interface MediaStageConfig {
  /** Host name Twilio calls back (`voice.example.com`); required with `certificateArn`. */
  readonly domainName?: string;
  /** ACM certificate for `domainName`, in the stage's region. Without it there is no TLS listener. */
  readonly certificateArn?: string;
  /** Route 53 zone to create the `domainName` alias in; without it, point a CNAME at the ALB by hand. */
  readonly hostedZone?: { readonly id: string; readonly name: string };
  /** Tasks kept running at all times (and the autoscaling floor). */
  readonly desiredTasks: number;
  /** Autoscaling ceiling. */
  readonly maxTasks: number;
  /** Each task's admission cap (the engine's MEDIA_MAX_CALLS): above it calls go to other tasks. */
  readonly maxCallsPerTask: number;
  /** Autoscaling target: average `ActiveCalls` per task, below the cap so new tasks start before any is full. */
  readonly targetActiveCallsPerTask: number;
  /** Fargate task size (vCPU units and MiB). */
  readonly cpu: number;
  readonly memoryMiB: number;
}

/** API Gateway stage throttling: a backstop far above one key's limit (shared/domain/rate-limits.ts), not the per-key limit. */
export interface ApiThrottleConfig {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/** Everything one stage needs. */
export interface StageConfig {
  /** Stage name: part of every resource name (`voice-agent-<stage>`). */
  readonly stage: string;
  /** Target account/region; unset values leave the stack environment-agnostic for that field. */
  readonly env: { readonly account?: string; readonly region: string };
  readonly api: { readonly throttle: ApiThrottleConfig };
  readonly media: MediaStageConfig;
  /**
   * Lambda concurrency, so one slow part cannot starve another: the API's own reserved pool
   * (undefined: none, for accounts whose regional limit is still the new-account minimum), and
   * caps on the after-call functions (a dead webhook receiver holds one execution per attempt for
   * up to its timeout; the analysis waits on the model).
   */
  readonly concurrency: { readonly apiReserved?: number; readonly analysisMax: number; readonly webhookDeliveryMax: number };
  /** Email address subscribed to the alarm topic (optional). */
  readonly alarmEmail?: string;
  /**
   * The domain the assistants email from (`assistant@<emailDomain>`): an SES domain identity the
   * media tasks may send from, verified by its DKIM records (docs/deploy.md "Email"). Required
   * outside dev; without it a dev stage's assistants cannot email.
   */
  readonly emailDomain?: string;
  /** CloudWatch Logs retention of every log group of the stage. */
  readonly logRetention: RetentionDays;
  /** NAT gateways of the media VPC (1 is cheaper, one per AZ survives an AZ outage). */
  readonly natGateways: number;
  /** Keep the table, buckets and keys when the stack is deleted, and protect the table from deletion. */
  readonly retainData: boolean;
}

/** Per-stage values, without the ones taken from the CLI environment. */
type StageSettings = Omit<StageConfig, 'stage' | 'env'> & { readonly region?: string; readonly account?: string };

/** The stages this service is deployed as. Edit here; `-c` context values override a few of them. */
export const STAGES: Readonly<Record<string, StageSettings>> = {
  dev: {
    api: { throttle: { rateLimit: 50, burstLimit: 100 } },
    media: { desiredTasks: 1, maxTasks: 2, maxCallsPerTask: 60, targetActiveCallsPerTask: 40, cpu: 1024, memoryMiB: 2048 },
    concurrency: { analysisMax: 5, webhookDeliveryMax: 5 },
    logRetention: RetentionDays.ONE_MONTH,
    natGateways: 1,
    retainData: false,
  },
  prod: {
    api: { throttle: { rateLimit: 1000, burstLimit: 2000 } },
    // Sized for 1,000 concurrent calls with headroom (docs/deploy.md "Scaling"): 60 calls per task
    // at most (measured 0.2–0.7 % of a core per call: ~42 % of the one core Node runs audio on),
    // scaling out at a mean of 40 (two thirds of the cap, so a new task is up before any task is
    // full). 1,000 calls need 25 tasks at the target and 17 at the cap; 40 tasks hold 1,600 at the
    // target and 2,400 at the cap: room for a burst of starts and for losing an AZ's half while
    // its tasks are replaced. (It was 20 × 50: exactly 1,000, with no cap per task at all.)
    media: { desiredTasks: 2, maxTasks: 40, maxCallsPerTask: 60, targetActiveCallsPerTask: 40, cpu: 2048, memoryMiB: 4096 },
    // 1,000 concurrent calls end at ~2/s at most; analysis takes a few seconds each: 50 is ample.
    // 2 webhook attempts per invocation, 10 s timeout each: 50 executions deliver ≥ 5/s even when
    // every receiver hangs, and leave the rest of the account (the API's 300) alone.
    concurrency: { apiReserved: 300, analysisMax: 50, webhookDeliveryMax: 50 },
    logRetention: RetentionDays.ONE_YEAR,
    natGateways: 2,
    retainData: true,
  },
};

/** Values that may be given on the command line (`cdk deploy -c stage=prod -c domainName=...`). */
export interface StageOverrides {
  readonly domainName?: string;
  readonly certificateArn?: string;
  readonly hostedZoneId?: string;
  readonly hostedZoneName?: string;
  readonly alarmEmail?: string;
  readonly emailDomain?: string;
}

/** A stage configuration that cannot be deployed. */
export class StageConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StageConfigError';
  }
}

/** One key's ceiling in requests a second: the stage throttle must sit above it. */
const PER_KEY_REQUESTS_PER_SECOND = API_KEY_RATE_LIMIT / RATE_LIMIT_WINDOW_SECONDS;
const FALLBACK_REGION = 'us-east-1';
const EMAIL_DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The address the assistants send from on a stage with an email domain. */
export function emailFromAddress(emailDomain: string): string {
  return `assistant@${emailDomain}`;
}

/**
 * The configuration of `stage`, with command-line overrides applied and checked.
 * @example loadStageConfig('prod', { domainName: 'voice.example.com', certificateArn: 'arn:aws:acm:...' })
 */
export function loadStageConfig(
  stage: string,
  overrides: StageOverrides = {},
  env: Record<string, string | undefined> = process.env,
): StageConfig {
  const settings = STAGES[stage];
  if (!settings) throw new StageConfigError(`Unknown stage "${stage}". Known stages: ${Object.keys(STAGES).join(', ')}.`);
  const hostedZone =
    overrides.hostedZoneId && overrides.hostedZoneName
      ? { id: overrides.hostedZoneId, name: overrides.hostedZoneName }
      : settings.media.hostedZone;
  const config: StageConfig = {
    ...settings,
    stage,
    env: {
      account: settings.account ?? env.CDK_DEFAULT_ACCOUNT,
      region: settings.region ?? env.CDK_DEFAULT_REGION ?? FALLBACK_REGION,
    },
    media: {
      ...settings.media,
      domainName: overrides.domainName ?? settings.media.domainName,
      certificateArn: overrides.certificateArn ?? settings.media.certificateArn,
      ...(hostedZone ? { hostedZone } : {}),
    },
    alarmEmail: overrides.alarmEmail ?? settings.alarmEmail,
    emailDomain: overrides.emailDomain ?? settings.emailDomain,
  };
  validateStageConfig(config);
  return config;
}

/** True when the media service has a TLS listener (the only kind Twilio can use). */
export function hasTls(config: StageConfig): boolean {
  return Boolean(config.media.domainName && config.media.certificateArn);
}

/** Refuses configurations that would deploy but not work (or not be safe). */
export function validateStageConfig(config: StageConfig): void {
  const problems: string[] = [];
  const { media, api } = config;
  // Bucket names hold the stage, account and region and must fit in 63 characters.
  if (!/^[a-z][a-z0-9-]{0,11}$/.test(config.stage)) problems.push('stage: lowercase letters, digits and dashes, at most 12');
  if (Boolean(media.domainName) !== Boolean(media.certificateArn)) {
    problems.push('media.domainName and media.certificateArn go together');
  }
  if (config.stage !== 'dev' && !hasTls(config)) {
    problems.push(
      'media.domainName and media.certificateArn are required outside dev: Twilio only calls https/wss URLs ' +
        '(set them in infra/config.ts or pass -c domainName=... -c certificateArn=...)',
    );
  }
  if (config.emailDomain !== undefined && !EMAIL_DOMAIN.test(config.emailDomain)) {
    problems.push(`emailDomain: a domain name like mail.example.com, got "${config.emailDomain.slice(0, 60)}"`);
  }
  if (config.stage !== 'dev' && !config.emailDomain) {
    problems.push(
      'emailDomain is required outside dev: the assistants email from it (set it in infra/config.ts or pass -c emailDomain=...)',
    );
  }
  if (media.desiredTasks < 1 || media.maxTasks < media.desiredTasks) problems.push('media: 1 <= desiredTasks <= maxTasks');
  if (media.targetActiveCallsPerTask < 1 || media.targetActiveCallsPerTask >= media.maxCallsPerTask) {
    problems.push('media: 1 <= targetActiveCallsPerTask < maxCallsPerTask (scale out before a task is full)');
  }
  if (api.throttle.rateLimit <= PER_KEY_REQUESTS_PER_SECOND || api.throttle.burstLimit < api.throttle.rateLimit) {
    problems.push(`api.throttle: rateLimit must exceed one key's ${PER_KEY_REQUESTS_PER_SECOND}/s and burstLimit >= rateLimit`);
  }
  if (problems.length > 0) throw new StageConfigError(`Stage "${config.stage}":\n  ${problems.join('\n  ')}`);
}
