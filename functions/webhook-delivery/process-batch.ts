import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { deliverRecord, MAX_QUEUE_DELAY_S, type DeliverDeps, type WebhookQueue } from './deliver';

/** The part of an SQS event record the delivery loop reads. */
export interface SqsMessageRecord {
  messageId: string;
  body: string;
}

/** The Lambda partial-batch response: only these messages are returned to the queue. */
export interface BatchResponse {
  batchItemFailures: { itemIdentifier: string }[];
}

/** SQS adapter of the webhook queue (fauxqs locally). */
export class SqsWebhookQueue implements WebhookQueue {
  constructor(
    private readonly sqs: Pick<SQSClient, 'send'>,
    private readonly queueUrl: string,
  ) {}

  async send(body: string, delaySeconds: number): Promise<void> {
    const delay = Math.min(MAX_QUEUE_DELAY_S, Math.max(0, Math.ceil(delaySeconds)));
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: body, DelaySeconds: delay }));
  }
}

/**
 * The partial-batch loop: each message is delivered on its own. Receiver
 * failures are already recorded and rescheduled by {@link deliverRecord}, so only unexpected errors
 * (our database, KMS, the queue, a malformed message) are reported back, and SQS redelivers just
 * those messages (then its DLQ takes them).
 */
export async function processBatch(records: readonly SqsMessageRecord[], deps: DeliverDeps): Promise<BatchResponse> {
  const batchItemFailures: BatchResponse['batchItemFailures'] = [];
  for (const record of records) {
    try {
      await deliverRecord(record.body, deps);
    } catch (error) {
      deps.log(`webhook delivery message ${record.messageId} failed`, error);
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
