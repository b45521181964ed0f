import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DLQ_RETENTION_DAYS, MAX_RECEIVE_COUNT } from '../constants';
import { acknowledge } from '../nag';

/** Props of a work queue and its dead-letter queue. */
export interface QueueWithDlqProps {
  /** Physical name of the queue; the DLQ is `<name>-dlq`. */
  readonly queueName: string;
  /** How long a received message stays hidden: longer than the consumer ever takes. */
  readonly visibilityTimeout: Duration;
  /** Retention of the work queue (default 4 days, the SQS default). */
  readonly retentionPeriod?: Duration;
  readonly removalPolicy: RemovalPolicy;
}

/**
 * A work queue whose messages move to a DLQ after 5 receives. Both queues are encrypted with
 * SSE-SQS (EventBridge and Lambda can use them without key grants) and refuse non-TLS requests.
 */
export class QueueWithDlq extends Construct {
  readonly queue: Queue;
  readonly dlq: Queue;

  constructor(scope: Construct, id: string, props: QueueWithDlqProps) {
    super(scope, id);
    this.dlq = new Queue(this, 'Dlq', {
      queueName: `${props.queueName}-dlq`,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(DLQ_RETENTION_DAYS),
      removalPolicy: props.removalPolicy,
    });
    this.queue = new Queue(this, 'Queue', {
      queueName: props.queueName,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: props.visibilityTimeout,
      retentionPeriod: props.retentionPeriod ?? Duration.days(4),
      deadLetterQueue: { queue: this.dlq, maxReceiveCount: MAX_RECEIVE_COUNT },
      removalPolicy: props.removalPolicy,
    });
  }
}

/** Props of a stand-alone dead-letter queue. */
export interface DeadLetterQueueProps {
  readonly queueName: string;
  /** Who sends failures here (EventBridge target, Lambda destination, stream mapping). */
  readonly purpose: string;
  readonly removalPolicy: RemovalPolicy;
}

/**
 * A DLQ that receives failures from something other than an SQS redrive (EventBridge target
 * DLQs, Lambda on-failure destinations), with the same encryption, TLS and 14-day retention.
 */
export function createDeadLetterQueue(scope: Construct, id: string, props: DeadLetterQueueProps): Queue {
  const queue = new Queue(scope, id, {
    queueName: props.queueName,
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(DLQ_RETENTION_DAYS),
    removalPolicy: props.removalPolicy,
  });
  acknowledge(
    queue,
    'AwsSolutions-SQS3',
    `This queue is itself a dead-letter queue (${props.purpose}); it is alarmed on depth, not redriven further.`,
  );
  return queue;
}
