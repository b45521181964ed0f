/**
 * Names the infra autoscaling policy tracks (infra/constants.ts: METRIC_NAMESPACE,
 * ACTIVE_CALLS_METRIC, STAGE_DIMENSION). Repeated here because runtime code may not import infra;
 * test/integration/media/media-server.test.ts pins them to the infra constants.
 */
export const ACTIVE_CALLS_NAMESPACE = 'VoiceAgent';
export const ACTIVE_CALLS_METRIC_NAME = 'ActiveCalls';
export const ACTIVE_CALLS_DIMENSION = 'Stage';

/**
 * One CloudWatch Embedded Metric Format line: CloudWatch Logs turns it into the `ActiveCalls`
 * metric (no PutMetricData call, no SDK, nothing on the hot path).
 */
export function activeCallsEmf(stage: string, activeCalls: number, nowMs: number): string {
  return emfLine(stage, ACTIVE_CALLS_METRIC_NAME, activeCalls, nowMs);
}

/** The `CallsEndedWithError` metric name (infra/constants.ts CALLS_ENDED_WITH_ERROR_METRIC). */
export const CALLS_ENDED_WITH_ERROR_METRIC_NAME = 'CallsEndedWithError';

/** One EMF line counting a call that ended with `error` (the ops alarm sums these per 5 minutes). */
export function callEndedWithErrorEmf(stage: string, nowMs: number): string {
  return emfLine(stage, CALLS_ENDED_WITH_ERROR_METRIC_NAME, 1, nowMs);
}

/** One EMF line: a count under the service's namespace, per stage. */
function emfLine(stage: string, metric: string, value: number, nowMs: number): string {
  return JSON.stringify({
    _aws: {
      Timestamp: nowMs,
      CloudWatchMetrics: [
        { Namespace: ACTIVE_CALLS_NAMESPACE, Dimensions: [[ACTIVE_CALLS_DIMENSION]], Metrics: [{ Name: metric, Unit: 'Count' }] },
      ],
    },
    [ACTIVE_CALLS_DIMENSION]: stage,
    [metric]: value,
  });
}

/**
 * Publishes this task's call count every `everyMs` (default 60 s: the autoscaling metric's period,
 * so every period has a sample). Returns the stop function; the timer never keeps the process up.
 */
export function publishActiveCalls(options: {
  stage: string;
  count: () => number;
  write?: (line: string) => void;
  everyMs?: number;
}): () => void {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const publish = () => write(activeCallsEmf(options.stage, options.count(), Date.now()));
  publish();
  const timer = setInterval(publish, options.everyMs ?? 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
