import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { KNOWLEDGE_LIMITS } from '../domain/knowledge';
import type { Db } from './client';
import { countBusinessItems, unlessSeeded, type CountInTransaction } from './counted-transaction';
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
      const documents = await countBusinessItems(db, businessId, keys.knowledgeDocumentPrefix(kbId));
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
