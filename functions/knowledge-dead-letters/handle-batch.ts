import { failAbandonedDocument, type DeadLetterDeps } from '../../shared/knowledge/dead-letters';

/** The part of an SQS event this function reads. */
export interface SqsBatch {
  Records?: { messageId: string; body: string }[];
}

/**
 * One batch from the ingestion dead-letter queue: each document still `processing` ends `failed`
 * ({@link failAbandonedDocument}). A record whose write failed is reported back alone (partial
 * batch failure) and delivered again; the others are done.
 */
export async function handleDeadLetters(
  event: SqsBatch,
  deps: DeadLetterDeps,
): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of event.Records ?? []) {
    try {
      await failAbandonedDocument(record.body, deps);
    } catch (error) {
      deps.log.error('knowledge dead letters: the document could not be marked failed; the message will be retried', { error });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
