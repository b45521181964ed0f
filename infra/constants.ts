/**
 * Numbers that are the same on every stage, each with the reason it has its value. Stage-specific
 * values live in config.ts.
 */

/** The longest call the engine allows (`max_duration_s` upper bound). */
export const MAX_CALL_DURATION_S = 3600;

/**
 * ALB idle timeout: above the longest call, so a quiet media stream is never cut; 4000 s is the
 * ALB maximum.
 */
export const ALB_IDLE_TIMEOUT_S = 4000;

/**
 * Target-group deregistration delay: a task leaving the load balancer (deploy, scale-in) keeps
 * its open media streams until they end; ECS sends SIGTERM only after this delay. 3600 s is the
 * ALB maximum and equals the longest call.
 */
export const MEDIA_DEREGISTRATION_DELAY_S = MAX_CALL_DURATION_S;

/** SIGTERM → SIGKILL grace: the engine drains what is left; 120 s is the ECS maximum. */
export const MEDIA_STOP_TIMEOUT_S = 120;

/**
 * How long calls still running at SIGTERM may go on by themselves (the engine's DRAIN_TIMEOUT_MS)
 * before they are stopped: 20 s less than the stop timeout, for their end messages, recording
 * uploads and final writes, and the outbound consumer's last long poll (≤ 20 s, run alongside).
 */
export const MEDIA_DRAIN_TIMEOUT_S = MEDIA_STOP_TIMEOUT_S - 20;

/**
 * Step scaling on the age of the oldest outbound call waiting in the queue, in seconds. A call
 * deferred at its business's concurrency cap goes back on the queue for at most 60 s (the
 * engine's WAIT_AT_CAP), so ages up to about a minute are businesses waiting for their own slots,
 * which more tasks would not help. Past 120 s no task is taking work: every task is at its
 * admission cap. Then add 2 tasks, and 4 past 300 s.
 */
export const OUTBOUND_AGE_SCALE_OUT_S = 120;
export const OUTBOUND_AGE_SCALE_OUT_FAST_S = 300;

/** The media service's HTTP + WebSocket port. */
export const MEDIA_PORT = 8080;
/** The media service's health endpoint (load balancer and container checks). */
export const MEDIA_HEALTH_PATH = '/health';
/** The media service's WebSocket path for calls from a browser (the API's WEB_CALL_URL ends with it). */
export const WEB_CALL_PATH = '/web/calls';

/** Namespace of the media service's own metrics. */
export const METRIC_NAMESPACE = 'VoiceAgent';
/** Each task's current number of calls (autoscaling tracks its average). */
export const ACTIVE_CALLS_METRIC = 'ActiveCalls';
/** 1 per call that ended with `ended_reason: error`. */
export const CALLS_ENDED_WITH_ERROR_METRIC = 'CallsEndedWithError';
/**
 * 1 per media task that could not start (its `media.start_failed` log line, counted by a metric
 * filter): a stage without Twilio credentials, or any other bad configuration.
 */
export const MEDIA_START_FAILED_METRIC = 'MediaStartFailed';
/** The log message that metric filter matches (media-service/src/server/media-runtime.ts MEDIA_START_FAILED). */
export const MEDIA_START_FAILED_LOG = 'media.start_failed';
/** The one dimension of the media metrics; its value is the stage name (env STAGE). */
export const STAGE_DIMENSION = 'Stage';

/** Receives before a message moves to its DLQ; consumers are idempotent, so retries are safe. */
export const MAX_RECEIVE_COUNT = 5;

/** DLQ retention: the SQS maximum, longer than any source queue's, so nothing ages out unseen. */
export const DLQ_RETENTION_DAYS = 14;

/**
 * Outbound-calls visibility timeout: the media service claims the call (one conditional write)
 * and asks Twilio to dial (one REST call) within a few seconds; 60 s is the same value the local
 * stack uses, so a consumer crash re-offers the job within a minute.
 */
export const OUTBOUND_VISIBILITY_TIMEOUT_S = 60;

/** Webhook delivery: 10 s HTTP timeout per attempt (docs/design.md "Webhooks"). */
export const WEBHOOK_HTTP_TIMEOUT_S = 10;
/** Records per invocation: two sequential 10 s attempts plus DynamoDB/KMS calls fit in 30 s. */
export const WEBHOOK_BATCH_SIZE = 2;
/** Webhook delivery function timeout: the batch's attempts plus 10 s for DynamoDB and KMS (30 s). */
export const WEBHOOK_FUNCTION_TIMEOUT_S = WEBHOOK_BATCH_SIZE * WEBHOOK_HTTP_TIMEOUT_S + 10;
/** AWS's guidance for SQS event sources: visibility timeout at least 6x the function timeout. */
export const WEBHOOK_VISIBILITY_TIMEOUT_S = 6 * WEBHOOK_FUNCTION_TIMEOUT_S;

/** Analysis calls the LLM for summary, score and structured data: minutes, not seconds, at worst. */
export const ANALYSIS_FUNCTION_TIMEOUT_S = 180;

/** API Gateway HTTP APIs give an integration at most 30 s. */
export const API_FUNCTION_TIMEOUT_S = 29;

/** Where recordings are written in the bucket (`recordings/<business>/<call>.wav`). */
export const RECORDINGS_PREFIX = 'recordings/';

/**
 * With versioning on, a deleted recording survives as a noncurrent version for this many days
 * (an undo window for a buggy delete) and is then gone for good.
 */
export const NONCURRENT_VERSION_DAYS = 1;
