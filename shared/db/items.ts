import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './client';
import { keys } from './table';

/** Removes the table's key and bookkeeping attributes from an item, leaving the record's own fields. */
export function fromItem<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, entity: _e, ...rest } = item;
  return rest as T;
}

/** Every item of one business whose sort key starts with `prefix`, following pagination. */
export async function queryBusinessPrefix<T>(db: Db, businessId: number, prefix: string): Promise<T[]> {
  const items: Record<string, unknown>[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.business(businessId).pk, ':prefix': prefix },
        ExclusiveStartKey: cursor,
      }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items.map((item) => fromItem<T>(item));
}
