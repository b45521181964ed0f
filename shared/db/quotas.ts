import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { effectiveQuotas, QUOTA_NAMES, type QuotaName, type Quotas } from '../domain/quota';
import type { Db } from './client';
import { countBusinessItems, unlessSeeded, type CountInTransaction } from './counted-transaction';
import { keys } from './table';

/**
 * The per-business quotas (docs/decisions.md "Quotas"): ops' overrides in the business's `QUOTAS`
 * item, and one count item per counted resource, changed in the resource's own create and delete
 * transactions. A create takes one only while the count is under the quota; a delete gives one back
 * only when it was counted. A count missing (resources from before it) is counted once from the
 * resource's items and seeded (shared/db/counted-transaction.ts). Documents are counted per
 * knowledge base on the base item (shared/db/knowledge-counts.ts).
 */

/** A business-wide count: its item, its attribute and the sort-key prefix of the items it counts. */
interface BusinessCount {
  key: (businessId: number) => { pk: string; sk: string };
  attribute: string;
  prefix: string;
  entity: string;
}

/** The business-wide counts; the tool and knowledge-base counts predate quotas and keep their items. */
const COUNTS: Record<Exclude<QuotaName, 'documents'>, BusinessCount> = {
  assistants: { key: keys.assistantCount, attribute: 'assistants', prefix: keys.assistantPrefix(), entity: 'assistant_count' },
  workflows: { key: keys.workflowCount, attribute: 'workflows', prefix: keys.workflowPrefix(), entity: 'workflow_count' },
  tools: { key: keys.toolCount, attribute: 'tools', prefix: keys.toolPrefix(), entity: 'tool_count' },
  knowledge_bases: { key: keys.knowledgeBaseCount, attribute: 'bases', prefix: keys.knowledgeBasePrefix(), entity: 'knowledge_base_count' },
  phone_numbers: { key: keys.phoneNumberCount, attribute: 'phone_numbers', prefix: keys.phoneNumberPrefix(), entity: 'phone_number_count' },
};

/** A resource counted business-wide. */
export type BusinessCountName = keyof typeof COUNTS;

/**
 * Takes one of `name` while its count is under `quota` (the count's item returns as it stood when
 * refused: {@link quotaCount} tells a missing count from a full one).
 */
export function quotaTake(db: Db, businessId: number, name: BusinessCountName, quota: number): object {
  const count = COUNTS[name];
  return {
    Update: {
      TableName: db.tableName,
      Key: count.key(businessId),
      UpdateExpression: 'SET #count = #count + :one',
      ConditionExpression: '#count < :quota',
      ExpressionAttributeNames: { '#count': count.attribute },
      ExpressionAttributeValues: { ':one': 1, ':quota': quota },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** Gives one of `name` back, only when counted (a missing count is seeded first, never set below what is left). */
export function quotaGiveBack(db: Db, businessId: number, name: BusinessCountName): object {
  const count = COUNTS[name];
  return {
    Update: {
      TableName: db.tableName,
      Key: count.key(businessId),
      UpdateExpression: 'SET #count = #count - :one',
      ConditionExpression: 'attribute_exists(#count)',
      ExpressionAttributeNames: { '#count': count.attribute },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** The count of `name` at `index` of a transaction, seeded from the business's items when missing. */
export function quotaCount(db: Db, businessId: number, name: BusinessCountName, index: number): CountInTransaction {
  const count = COUNTS[name];
  return {
    index,
    unseeded: (item) => item?.[count.attribute] === undefined,
    seed: async () => {
      const held = await countBusinessItems(db, businessId, count.prefix);
      await unlessSeeded(
        db.doc.send(
          new PutCommand({
            TableName: db.tableName,
            Item: { ...count.key(businessId), entity: count.entity, [count.attribute]: held },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      );
    },
  };
}

/** Ops' quota overrides, per business; every create reads its quota here (one item, one read). */
export class QuotaRepository {
  constructor(private readonly db: Db) {}

  /** The business's quotas: the defaults with its overrides over them. */
  async getQuotas(businessId: number): Promise<Quotas> {
    const result = await this.db.doc.send(new GetCommand({ TableName: this.db.tableName, Key: keys.quotas(businessId) }));
    return effectiveQuotas(result.Item);
  }

  /** One quota of the business. */
  async quotaOf(businessId: number, name: QuotaName): Promise<number> {
    return (await this.getQuotas(businessId))[name];
  }

  /** Sets the quotas given (the others keep their value); returns them all. */
  async setQuotas(businessId: number, changes: Partial<Quotas>): Promise<Quotas> {
    const names = QUOTA_NAMES.filter((name) => changes[name] !== undefined);
    if (names.length === 0) return this.getQuotas(businessId);
    const result = await this.db.doc.send(
      new UpdateCommand({
        TableName: this.db.tableName,
        Key: keys.quotas(businessId),
        UpdateExpression: `SET entity = :entity, ${names.map((name, i) => `#q${i} = :q${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#q${i}`, name])),
        ExpressionAttributeValues: { ':entity': 'quotas', ...Object.fromEntries(names.map((name, i) => [`:q${i}`, changes[name]])) },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return effectiveQuotas(result.Attributes);
  }

  /** How many of each business-wide resource the business holds (its counts; a missing one reads as counted from the items). */
  async usage(businessId: number): Promise<Record<BusinessCountName, number>> {
    const entries = await Promise.all(
      (Object.keys(COUNTS) as BusinessCountName[]).map(async (name) => {
        const count = COUNTS[name];
        const item = (
          await this.db.doc.send(new GetCommand({ TableName: this.db.tableName, Key: count.key(businessId), ConsistentRead: true }))
        ).Item;
        const held = item?.[count.attribute];
        return [name, typeof held === 'number' ? held : await countBusinessItems(this.db, businessId, count.prefix)] as const;
      }),
    );
    return Object.fromEntries(entries) as Record<BusinessCountName, number>;
  }
}
