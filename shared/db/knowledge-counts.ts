import { paginateQuery, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CONFLICT_BACKOFF, fullJitterMs } from '../domain/backoff';
import { KNOWLEDGE_LIMITS } from '../domain/knowledge';
import type { Db } from './client';
import { cancelledTransactionItem, isConditionFailure, isTransactionConflict } from './conditions';
import { keys } from './table';

/**
 * The counts behind the knowledge limits (docs/decisions.md "Knowledge bases", the limits): a
 * business's bases in its `KBCOUNT` item (`bases`), a base's documents on the base item itself
 * (`documents`, so that count is deleted with its base). Every create and delete changes its count
 * in its own transaction, a create only while the count is under the limit, so concurrent creates
 * cannot pass it. A count missing (data from before the counts) makes every counted write fail, so
 * it is counted from the items once and seeded, and nothing counted can change while it is counted.
 */

/** A create past a knowledge limit (a lost race with concurrent creates included). */
export class KnowledgeLimitError extends Error {
  constructor(readonly limit: 'basesPerBusiness' | 'documentsPerBase') {
    super(`${limit === 'basesPerBusiness' ? 'A business' : 'A knowledge base'} is at its limit of ${KNOWLEDGE_LIMITS[limit]}.`);
    this.name = 'KnowledgeLimitError';
  }
}

/** A transaction's tries: real DynamoDB cancels concurrent transactions on one item (10 ms doubling to 1 s). */
const ATTEMPTS = 12;

/** A count a transaction changes: its item's position in the transaction, and how to seed it. */
export interface CountInTransaction {
  index: number;
  /** The count's item, as the cancelled transaction saw it, has no count yet. */
  unseeded(item: Record<string, unknown> | undefined): boolean;
  /** Counts the items and writes the count, unless another writer seeded it first. */
  seed(): Promise<void>;
}

/**
 * Runs a transaction, again with full jitter while it loses only to concurrent transactions, and
 * again once its count is seeded when it had none. Any other cancellation is thrown for the caller
 * to read (`isCancelledTransaction(error, index)`).
 */
export async function transactCounted(db: Db, items: object[], count?: CountInTransaction): Promise<void> {
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
      const lost = count ? cancelledTransactionItem(error, count.index) : undefined;
      if (!count || !lost || !count.unseeded(lost.item)) throw error;
      await count.seed();
    }
  }
}

/** Counts one more base only under the limit, one fewer only when counted (a missing count fails both). */
export function baseCountChange(db: Db, businessId: number, delta: 1 | -1): object {
  return {
    Update: {
      TableName: db.tableName,
      Key: keys.knowledgeBaseCount(businessId),
      UpdateExpression: 'SET bases = bases + :delta',
      ConditionExpression: delta > 0 ? 'bases < :max' : 'attribute_exists(bases)',
      ExpressionAttributeValues: { ':delta': delta, ...(delta > 0 && { ':max': KNOWLEDGE_LIMITS.basesPerBusiness }) },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** The business's base count at `index` of a transaction, seeded from its `KB#` items. */
export function baseCount(db: Db, businessId: number, index: number): CountInTransaction {
  return {
    index,
    unseeded: (item) => item?.bases === undefined,
    seed: async () => {
      const bases = await countItems(db, businessId, keys.knowledgeBasePrefix());
      await unlessSeeded(
        db.doc.send(
          new PutCommand({
            TableName: db.tableName,
            Item: { ...keys.knowledgeBaseCount(businessId), entity: 'knowledge_base_count', bases },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      );
    },
  };
}

/**
 * Counts one more document of a base only under the limit (and only while the base exists), or
 * one fewer, also bumping the base's `version` (its searchable content changed).
 */
export function documentCountChange(db: Db, businessId: number, kbId: number, delta: 1 | -1): object {
  return {
    Update: {
      TableName: db.tableName,
      Key: keys.knowledgeBase(businessId, kbId),
      ...(delta > 0
        ? {
            UpdateExpression: 'SET documents = documents + :one',
            ConditionExpression: 'documents < :max',
            ExpressionAttributeValues: { ':one': 1, ':max': KNOWLEDGE_LIMITS.documentsPerBase },
          }
        : {
            UpdateExpression: 'SET documents = documents - :one ADD version :one',
            ConditionExpression: 'attribute_exists(documents)',
            ExpressionAttributeValues: { ':one': 1 },
          }),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** A base's document count at `index` of a transaction, seeded from its `KBDOC#` items (a base gone has none to seed). */
export function documentCount(db: Db, businessId: number, kbId: number, index: number): CountInTransaction {
  return {
    index,
    unseeded: (item) => item !== undefined && item.documents === undefined,
    seed: async () => {
      const documents = await countItems(db, businessId, keys.knowledgeDocumentPrefix(kbId));
      await unlessSeeded(
        db.doc.send(
          new UpdateCommand({
            TableName: db.tableName,
            Key: keys.knowledgeBase(businessId, kbId),
            UpdateExpression: 'SET documents = :documents',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(documents)',
            ExpressionAttributeValues: { ':documents': documents },
          }),
        ),
      );
    },
  };
}

/** Items of the business under `prefix`, read consistently (a seed must not miss a write just made). */
async function countItems(db: Db, businessId: number, prefix: string): Promise<number> {
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
async function unlessSeeded(write: Promise<unknown>): Promise<void> {
  await write.catch((error: unknown) => {
    if (!isConditionFailure(error)) throw error;
  });
}
