import { hostname } from 'node:os';
import * as v from 'valibot';
import { ConfigError, readConfig } from '../../shared/config';

/**
 * An optional value where an empty string means "not set": ECS injects the provider secrets,
 * which are created EMPTY (infra data stack) until ops fill them, so `''` selects the sandbox.
 */
const optionalText = v.pipe(
  v.optional(v.string(), ''),
  v.transform((value) => (value.trim() === '' ? undefined : value.trim())),
);
const required = v.pipe(v.string(), v.trim(), v.minLength(1));
const integer = (fallback: string, min: number, max: number) =>
  v.pipe(v.optional(v.string(), fallback), v.regex(/^\d+$/), v.transform(Number), v.minValue(min), v.maxValue(max));
const flag = (fallback: 'true' | 'false') =>
  v.pipe(
    v.optional(v.picklist(['true', 'false']), fallback),
    v.transform((value) => value === 'true'),
  );

/**
 * The media service's environment. Names match what infra sets (infra/stacks/media-stack.ts:
 * PORT, STAGE, AWS_REGION, TABLE_NAME, OUTBOUND_QUEUE_URL, EVENT_BUS_NAME, RECORDINGS_BUCKET,
 * KMS_KEY_ID, PUBLIC_BASE_URL and the secrets TWILIO_*, DEEPGRAM_API_KEY, OPENAI_API_KEY,
 * STREAM_TOKEN_SECRET); the rest are optional and serve the local stack and tests.
 */
export const MediaConfigSchema = v.object({
  PORT: integer('8080', 0, 65_535),
  /** The `Stage` dimension of the ActiveCalls metric. */
  STAGE: v.optional(v.string(), 'local'),
  /** The https origin Twilio reaches us on; callbacks and the stream URL are signed over it. */
  PUBLIC_BASE_URL: v.pipe(
    required,
    v.url(),
    v.regex(/^https?:\/\//),
    v.transform((url) => url.replace(/\/$/, '')),
  ),
  /**
   * The console's origins, comma-separated (`http://localhost:3000,http://127.0.0.1:3000` locally):
   * a web call from them is always allowed, whatever the business's `web_origins`. Unset: none.
   */
  CONSOLE_ORIGIN: v.pipe(
    v.optional(v.string(), ''),
    v.transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter((origin) => origin !== ''),
    ),
    v.check(
      (origins) => origins.every((origin) => /^https?:\/\/[^/\s]+$/.test(origin)),
      'CONSOLE_ORIGIN must be origins like https://console.example.com (scheme, host, optional port; no path), comma-separated',
    ),
  ),
  AWS_REGION: v.optional(v.string(), 'us-east-1'),
  TABLE_NAME: required,
  DYNAMODB_ENDPOINT: optionalText,
  OUTBOUND_QUEUE_URL: required,
  SQS_ENDPOINT: optionalText,
  /** EventBridge bus for call.started/transferred/ended (required unless a bus is handed in). */
  EVENT_BUS_NAME: optionalText,
  /** Unset: calls are not recorded. */
  RECORDINGS_BUCKET: optionalText,
  S3_ENDPOINT: optionalText,
  /** Opens custom LLM keys on AWS; LOCAL_SECRET_KEY does it locally. */
  KMS_KEY_ID: optionalText,
  LOCAL_SECRET_KEY: optionalText,
  STREAM_TOKEN_SECRET: v.pipe(required, v.minLength(16, 'STREAM_TOKEN_SECRET must be at least 16 characters')),
  /** Twilio: both set on every deployed stage; a media task without them does not start. */
  TWILIO_ACCOUNT_SID: optionalText,
  TWILIO_AUTH_TOKEN: optionalText,
  TWILIO_BASE_URL: optionalText,
  /**
   * The in-process sandbox carrier instead of Twilio: only where explicitly enabled (the local
   * stack and tests). Never a fallback for missing credentials: its token would be the only thing
   * standing between the internet and forged voice webhooks.
   */
  SANDBOX_CARRIER: flag('false'),
  /** The sandbox carrier's auth token (the local stack keeps one per data folder); random when unset. */
  SANDBOX_AUTH_TOKEN: optionalText,
  /**
   * Email (SES v2): the platform's verified sender address, on the stage's SES identity (infra
   * sets it from the stage's `emailDomain`, required outside dev). A deployed task without it runs,
   * and every email fails with a plain "could not be sent". Locally a fixed `.localhost` address.
   */
  EMAIL_FROM_ADDRESS: optionalText,
  /** SES region; default AWS_REGION. */
  SES_REGION: optionalText,
  /** A local SES stand-in (`npm run dev` sets it); empty on AWS. On stage local without it, the media process starts its own. */
  SES_ENDPOINT: optionalText,
  /** Empty: the in-process sandbox Deepgram (Flux + Aura). */
  DEEPGRAM_API_KEY: optionalText,
  DEEPGRAM_BASE_URL: optionalText,
  /** Empty: the in-process sandbox OpenAI. */
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalText,
  /**
   * Payment links: the sandbox payment server instead of Stripe, and its documented test key for
   * every business that set no key of its own (local stack and tests only). Off, a business is
   * offered payment links only once it set its own Stripe key.
   */
  SANDBOX_PAYMENTS: flag('false'),
  /** Where the Stripe SDK goes (empty: Stripe's API); with SANDBOX_PAYMENTS, a sandbox payment server already running. */
  STRIPE_API_URL: v.pipe(
    optionalText,
    v.check(
      (url) => url === undefined || /^https?:\/\/[^/]+\/?$/.test(url),
      'STRIPE_API_URL must be an origin like https://api.stripe.com',
    ),
  ),
  /** Where a caller lands after paying on the hosted page (empty: Stripe's own confirmation). */
  PAYMENT_SUCCESS_URL: optionalText,
  /** Local development only: custom LLM URLs on loopback/private networks (never on AWS). */
  ALLOW_PRIVATE_URLS: flag('false'),
  /**
   * SIGTERM: how long running calls may finish by themselves before they are stopped. ECS kills
   * the task 120 s after SIGTERM (MEDIA_STOP_TIMEOUT_S); 100 s leaves 20 s for the end messages,
   * recording uploads and final writes.
   */
  DRAIN_TIMEOUT_MS: integer('100000', 0, 3_600_000),
  /**
   * The outbound consumer's SQS long poll (s). A drain lets the poll under way finish and hands
   * back what it brings, so a stop takes up to this long: 20 (SQS's maximum, fewest empty
   * receives) in AWS; `npm run dev` uses 2 so Ctrl-C and a parent gone stop a process quickly.
   */
  OUTBOUND_WAIT_S: integer('20', 1, 20),
  /**
   * Calls one task takes at most (its admission cap). Measured: 0.2–0.7 % of a core per call
   * (docs/performance.md), and Node runs the audio on one core; 60 calls use at most ~42 % of it,
   * a safety factor of ~2.4 for greeting bursts, GC and a noisy neighbour before pacing suffers,
   * and at most ~0.8 GB of recording buffers (13.5 MB per recorded call) in the 4 GB task. Above
   * it the voice webhook answers 503, streams are refused at the handshake and the outbound
   * consumer stops receiving (docs/decisions.md "Per-task admission cap").
   */
  MEDIA_MAX_CALLS: integer('60', 1, 10_000),
  /** This process's identity on claimed calls; default host name + pid (the ECS task's host name is unique). */
  OWNER_ID: v.optional(v.string(), `${hostname()}:${process.pid}`),
});

/** The parsed environment. */
export type MediaConfig = v.InferOutput<typeof MediaConfigSchema>;

/** Reads and checks the environment once (fail-fast, naming every bad variable). */
export function readMediaConfig(env: Record<string, string | undefined>): MediaConfig {
  const config = readConfig(MediaConfigSchema, env);
  const twilio = Boolean(config.TWILIO_ACCOUNT_SID) || Boolean(config.TWILIO_AUTH_TOKEN);
  if (twilio && !(config.TWILIO_ACCOUNT_SID && config.TWILIO_AUTH_TOKEN)) {
    throw new ConfigError('Invalid configuration:\n  TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN must be set together.');
  }
  if (twilio && config.SANDBOX_CARRIER) {
    throw new ConfigError('Invalid configuration:\n  SANDBOX_CARRIER=true and Twilio credentials are both set: choose one carrier.');
  }
  if (!twilio && !config.SANDBOX_CARRIER) {
    throw new ConfigError(
      "Invalid configuration:\n  TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are empty: fill the stage's Twilio secret " +
        '(voice-agent/<stage>/twilio) and restart the tasks. No call is taken until then; the sandbox carrier runs only where SANDBOX_CARRIER=true (local stack and tests).',
    );
  }
  if (!config.KMS_KEY_ID && !config.LOCAL_SECRET_KEY) {
    throw new ConfigError('Invalid configuration:\n  set KMS_KEY_ID (AWS) or LOCAL_SECRET_KEY (local stack) to open custom LLM keys.');
  }
  return config;
}
