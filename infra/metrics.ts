import { Duration } from 'aws-cdk-lib';
import { Metric, type MetricOptions } from 'aws-cdk-lib/aws-cloudwatch';
import {
  ACTIVE_CALLS_METRIC,
  CALLS_ENDED_WITH_ERROR_METRIC,
  MEDIA_START_FAILED_METRIC,
  METRIC_NAMESPACE,
  STAGE_DIMENSION,
} from './constants';

/**
 * The media service's own metrics. Each task publishes `ActiveCalls` (its current count) at
 * least once a minute and `CallsEndedWithError` (1 per call ended with `error`), both in the
 * `VoiceAgent` namespace with the `Stage` dimension: the Average of `ActiveCalls` over a minute
 * is then the mean load per task, which autoscaling tracks.
 */
export function mediaMetric(
  name: typeof ACTIVE_CALLS_METRIC | typeof CALLS_ENDED_WITH_ERROR_METRIC | typeof MEDIA_START_FAILED_METRIC,
  stage: string,
  options: MetricOptions = {},
): Metric {
  return new Metric({
    namespace: METRIC_NAMESPACE,
    metricName: name,
    dimensionsMap: { [STAGE_DIMENSION]: stage },
    period: Duration.minutes(1),
    ...options,
  });
}
