import { paginateQuery } from '@aws-sdk/lib-dynamodb';
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
