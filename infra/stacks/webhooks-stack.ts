import { Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { Rule, Schedule, type IRuleTarget } from 'aws-cdk-lib/aws-events';
import { LambdaFunction, SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { EVENT_RULES, type RuleTarget } from '../../shared/events/rules';
import type { StageConfig } from '../config';
import { ANALYSIS_FUNCTION_TIMEOUT_S, WEBHOOK_BATCH_SIZE, WEBHOOK_FUNCTION_TIMEOUT_S, WEBHOOK_VISIBILITY_TIMEOUT_S } from '../constants';
import { NodeFunction, type NodeFunctionProps } from '../constructs/node-function';
import { createDeadLetterQueue, QueueWithDlq } from '../constructs/queue-with-dlq';
import { recordingsBucketName, stageNames } from '../stage-names';
import type { DataStack } from './data-stack';

/** Props of the events/webhooks stack. */
export interface WebhooksStackProps extends StackProps {
  readonly config: StageConfig;
  readonly data: DataStack;
}

/** Settings every function of the stack shares. */
type FunctionDefaults = Pick<NodeFunctionProps, 'logRetention' | 'removalPolicy' | 'reservedConcurrency'>;

/** EventBridge keeps retrying a target for up to 24 h (then the event goes to the target DLQ). */
const TARGET_MAX_EVENT_AGE = Duration.hours(24);

/**
 * What happens after a call: the EventBridge rules (declared once in shared/events/rules.ts and
 * shared with the local router), the analysis function, and signed webhook delivery through an
 * SQS buffer. The retry schedule (now, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h) is
 * the delivery function's: it re-sends the message to the same queue with DelaySeconds, in hops
 * of at most 900 s for the long waits.
 */
export class WebhooksStack extends Stack {
  readonly analysis: NodeFunction;
  readonly delivery: NodeFunction;
  readonly buffer: QueueWithDlq;
  /** Events EventBridge could not hand to a target within 24 h. */
  readonly eventsDlq: Queue;
  /** Analysis invocations that failed after Lambda's asynchronous retries. */
  readonly analysisDlq: Queue;
  readonly rules: Rule[];
  /** The one call sweeper of the deployment, run every minute by a schedule. */
  readonly sweeper: NodeFunction;

  constructor(scope: Construct, id: string, props: WebhooksStackProps) {
    super(scope, id, props);
    const { config, data } = props;
    const names = stageNames(config.stage);
    const removalPolicy = config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const common: FunctionDefaults = { logRetention: config.logRetention, removalPolicy };

    this.eventsDlq = createDeadLetterQueue(this, 'EventsDlq', {
      queueName: `${names.prefix}-events-dlq`,
      purpose: 'EventBridge rule targets that could not be invoked within 24 h',
      removalPolicy,
    });
    this.analysisDlq = createDeadLetterQueue(this, 'AnalysisDlq', {
      queueName: `${names.prefix}-analysis-dlq`,
      purpose: 'analysis invocations that failed after two asynchronous retries',
      removalPolicy,
    });
    this.analysis = this.createAnalysis(data, names.tableName, { ...common, reservedConcurrency: config.concurrency.analysisMax });
    this.buffer = new QueueWithDlq(this, 'WebhookBuffer', {
      queueName: `${names.prefix}-webhooks`,
      visibilityTimeout: Duration.seconds(WEBHOOK_VISIBILITY_TIMEOUT_S),
      removalPolicy,
    });
    this.delivery = this.createDelivery(data, config.stage, common, config.concurrency.webhookDeliveryMax);
    this.sweeper = this.createSweeper(data, config.stage, common);
    new Rule(this, 'SweeperSchedule', {
      ruleName: `${names.prefix}-sweeper`,
      description: 'Every minute: the call sweeper moves stuck calls on and finishes halfway endings.',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaFunction(this.sweeper.fn, { retryAttempts: 0 })],
    });
    this.rules = EVENT_RULES.map(
      (rule) =>
        new Rule(this, `Rule-${rule.name}`, {
          eventBus: data.bus,
          ruleName: `${names.prefix}-${rule.name}`,
          description: rule.description,
          eventPattern: {
            source: [...rule.pattern.source],
            detailType: [...rule.pattern['detail-type']],
            ...(rule.pattern.detail && { detail: { webhook: [...rule.pattern.detail.webhook] } }),
          },
          targets: [this.targetFor(rule.target)],
        }),
    );
  }

  /** call.ended -> analysis, invoked asynchronously by EventBridge (failures to its DLQ). */
  private createAnalysis(data: DataStack, tableName: string, common: FunctionDefaults): NodeFunction {
    return new NodeFunction(this, 'Analysis', {
      entry: 'functions/analysis/index.ts',
      description: 'call.ended -> summary, score, structured data, outcome; writes the call; emits call.completed.',
      serviceName: 'analysis',
      timeout: Duration.seconds(ANALYSIS_FUNCTION_TIMEOUT_S),
      memorySize: 1024,
      asyncFailureQueue: this.analysisDlq,
      ...common,
    })
      .bindTable(tableName, 'read-write')
      .bindEventBus(data.bus)
      .bindSecret('OPENAI_SECRET_ARN', data.secrets.openai)
      .bindSecretsKey(data.secretsKey, ['decrypt']);
  }

  /**
   * The call sweeper: reads the open calls (GSI3) and ends, requeues or finishes them. One at a
   * time (reserved concurrency 1): a slow sweep is skipped by the next tick, never overlapped. A
   * missed tick is harmless (the next one a minute later does the same work), so no retries.
   */
  private createSweeper(data: DataStack, stage: string, common: FunctionDefaults): NodeFunction {
    const sweeper = new NodeFunction(this, 'Sweeper', {
      entry: 'functions/sweeper/index.ts',
      description: 'Every minute: ends calls whose engine died or whose carrier went quiet, requeues stuck queued calls.',
      serviceName: 'sweeper',
      timeout: Duration.seconds(50),
      memorySize: 512,
      ...common,
      reservedConcurrency: 1,
    })
      .bindTable(stageNames(stage).tableName, 'read-write')
      .bindEventBus(data.bus)
      .bindQueue('OUTBOUND_QUEUE_URL', data.outbound.queue, 'send')
      .bindSecret('TWILIO_SECRET_ARN', data.secrets.twilio)
      .bindSecretsKey(data.secretsKey, ['decrypt']);
    sweeper.fn.addEnvironment('STAGE', stage);
    return sweeper;
  }

  /** The buffer's consumer: small batches, partial-batch failures, re-sends to its own queue. */
  private createDelivery(data: DataStack, stage: string, common: FunctionDefaults, maxConcurrency: number): NodeFunction {
    const delivery = new NodeFunction(this, 'WebhookDelivery', {
      entry: 'functions/webhook-delivery/index.ts',
      description: 'Signs and POSTs webhooks to business servers; schedules retries as delayed messages.',
      serviceName: 'webhook-delivery',
      timeout: Duration.seconds(WEBHOOK_FUNCTION_TIMEOUT_S),
      memorySize: 512,
      ...common,
    })
      .bindTable(stageNames(stage).tableName, 'read-write')
      .bindQueue('WEBHOOK_QUEUE_URL', this.buffer.queue, 'send-and-consume')
      .bindSecretsKey(data.secretsKey, ['decrypt'])
      .bindRecordings(recordingsBucketName(this, stage), data.recordingsKey, 'read');
    // The event source's own cap (not reserved concurrency): SQS then holds the backlog instead of
    // Lambda throttling the poller, and dead receivers can hold at most this many executions.
    delivery.fn.addEventSource(
      new SqsEventSource(this.buffer.queue, { batchSize: WEBHOOK_BATCH_SIZE, reportBatchItemFailures: true, maxConcurrency }),
    );
    return delivery;
  }

  /** The consumer a rule feeds, with the events DLQ behind every target. */
  private targetFor(target: RuleTarget): IRuleTarget {
    const failure = { deadLetterQueue: this.eventsDlq, maxEventAge: TARGET_MAX_EVENT_AGE, retryAttempts: 185 };
    switch (target) {
      case 'analysis':
        return new LambdaFunction(this.analysis.fn, failure);
      case 'webhooks':
        return new SqsQueue(this.buffer.queue, failure);
      default: {
        const unknown: never = target;
        throw new Error(`No consumer for rule target ${String(unknown)}`);
      }
    }
  }
}
