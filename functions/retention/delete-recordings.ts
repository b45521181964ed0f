import { DeleteObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { Logger } from '../../shared/log';

/** The part of a DynamoDB stream record this function reads. */
export interface RetentionStreamRecord {
  eventName?: string;
  dynamodb?: { SequenceNumber?: string; OldImage?: Record<string, { S?: string }> };
}

/** SQS/stream partial-batch answer: the records to retry. */
export interface BatchResult {
  batchItemFailures: { itemIdentifier: string }[];
}

/**
 * Deletes the recording of every call item DynamoDB TTL removed (`keep_days`). Only objects under
 * `recordings/` are touched, whatever the item says. A failed delete is reported by its sequence
 * number so the stream retries just that record; a missing object counts as deleted (S3 delete is
 * idempotent).
 */
export async function deleteExpiredRecordings(
  records: RetentionStreamRecord[],
  deps: { s3: Pick<S3Client, 'send'>; bucket: string; log: Logger },
): Promise<BatchResult> {
  const failures: { itemIdentifier: string }[] = [];
  for (const record of records) {
    const key = record.dynamodb?.OldImage?.recording_key?.S;
    if (record.eventName !== 'REMOVE' || !key) continue;
    if (!key.startsWith('recordings/')) {
      deps.log.warn(`retention: refusing to delete ${key}, outside recordings/`);
      continue;
    }
    try {
      await deps.s3.send(new DeleteObjectCommand({ Bucket: deps.bucket, Key: key }));
    } catch (error) {
      deps.log.error(`retention: delete of ${key} failed`, { error });
      if (record.dynamodb?.SequenceNumber) failures.push({ itemIdentifier: record.dynamodb.SequenceNumber });
    }
  }
  return { batchItemFailures: failures };
}
