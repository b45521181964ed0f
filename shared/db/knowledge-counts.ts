import { paginateQuery, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { KNOWLEDGE_LIMITS } from '../domain/knowledge';
import type { Db } from './client';
import { countBusinessItems, unlessSeeded, type CountInTransaction } from './counted-transaction';
import { keys } from './table';

/**
 * The counts behind the knowledge limits (docs/decisions.md "Knowledge bases", the limits): a
 * business's bases in its `KBCOUNT` item (`bases`), a base's documents and the passages of its
 * ready documents on the base item itself (`documents`, `chunks`, so those counts are deleted with
 * their base). Every create (or document made ready) and delete changes its count
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
      const bases = await countBusinessItems(db, businessId, keys.knowledgeBasePrefix());
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
 * one fewer, also bumping the base's `version` (its searchable content changed) and, for a ready
 * document, giving back its `chunks` passages (the delete must have read it ready).
 */
export function documentCountChange(db: Db, businessId: number, kbId: number, delta: 1 | -1, chunks = 0): object {
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
        : chunks > 0
          ? {
              UpdateExpression: 'SET documents = documents - :one, chunks = chunks - :chunks ADD version :one',
              ConditionExpression: 'attribute_exists(documents) AND attribute_exists(chunks)',
              ExpressionAttributeValues: { ':one': 1, ':chunks': chunks },
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
type BaseItemCount = 'documents' | 'chunks';

/**
 * The counts on a base item at `index` of a transaction, each seeded when missing: `documents`
 * from its `KBDOC#` items, `chunks` from its ready documents' `chunk_count` (a base gone has
 * none to seed). While a count is missing every write that changes it fails, so the items it is
 * counted from cannot change under the seed (a document becomes ready, or a ready one is
 * deleted, only by changing `chunks`).
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
          count === 'documents'
            ? await countBusinessItems(db, businessId, keys.knowledgeDocumentPrefix(kbId))
            : await sumReadyChunks(db, businessId, kbId);
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

/** A base's document count at `index` of a transaction, seeded from its `KBDOC#` items. */
export function documentCount(db: Db, businessId: number, kbId: number, index: number): CountInTransaction {
  return baseItemCounts(db, businessId, kbId, index, ['documents']);
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
