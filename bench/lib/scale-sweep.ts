import type { CallRecord } from '../../shared/db/call-record';
import type { CallRepository } from '../../shared/db/call-repository';
import type { Db } from '../../shared/db/client';
import type { CallSweeper } from '../../shared/services/call-sweeper';
import { outboundCallRecord } from '../../test/support/call-states';
import { writeItems } from './scale-history';

/** DynamoDB requests one process made, with the items they returned and the read capacity they consumed. */
export interface RequestTally {
  requests: number;
  items: number;
  readUnits: number;
}

/**
 * Counts every DynamoDB request of `db` (asking each for its consumed capacity, which DynamoDB
 * Local computes as DynamoDB does), so a sweep's cost is read off the wire, not estimated.
 */
export function tallyRequests(db: Db): { snapshot(): RequestTally } {
  const tally: RequestTally = { requests: 0, items: 0, readUnits: 0 };
  db.doc.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const output = result.output as Record<string, any>;
      tally.requests++;
      tally.items += output.Items?.length ?? 0;
      for (const rows of Object.values((output.Responses ?? {}) as Record<string, unknown[]>)) tally.items += rows.length;
      const consumed = [output.ConsumedCapacity ?? []].flat() as { CapacityUnits?: number; ReadCapacityUnits?: number }[];
      for (const entry of consumed) tally.readUnits += entry.ReadCapacityUnits ?? entry.CapacityUnits ?? 0;
      return result;
    },
    { step: 'initialize', name: 'bench-tally' },
  );
  return { snapshot: () => ({ ...tally }) };
}

/** Open calls: live (answered, streaming, heartbeat fresh), spread over the first businesses, as a busy hour leaves them. */
export async function addOpenCalls(db: Db, calls: CallRepository, firstId: number, count: number, businesses: number, now: Date) {
  const at = now.toISOString();
  const live = Array.from({ length: count }, (_, i): CallRecord => ({
    ...outboundCallRecord(firstId + i, 1 + (i % businesses), at),
    status: 'in_progress',
    started_at: at,
    media_started_at: at,
    heartbeat_at: at,
    slot_held: true,
    reserved_minutes: 5,
  }));
  await writeItems(
    db,
    live.flatMap((record) => calls.newCallItems(record).map((put) => put.Put.Item)),
  );
}

/** What one sweep cost. */
export interface SweepCost extends RequestTally {
  open: number;
  cpuMs: number;
  wallMs: number;
}

/** One sweep pass, measured: the requests and items it read, the capacity, CPU (this process) and wall time. */
export async function measureSweep(sweeper: CallSweeper, tally: { snapshot(): RequestTally }): Promise<SweepCost> {
  const before = tally.snapshot();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const report = await sweeper.sweepOnce();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const after = tally.snapshot();
  return {
    open: report.open,
    requests: after.requests - before.requests,
    items: after.items - before.items,
    readUnits: after.readUnits - before.readUnits,
    cpuMs: (used.user + used.system) / 1000,
    wallMs,
  };
}
