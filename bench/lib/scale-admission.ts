import { waitAtCapS } from '../../media-service/src/calls/outbound-consumer';
import type { CallRepository } from '../../shared/db/call-repository';
import { CallSlotsRepository } from '../../shared/db/call-slots-repository';
import type { Db } from '../../shared/db/client';
import { outboundCallRecord } from '../../test/support/call-states';
import { writeItems } from './scale-history';

/**
 * The start rate one business's item allows (`npm run bench:scale`, part `admission`): the real
 * admission (`CallSlotsRepository`: a plain read, then one transaction taking a slot and reserving
 * minutes) and the real give-back (one transaction), against DynamoDB Local, without SQS, the
 * carrier or the call engine around them, so what limits the rate is the business item and the
 * table, not the diallers. `backlog` calls arrive at once, then `rate` a second for `seconds`;
 * the calls are dealt to `tasks` stand-in tasks, each with its own DynamoDB client and at most
 * `inFlight` admissions under way (a task's receive of 10 jobs), a call
 * at the cap waits as the consumer makes it wait (2 s doubling to 60 s, jittered), a started call
 * holds its slot `holdMs` ±50 % and gives it back.
 */

/** One admission run's shape. */
export interface AdmissionLoad {
  businessId: number;
  firstCallId: number;
  /** Calls waiting at once at the start. */
  backlog: number;
  /** New calls a second after the backlog, for `seconds`. */
  rate: number;
  seconds: number;
  holdMs: number;
  /** Stand-in call-engine tasks, each with its own client. */
  tasks: number;
  /** Admissions under way at once per task. */
  inFlight: number;
}

/** What the run saw. */
export interface AdmissionRun {
  calls: number;
  started: number;
  /** Start times (ms after the run began), in order. */
  startsAtMs: number[];
  /** Each admission that got a slot: the time from asking to the answer (reads, transaction, retries). */
  admitMs: number[];
  /** Calls refused at the cap (each waits and tries again). */
  atCap: number;
  /** Admissions and give-backs that threw after their own retries. */
  errors: number;
  conflicts: number;
  refusedByRead: number;
  elapsedMs: number;
}

/** Writes the queued calls the run starts. */
export async function seedAdmissionCalls(db: Db, calls: CallRepository, load: AdmissionLoad): Promise<void> {
  const at = new Date().toISOString();
  const count = load.backlog + load.rate * load.seconds;
  const records = Array.from({ length: count }, (_, i) => outboundCallRecord(load.firstCallId + i, load.businessId, at));
  await writeItems(
    db,
    records.flatMap((record) => calls.newCallItems(record).map((put) => put.Put.Item)),
  );
}

/** Runs the load until every call has started and given its slot back; `connect` makes each task's client. */
export async function runAdmission(connect: () => Db, load: AdmissionLoad): Promise<AdmissionRun> {
  const tasks = Array.from({ length: load.tasks }, () => ({ slots: new CallSlotsRepository(connect()), gate: semaphore(load.inFlight) }));
  const run: AdmissionRun = {
    calls: load.backlog + load.rate * load.seconds,
    started: 0,
    startsAtMs: [],
    admitMs: [],
    atCap: 0,
    errors: 0,
    conflicts: 0,
    refusedByRead: 0,
    elapsedMs: 0,
  };
  const began = performance.now();
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const one = async (callId: number): Promise<void> => {
    const { slots, gate } = tasks[callId % tasks.length]!;
    for (let attempt = 0; ; attempt++) {
      const release = await gate();
      const asked = performance.now();
      let admitted = false;
      try {
        const admission = await slots.admit(load.businessId, callId, 10);
        admitted = admission.kind === 'admitted';
        if (admitted) {
          run.admitMs.push(performance.now() - asked);
          run.startsAtMs.push(performance.now() - began);
          run.started++;
        } else if (admission.kind === 'at_capacity') run.atCap++;
        else throw new Error(`call ${callId} was not admitted: ${admission.kind}`);
      } catch {
        run.errors++;
      } finally {
        release();
      }
      if (admitted) break;
      await pause(waitAtCapS(attempt) * 1000);
    }
    const heldMs = load.holdMs * (0.5 + Math.random());
    await pause(heldMs);
    await slots.giveBack(load.businessId, callId, Math.ceil(heldMs / 1000)).catch(() => void run.errors++);
  };
  const all: Promise<void>[] = [];
  for (let i = 0; i < load.backlog; i++) all.push(one(load.firstCallId + i));
  for (let second = 0; second < load.seconds; second++) {
    const due = began + (second + 1) * 1000;
    for (let i = 0; i < load.rate; i++) {
      // Spread each second's arrivals evenly over it.
      await pause(Math.max(0, due - 1000 + (i * 1000) / load.rate - performance.now()));
      all.push(one(load.firstCallId + load.backlog + second * load.rate + i));
    }
  }
  await Promise.all(all);
  run.elapsedMs = performance.now() - began;
  run.conflicts = tasks.reduce((sum, task) => sum + task.slots.stats.conflicts, 0);
  run.refusedByRead = tasks.reduce((sum, task) => sum + task.slots.stats.refusedByRead, 0);
  run.startsAtMs.sort((a, b) => a - b);
  return run;
}

/** At most `limit` holders at once; the returned function waits for a turn and resolves with its release. */
function semaphore(limit: number): () => Promise<() => void> {
  let free = limit;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  return () => {
    if (free > 0) {
      free--;
      return Promise.resolve(release);
    }
    return new Promise((resolve) => waiting.push(() => resolve(release)));
  };
}
