import { paginateQuery, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { KNOWLEDGE_LIMITS } from '../domain/knowledge';
import type { Db } from './client';
import { unlessSeeded, type CountInTransaction } from './counted-transaction';
import { keys } from './table';

/**
 * The counts kept on a knowledge base item (docs/decisions.md "Knowledge bases", the limits, and
 * "Quotas"): its documents that are not failed (`live_documents`, under the business's
 * `documents` quota) and the passages of its ready documents (`chunks`), so both are deleted with
 * their base. (The business's bases are counted with the other quotas, shared/db/quotas.ts.)
 * Every create (or document made ready, or failed) and delete changes its count in its own
 * transaction, a create only while the count is under the limit, so concurrent creates cannot pass
 * it. A count missing (data from before the count) makes every counted write fail, so it is counted
 * from the items once and seeded, and nothing counted can change while it is counted. A failed
 * document gives its place back when it fails, so `documents` counted failed ones and was replaced.
 */

/** A base's count of documents that are not failed (the `documents` quota counts these). */
export const LIVE_DOCUMENTS = 'live_documents';

/** Counts one more document of a base only under `quota` (and only while the base exists). */
export function documentCountAdd(db: Db, businessId: number, kbId: number, quota: number): object {
  return {
    Update: {
      TableName: db.tableName,
      Key: keys.knowledgeBase(businessId, kbId),
      UpdateExpression: 'SET live_documents = live_documents + :one',
      ConditionExpression: 'live_documents < :quota',
      ExpressionAttributeValues: { ':one': 1, ':quota': quota },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/**
 * Counts one fewer document of a base (one deleted, not failed), also bumping the base's
 * `version` (its searchable content changed) and, for a ready document, giving back its `chunks`
 * passages (the delete must have read it ready).
 */
export function documentCountRemove(db: Db, businessId: number, kbId: number, chunks = 0): object {
  return {
    Update: {
      TableName: db.tableName,
      Key: keys.knowledgeBase(businessId, kbId),
      ...(chunks > 0
        ? {
            UpdateExpression: 'SET live_documents = live_documents - :one, chunks = chunks - :chunks ADD version :one',
            ConditionExpression: 'attribute_exists(live_documents) AND attribute_exists(chunks)',
            ExpressionAttributeValues: { ':one': 1, ':chunks': chunks },
          }
        : {
            UpdateExpression: 'SET live_documents = live_documents - :one ADD version :one',
            ConditionExpression: 'attribute_exists(live_documents)',
            ExpressionAttributeValues: { ':one': 1 },
          }),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** A document failed: its place on the base is given back (only when counted: a missing count is seeded first). */
export function documentFailed(db: Db, businessId: number, kbId: number): object {
  return {
    Update: {
      TableName: db.tableName,
      Key: keys.knowledgeBase(businessId, kbId),
      UpdateExpression: 'SET live_documents = live_documents - :one',
      ConditionExpression: 'attribute_exists(live_documents)',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/**
 * Counts a document's `chunks` passages on its base as it becomes ready, only while the base stays
 * within `chunksPerBase` (a condition cannot add, so it compares with the room left), and bumps the
 * base's `version`. A failed condition returns the base as it stood: its `chunks` say how full it is.
 */
export function chunkCountAdd(db: Db, businessId: number, kbId: number, chunks: number): object {
  return {
    Update: {
      TableName: db.tableName,
      Key: keys.knowledgeBase(businessId, kbId),
      UpdateExpression: 'SET chunks = chunks + :chunks ADD version :one',
      ConditionExpression: 'chunks <= :room',
      ExpressionAttributeValues: { ':chunks': chunks, ':one': 1, ':room': KNOWLEDGE_LIMITS.chunksPerBase - chunks },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** A count kept on the base item. */
type BaseItemCount = typeof LIVE_DOCUMENTS | 'chunks';

/**
 * The counts on a base item at `index` of a transaction, each seeded when missing:
 * `live_documents` from its `KBDOC#` items not failed, `chunks` from its ready documents'
 * `chunk_count` (a base gone has none to seed). While a count is missing every write that changes
 * it fails, so the items it is counted from cannot change under the seed (a document is added,
 * fails, or a live one is deleted, only by changing `live_documents`; becomes ready, or a ready
 * one is deleted, only by changing `chunks`).
 */
export function baseItemCounts(
  db: Db,
  businessId: number,
  kbId: number,
  index: number,
  counts: readonly BaseItemCount[],
): CountInTransaction {
  return {
    index,
    unseeded: (item) => item !== undefined && counts.some((count) => item[count] === undefined),
    seed: async () => {
      for (const count of counts) {
        const value =
          count === LIVE_DOCUMENTS ? await countLiveDocuments(db, businessId, kbId) : await sumReadyChunks(db, businessId, kbId);
        await unlessSeeded(
          db.doc.send(
            new UpdateCommand({
              TableName: db.tableName,
              Key: keys.knowledgeBase(businessId, kbId),
              UpdateExpression: 'SET #count = :value',
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#count)',
              ExpressionAttributeNames: { '#count': count },
              ExpressionAttributeValues: { ':value': value },
            }),
          ),
        );
      }
    },
  };
}

/** A base's count of documents not failed at `index` of a transaction, seeded from its `KBDOC#` items. */
export function documentCount(db: Db, businessId: number, kbId: number, index: number): CountInTransaction {
  return baseItemCounts(db, businessId, kbId, index, [LIVE_DOCUMENTS]);
}

/** A base's documents not failed, read consistently (a seed must not miss a write just made). */
async function countLiveDocuments(db: Db, businessId: number, kbId: number): Promise<number> {
  let count = 0;
  const pages = paginateQuery(
    { client: db.doc },
    {
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: '#status <> :failed',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':pk': keys.business(businessId).pk,
        ':prefix': keys.knowledgeDocumentPrefix(kbId),
        ':failed': 'failed',
      },
      Select: 'COUNT',
      ConsistentRead: true,
    },
  );
  for await (const page of pages) count += page.Count ?? 0;
  return count;
}

/** The passages of a base's ready documents, read consistently (a seed must not miss a write just made). */
async function sumReadyChunks(db: Db, businessId: number, kbId: number): Promise<number> {
  let sum = 0;
  const pages = paginateQuery(
    { client: db.doc },
    {
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: '#status = :ready',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pk': keys.business(businessId).pk, ':prefix': keys.knowledgeDocumentPrefix(kbId), ':ready': 'ready' },
      ProjectionExpression: 'chunk_count',
      ConsistentRead: true,
    },
  );
  for await (const page of pages) for (const item of page.Items ?? []) sum += Number(item.chunk_count ?? 0);
  return sum;
}
