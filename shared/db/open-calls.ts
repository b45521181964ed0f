import { BatchGetCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import type { CallStatus } from '../domain/call';
import type { CallRecord } from './call-record';
import type { Db } from './client';
import { fromItem } from './items';
import { GSI3, keys } from './table';

/**
 * Reads of the open-calls index (GSI3, keys only): a call is in it from its creation until its
 * ending is complete, so what these read grows with the calls open now, never with a business's
 * history or the number of businesses.
 */

/** How many of one business's calls are open in `status` (one `begins_with` count query, paginated). */
export async function countOpenCalls(db: Db, businessId: number, status: CallStatus): Promise<number> {
  let count = 0;
  const pages = paginateQuery(
    { client: db.doc },
    {
      TableName: db.tableName,
      IndexName: GSI3,
      KeyConditionExpression: 'gsi3pk = :pk AND begins_with(gsi3sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.openCallPartition(businessId), ':prefix': keys.openCallStatusPrefix(businessId, status) },
      Select: 'COUNT',
    },
  );
  for await (const page of pages) count += page.Count ?? 0;
  return count;
}

/** What one read of every open call found. */
export interface OpenCalls {
  calls: CallRecord[];
  /** More than `max` calls were open: the rest are read on a later pass. */
  truncated: boolean;
}

/**
 * Every open call (one query per index shard), then their records (batch reads of 100, strongly
 * consistent). At most `max` calls; an index entry whose call has gone since is skipped.
 */
export async function listOpenCalls(db: Db, max: number): Promise<OpenCalls> {
  const found: Record<string, unknown>[] = [];
  let truncated = false;
  for (const shard of keys.openCallShards()) {
    const pages = paginateQuery(
      { client: db.doc },
      {
        TableName: db.tableName,
        IndexName: GSI3,
        KeyConditionExpression: 'gsi3pk = :pk',
        ExpressionAttributeValues: { ':pk': shard },
      },
    );
    for await (const page of pages) {
      found.push(...(page.Items ?? []).map((item) => ({ pk: item.pk, sk: item.sk })));
      if (found.length > max) break;
    }
    if (found.length > max) {
      truncated = true;
      break;
    }
  }
  return { calls: await getCalls(db, found.slice(0, max)), truncated };
}

async function getCalls(db: Db, callKeys: Record<string, unknown>[]): Promise<CallRecord[]> {
  const calls: CallRecord[] = [];
  for (let i = 0; i < callKeys.length; i += 100) {
    let request: Record<string, { Keys: Record<string, unknown>[]; ConsistentRead: boolean }> | undefined = {
      [db.tableName]: { Keys: callKeys.slice(i, i + 100), ConsistentRead: true },
    };
    while (request && Object.keys(request).length > 0) {
      const result = await db.doc.send(new BatchGetCommand({ RequestItems: request }));
      calls.push(...(result.Responses?.[db.tableName] ?? []).map((item) => fromItem<CallRecord>(item)));
      request = result.UnprocessedKeys as typeof request;
    }
  }
  return calls;
}
