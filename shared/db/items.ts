import { paginateQuery, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Db } from './client';
import { keys } from './table';

/** Removes the table's key and bookkeeping attributes from an item, leaving the record's own fields. */
export function fromItem<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, gsi3pk: _f, gsi3sk: _g, entity: _e, ...rest } = item;
  return rest as T;
}

/** Every item of one business whose sort key starts with `prefix`, following pagination. */
export async function queryBusinessPrefix<T>(db: Db, businessId: number, prefix: string): Promise<T[]> {
  const records: T[] = [];
  const pages = paginateQuery(
    { client: db.doc },
    {
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.business(businessId).pk, ':prefix': prefix },
    },
  );
  for await (const page of pages) records.push(...(page.Items ?? []).map((item) => fromItem<T>(item)));
  return records;
}

/**
 * The first `wanted` items a query yields, following pagination (the list routes' pages: DynamoDB
 * has no offset, so a page at offset N reads N + limit + 1 items; the extra one tells `has_more`).
 * Each request asks for a little more than wanted, so items filtered out rarely cost a second page.
 */
export async function firstItems(
  db: Db,
  input: Omit<QueryCommandInput, 'TableName' | 'Limit'>,
  wanted: number,
): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  const pages = paginateQuery({ client: db.doc }, { ...input, TableName: db.tableName, Limit: Math.min(wanted + 20, 1000) });
  for await (const page of pages) {
    found.push(...(page.Items ?? []));
    if (found.length >= wanted) break;
  }
  return found;
}
