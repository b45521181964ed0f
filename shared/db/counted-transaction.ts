import { paginateQuery, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { CONFLICT_BACKOFF, fullJitterMs } from '../domain/backoff';
import type { Db } from './client';
import { cancelledTransactionItem, isConditionFailure, isTransactionConflict } from './conditions';
import { keys } from './table';

/**
 * Writes that keep a count in their own transaction (the knowledge limits, the tool limit): a
 * create counts up only under its limit, a delete counts down only what was counted. A count
 * missing (data from before the count) fails every counted write, so it is counted from the items
 * once and seeded, and nothing counted can change while it is counted.
 */

/** A transaction's tries: real DynamoDB cancels concurrent transactions on one item (10 ms doubling to 1 s). */
const ATTEMPTS = 12;

/** A count a transaction changes: its item's position in the transaction, and how to seed it. */
export interface CountInTransaction {
  index: number;
  /** The count's item, as the cancelled transaction saw it, has no count yet. */
  unseeded(item: Record<string, unknown> | undefined): boolean;
  /**
   * Counts the items and writes the count, unless another writer seeded it first; `false` when
   * there is nothing to seed it from (the transaction's refusal then stands).
   */
  seed(): Promise<void | false>;
}

/**
 * Runs a transaction, again with full jitter while it loses only to concurrent transactions, and
 * again once its counts are seeded when some had none. Any other cancellation is thrown for the
 * caller to read (`isCancelledTransaction(error, index)`).
 */
export async function transactCounted(db: Db, items: object[], counts?: CountInTransaction | readonly CountInTransaction[]): Promise<void> {
  const all = counts === undefined ? [] : Array.isArray(counts) ? counts : [counts as CountInTransaction];
  for (let attempt = 0; ; attempt++) {
    try {
      await db.doc.send(new TransactWriteCommand({ TransactItems: items as never }));
      return;
    } catch (error) {
      if (attempt + 1 >= ATTEMPTS) throw error;
      if (isTransactionConflict(error)) {
        await new Promise((resolve) => setTimeout(resolve, fullJitterMs(attempt, CONFLICT_BACKOFF, Math.random)));
        continue;
      }
      const unseeded = all.filter((count) => {
        const lost = cancelledTransactionItem(error, count.index);
        return lost !== undefined && count.unseeded(lost.item);
      });
      if (unseeded.length === 0) throw error;
      const seeded = await Promise.all(unseeded.map((count) => count.seed()));
      if (seeded.includes(false)) throw error;
    }
  }
}

/** Items of the business under `prefix`, read consistently (a seed must not miss a write just made). */
export async function countBusinessItems(db: Db, businessId: number, prefix: string): Promise<number> {
  let count = 0;
  const pages = paginateQuery(
    { client: db.doc },
    {
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.business(businessId).pk, ':prefix': prefix },
      Select: 'COUNT',
      ConsistentRead: true,
    },
  );
  for await (const page of pages) count += page.Count ?? 0;
  return count;
}

/** A seed that lost its condition was written by another writer first (or its base is gone): nothing to do. */
export async function unlessSeeded(write: Promise<unknown>): Promise<void> {
  await write.catch((error: unknown) => {
    if (!isConditionFailure(error)) throw error;
  });
}
