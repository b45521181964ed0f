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

/** Batch reads of call records in flight at once during one sweep. */
const READS_IN_FLIGHT = 4;

/**
 * Every open call (one query per index shard, the shards at once), then their records (batch
 * reads of 100, strongly consistent, a few at once). At most `max` calls; an index entry whose
 * call has gone since is skipped. The round trips run side by side, so a sweep's wall time is a
 * few round trips, not 8 + one per 100 calls (measured with `npm run bench:scale`).
 */
export async function listOpenCalls(db: Db, max: number): Promise<OpenCalls> {
  const perShard = await Promise.all(keys.openCallShards().map((shard) => openCallKeys(db, shard, max)));
  const found = perShard.flat();
  const callKeys = found.slice(0, max);
  const chunks = Array.from({ length: Math.ceil(callKeys.length / 100) }, (_, i) => callKeys.slice(i * 100, i * 100 + 100));
  const calls: CallRecord[] = [];
  const worker = async () => {
    for (let chunk = chunks.shift(); chunk !== undefined; chunk = chunks.shift()) calls.push(...(await getCalls(db, chunk)));
  };
  await Promise.all(Array.from({ length: READS_IN_FLIGHT }, worker));
  return { calls, truncated: found.length > max };
}

/** The keys of one shard's open calls, stopping once more than `max` are found. */
async function openCallKeys(db: Db, shard: string, max: number): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  const pages = paginateQuery(
    { client: db.doc },
    { TableName: db.tableName, IndexName: GSI3, KeyConditionExpression: 'gsi3pk = :pk', ExpressionAttributeValues: { ':pk': shard } },
  );
  for await (const page of pages) {
    found.push(...(page.Items ?? []).map((item) => ({ pk: item.pk, sk: item.sk })));
    if (found.length > max) break;
  }
  return found;
}

async function getCalls(db: Db, callKeys: Record<string, unknown>[]): Promise<CallRecord[]> {
  const calls: CallRecord[] = [];
  let request: Record<string, { Keys: Record<string, unknown>[]; ConsistentRead: boolean }> | undefined = {
    [db.tableName]: { Keys: callKeys, ConsistentRead: true },
  };
  while (request && Object.keys(request).length > 0) {
    const result = await db.doc.send(new BatchGetCommand({ RequestItems: request }));
    calls.push(...(result.Responses?.[db.tableName] ?? []).map((item) => fromItem<CallRecord>(item)));
    request = result.UnprocessedKeys as typeof request;
  }
  return calls;
}
