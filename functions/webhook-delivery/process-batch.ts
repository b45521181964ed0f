import { deliverRecord, type DeliverDeps } from './deliver';

/** The part of an SQS event record the delivery loop reads. */
export interface SqsMessageRecord {
  messageId: string;
  body: string;
}

/** The Lambda partial-batch response: only these messages are returned to the queue. */
export interface BatchResponse {
  batchItemFailures: { itemIdentifier: string }[];
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
      deps.log.error(`webhook delivery message ${record.messageId} failed`, { error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
