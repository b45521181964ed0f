import { Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AlarmStatusWidget, Dashboard, GraphWidget, Stats, TextWidget, type IMetric, type IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { StageConfig } from '../config';
import { ACTIVE_CALLS_METRIC, CALLS_ENDED_WITH_ERROR_METRIC, MEDIA_START_FAILED_METRIC } from '../constants';
import { percentOf, ServiceAlarms } from '../constructs/alarms';
import { mediaMetric } from '../metrics';
import { stageNames } from '../stage-names';
import type { ApiStack } from './api-stack';
import type { DataStack } from './data-stack';
import type { MediaStack } from './media-stack';
import type { WebhooksStack } from './webhooks-stack';

/** Props of the operations stack: everything it watches. */
export interface OpsStackProps extends StackProps {
  readonly config: StageConfig;
  readonly data: DataStack;
  readonly api: ApiStack;
  readonly webhooks: WebhooksStack;
  readonly media: MediaStack;
}

const FIVE_MINUTES = Duration.minutes(5);

/** Alarm thresholds, with why. */
const THRESHOLDS = {
  /** % of API requests answered 5xx (SLO error budget is 0.1 %; 1 % over 10 min is an incident). */
  api5xxPercent: 1,
  /** % of webhook-delivery invocations that failed (our fault: throttling, DynamoDB, a bug). */
  webhookErrorPercent: 5,
  /** Calls ended with `error` (our fault) within 5 minutes. */
  callsEndedWithError: 3,
  /** Media task CPU %: audio pacing suffers above this. */
  mediaCpuPercent: 80,
  /** Mean active calls per task, as a multiple of the autoscaling target: scaling is at its ceiling. */
  activeCallsOverTarget: 1.2,
} as const;

/** Alarms (each to one SNS topic, optionally emailed) and the stage's CloudWatch dashboard. */
export class OpsStack extends Stack {
  readonly topic: Topic;
  readonly alarms: ServiceAlarms;
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OpsStackProps) {
    super(scope, id, props);
    const { config } = props;
    const names = stageNames(config.stage);
    const topicKey = new Key(this, 'AlarmTopicKey', {
      description: 'Alarm notifications topic.',
      enableKeyRotation: true,
      removalPolicy: config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    // CloudWatch publishes to the encrypted topic on its own behalf.
    topicKey.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.topic = new Topic(this, 'Alarms', { topicName: `${names.prefix}-alarms`, masterKey: topicKey, enforceSSL: true });
    if (config.alarmEmail) this.topic.addSubscription(new EmailSubscription(config.alarmEmail));
    this.alarms = new ServiceAlarms(this, 'Alarm', this.topic, names.prefix);
    this.addDeliveryAlarms(props);
    this.addMediaAlarms(props);
    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: names.prefix, widgets: this.widgets(props) });
  }

  /** Dead letters, API errors and webhook failures. */
  private addDeliveryAlarms(props: OpsStackProps): void {
    const { api, webhooks } = props;
    for (const [name, dlq] of Object.entries(deadLetterQueues(props))) this.alarms.addDlqDepth(name, dlq);
    const requests = api.httpApi.metricCount({ period: FIVE_MINUTES, statistic: Stats.SUM });
    this.alarms.add('api-5xx-rate', {
      metric: percentOf(
        api.httpApi.metricServerError({ period: FIVE_MINUTES, statistic: Stats.SUM }),
        requests,
        20,
        FIVE_MINUTES,
        'API 5xx %',
      ),
      threshold: THRESHOLDS.api5xxPercent,
      evaluationPeriods: 2,
      description: `More than ${THRESHOLDS.api5xxPercent}% of API requests answered 5xx for 10 minutes.`,
    });
    const delivery = webhooks.delivery.fn;
    this.alarms.add('webhook-failure-rate', {
      metric: percentOf(
        delivery.metricErrors({ period: FIVE_MINUTES }),
        delivery.metricInvocations({ period: FIVE_MINUTES }),
        10,
        FIVE_MINUTES,
        'Webhook delivery errors %',
      ),
      threshold: THRESHOLDS.webhookErrorPercent,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      description: 'Webhook delivery invocations are failing (retries pile up; deliveries head for the DLQ).',
    });
    this.alarms.add('knowledge-documents-given-up', {
      metric: api.knowledgeDeadLetters.fn.fn.metricInvocations({ period: FIVE_MINUTES, statistic: Stats.SUM }),
      threshold: 1,
      description:
        'Knowledge documents were given up after every ingestion retry (the embeddings API or DynamoDB failing) and marked failed; their businesses must add them again. See the knowledge-ingest logs for the cause.',
    });
    this.alarms.add('sweeper-errors', {
      metric: webhooks.sweeper.fn.metricErrors({ period: FIVE_MINUTES }),
      threshold: 3,
      evaluationPeriods: 1,
      description: 'The call sweeper failed 3 times in 5 minutes: stuck calls are not ended and halfway endings not finished.',
    });
  }

  /** The call engine: calls ending in error, CPU, capacity and health. */
  private addMediaAlarms({ config, media }: OpsStackProps): void {
    this.alarms.add('calls-ended-with-error', {
      metric: mediaMetric(CALLS_ENDED_WITH_ERROR_METRIC, config.stage, { period: FIVE_MINUTES, statistic: Stats.SUM }),
      threshold: THRESHOLDS.callsEndedWithError,
      description: 'Calls are ending with ended_reason "error" (a provider outage or a bug in the engine).',
    });
    this.alarms.add('media-start-failed', {
      metric: mediaMetric(MEDIA_START_FAILED_METRIC, config.stage, { period: FIVE_MINUTES, statistic: Stats.SUM }),
      threshold: 1,
      description:
        'A media task could not start (no Twilio credentials, or a bad setting): no call is taken until it is fixed. Its log says what to set.',
    });
    this.alarms.add('media-cpu', {
      metric: media.media.service.metricCpuUtilization({ period: FIVE_MINUTES }),
      threshold: THRESHOLDS.mediaCpuPercent,
      evaluationPeriods: 3,
      description: `Media tasks above ${THRESHOLDS.mediaCpuPercent}% CPU for 15 minutes: audio pacing is at risk.`,
    });
    this.alarms.add('media-active-calls', {
      metric: mediaMetric(ACTIVE_CALLS_METRIC, config.stage, { period: FIVE_MINUTES, statistic: Stats.AVERAGE }),
      threshold: Math.ceil(config.media.targetActiveCallsPerTask * THRESHOLDS.activeCallsOverTarget),
      evaluationPeriods: 3,
      description: 'Active calls per task stay above the scaling target: autoscaling is at maxTasks or not keeping up.',
    });
    this.alarms.add('media-unhealthy-targets', {
      metric: media.targetGroup.metrics.unhealthyHostCount({ period: FIVE_MINUTES, statistic: Stats.MAXIMUM }),
      threshold: 1,
      evaluationPeriods: 2,
      description: 'Media tasks are failing the load balancer health check (GET /health).',
    });
  }

  private widgets({ config, data, api, webhooks, media }: OpsStackProps): IWidget[][] {
    const graph = (title: string, left: IMetric[], right: IMetric[] = []) => new GraphWidget({ title, left, right, width: 8, height: 6 });
    const functions = [api.api, webhooks.analysis, webhooks.delivery, webhooks.sweeper, data.retention.function];
    const queues = [data.outbound.queue, webhooks.buffer.queue];
    const dlqs = Object.values(deadLetterQueues({ data, webhooks, api }));
    const http = api.httpApi;
    return [
      [new TextWidget({ markdown: `# Voice agent — ${config.stage}`, width: 24, height: 1 })],
      [new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms.alarms, width: 24, height: 3 })],
      [
        graph('API requests and errors', [http.metricCount(), http.metricClientError(), http.metricServerError()]),
        graph('API latency (ms)', [
          http.metricLatency({ statistic: 'p50' }),
          http.metricLatency({ statistic: 'p95' }),
          http.metricLatency({ statistic: 'p99' }),
        ]),
        graph(
          'Function errors / throttles',
          functions.map((f) => f.fn.metricErrors()),
          functions.map((f) => f.fn.metricThrottles()),
        ),
      ],
      [
        graph(
          'Active calls',
          [mediaMetric(ACTIVE_CALLS_METRIC, config.stage, { statistic: Stats.AVERAGE, label: 'per task (avg)' })],
          [mediaMetric(ACTIVE_CALLS_METRIC, config.stage, { statistic: Stats.MAXIMUM, label: 'busiest task' })],
        ),
        graph('Calls ended with error', [mediaMetric(CALLS_ENDED_WITH_ERROR_METRIC, config.stage, { statistic: Stats.SUM })]),
        graph('Media CPU / memory %', [media.media.service.metricCpuUtilization(), media.media.service.metricMemoryUtilization()]),
      ],
      [
        graph(
          'Queue depth',
          queues.map((q) => q.metricApproximateNumberOfMessagesVisible()),
        ),
        graph(
          'Oldest message (s)',
          queues.map((q) => q.metricApproximateAgeOfOldestMessage()),
        ),
        graph(
          'DLQ depth',
          dlqs.map((q) => q.metricApproximateNumberOfMessagesVisible({ statistic: Stats.MAXIMUM })),
        ),
      ],
    ];
  }
}

/** Every DLQ of the stage, by the name its alarm carries. */
function deadLetterQueues({ data, webhooks, api }: Pick<OpsStackProps, 'data' | 'webhooks' | 'api'>): Record<string, IQueue> {
  return {
    'knowledge-ingest': api.knowledgeIngest.queue.dlq,
    'outbound-calls': data.outbound.dlq,
    retention: data.retention.dlq,
    events: webhooks.eventsDlq,
    analysis: webhooks.analysisDlq,
    webhooks: webhooks.buffer.dlq,
  };
}
