import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Business } from '../../shared/db/business-repository';
import type { CallRecord } from '../../shared/db/call-record';
import type { CallRepository } from '../../shared/db/call-repository';
import type { Db } from '../../shared/db/client';
import { keys } from '../../shared/db/table';
import { outboundCallRecord } from '../../test/support/call-states';

/** The history `npm run bench:scale` writes (env BENCH_BUSINESSES, BENCH_DAYS, BENCH_CALLS_PER_DAY). */
export interface HistorySize {
  businesses: number;
  days: number;
  callsPerDay: number;
}

/** What loading took. */
export interface HistoryLoad {
  items: number;
  calls: number;
  seconds: number;
}

/** Call ids start here, far above the business ids (1..businesses). */
export const FIRST_CALL_ID = 10_000_000;

/** Batch writes in flight at once: DynamoDB Local on 2 cores takes no more. */
const IN_FLIGHT = 8;

/** A business as the admin command line creates it (the sealed secret is a placeholder: nothing here opens it). */
export function benchBusiness(id: number, cap: number, minutes: number, at: string): Business {
  return {
    id,
    name: `Bench ${id}`,
    created_at: at,
    minutes_balance: minutes,
    minutes_reserved: 0,
    max_concurrent_calls: cap,
    profile: {
      display_name: `Bench ${id}`,
      industry: '',
      description: '',
      hours: '',
      address: '',
      phone: '',
      website: '',
      transfer_number: null,
    } as unknown as Business['profile'],
    webhook_secret_sealed: 'bench-unsealed',
  };
}

/** A finished call of the history: ended, settled, out of the open-calls index, as an ending leaves it. */
function endedCall(id: number, businessId: number, startedAt: Date): CallRecord {
  const started = startedAt.toISOString();
  const durationS = 30 + (id % 270);
  const ended = new Date(startedAt.getTime() + durationS * 1000).toISOString();
  return {
    ...outboundCallRecord(id, businessId, started),
    direction: id % 3 === 0 ? 'inbound' : 'outbound',
    status: 'ended',
    started_at: started,
    ended_at: ended,
    updated_at: ended,
    ended_reason: 'caller_hung_up',
    duration_s: durationS,
    ended_event_id: `evt_${id}`,
    finish_pending: false,
    slot_held: true,
    slot_released: true,
    reserved_minutes: 5,
    settled: true,
    charged_minutes: Math.ceil(durationS / 60),
  };
}

/** Writes `items` with batch writes of 25, one after another, retrying what DynamoDB left unprocessed. */
export async function writeItems(db: Db, items: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) await writeBatch(db, items.slice(i, i + 25));
}

/**
 * Writes `size.businesses` businesses (business item and directory entry) and, for each, a call
 * history of `days` × `callsPerDay` ended calls (a fractional rate: one call every few days) (call and detail items, with the GSI1/GSI2 keys
 * the API's listings use), with batch writes of 25. Every call is ended, so none is in the
 * open-calls index: what a sweep must never read.
 */
export async function loadHistory(db: Db, calls: CallRepository, size: HistorySize, now: Date): Promise<HistoryLoad> {
  const started = performance.now();
  const at = now.toISOString();
  let nextCallId = FIRST_CALL_ID;
  let items = 0;
  const batch: Record<string, unknown>[] = [];
  const inFlight = new Set<Promise<void>>();
  const flush = async () => {
    const chunk = batch.splice(0, 25);
    if (chunk.length === 0) return;
    items += chunk.length;
    const write = writeBatch(db, chunk).finally(() => inFlight.delete(write));
    inFlight.add(write);
    if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
  };
  for (let businessId = 1; businessId <= size.businesses; businessId++) {
    batch.push({ ...keys.business(businessId), entity: 'business', ...benchBusiness(businessId, 10, 10_000, at) });
    batch.push({ ...keys.businessDirectory(businessId), ...keys.businessIndex(businessId), entity: 'business_directory', id: businessId });
    // days × callsPerDay calls (a fraction: one every few days), spread evenly over the days.
    const count = Math.round(size.days * size.callsPerDay);
    for (let n = 0; n < count; n++) {
      const ago = ((n + 0.5) / count) * size.days * 86_400_000 + (businessId % 3600) * 1000;
      for (const put of calls.newCallItems(endedCall(nextCallId++, businessId, new Date(now.getTime() - ago)))) batch.push(put.Put.Item);
    }
    while (batch.length >= 25) await flush();
  }
  while (batch.length > 0) await flush();
  await Promise.all(inFlight);
  return { items, calls: nextCallId - FIRST_CALL_ID, seconds: (performance.now() - started) / 1000 };
}

async function writeBatch(db: Db, items: Record<string, unknown>[]): Promise<void> {
  let request: Record<string, { PutRequest: { Item: Record<string, unknown> } }[]> | undefined = {
    [db.tableName]: items.map((Item) => ({ PutRequest: { Item } })),
  };
  while (request && Object.keys(request).length > 0) {
    const result = await db.doc.send(new BatchWriteCommand({ RequestItems: request }));
    request = result.UnprocessedItems as typeof request;
  }
}
