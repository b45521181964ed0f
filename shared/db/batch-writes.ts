import { BatchWriteCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import type { Db } from './client';
import { keys } from './table';

/**
 * Bulk writes outside transactions: sweeping everything under a key prefix (a deleted knowledge
 * base's documents and chunks) and writing a document's chunk pages.
 */

/** The keys of every item in the business's partition whose sort key starts with `prefix`. */
export async function keysUnder(db: Db, businessId: number, prefix: string): Promise<{ pk: string; sk: string }[]> {
  const found: { pk: string; sk: string }[] = [];
  const pages = paginateQuery(
    { client: db.doc },
    {
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.business(businessId).pk, ':prefix': prefix },
      ProjectionExpression: 'pk, sk',
    },
  );
  for await (const page of pages) for (const item of page.Items ?? []) found.push({ pk: String(item.pk), sk: String(item.sk) });
  return found;
}

/** Deletes the items with these keys, 25 to a batch. */
export async function deleteKeys(db: Db, keyList: { pk: string; sk: string }[]): Promise<void> {
  await batchWrite(
    db,
    keyList.map((Key) => ({ DeleteRequest: { Key } })),
  );
}

/** Sends the requests 25 to a batch; what DynamoDB leaves unprocessed is retried (100 ms doubling to 1 s), ten tries at most. */
export async function batchWrite(db: Db, requests: object[]): Promise<void> {
  for (let i = 0; i < requests.length; i += 25) {
    let pending: object[] = requests.slice(i, i + 25);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
      const result = await db.doc.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: pending as never } }));
      pending = (result.UnprocessedItems?.[db.tableName] as object[] | undefined) ?? [];
      if (attempt > 8 && pending.length > 0) throw new Error('knowledge: DynamoDB kept writes unprocessed');
    }
  }
}
