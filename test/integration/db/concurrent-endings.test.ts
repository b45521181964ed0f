import { InternalServerError, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { AssistantRepository } from '../../../shared/db/assistant-repository';
import { BusinessRepository } from '../../../shared/db/business-repository';
import { CallRepository } from '../../../shared/db/call-repository';
import { CallSlotsRepository } from '../../../shared/db/call-slots-repository';
import { createDb, type Db } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';
import { MinutesRepository } from '../../../shared/db/minutes-repository';
import { keys } from '../../../shared/db/table';
import { defaultBusinessProfile } from '../../../shared/domain/business-profile';
import type { CallEvent } from '../../../shared/events/catalog';
import { DEFAULT_SWEEP_LIMITS, sweepAction } from '../../../shared/services/call-sweeper';
import { CallLifecycle } from '../../../shared/services/call-lifecycle';
import { seedQueuedCall } from '../../support/call-states';

/**
 * Many calls of one business ending at once while DynamoDB fails some of their requests the way a
 * loaded one does (`npm run bench:scale` found it: DynamoDB Local answering "timed out waiting for
 * a lock" past the SDK's three attempts; in AWS, throttling of the hot business item and the rare
 * 500). The failures are injected above the SDK's retries, on a schedule fixed per call, some
 * after the write landed (the answer lost), against the real business item in DynamoDB Local.
 */

const endpoint = inject('dynamoEndpoint');
const tableName = inject('tableName');
const clean = createDb({ tableName, region: 'local', endpoint });
const ids = new IdAllocator(clean);
const calls = new CallRepository(clean);

type Step = 'ended write' | 'give-back' | 'finish flag' | 'other';

/** Which step of an ending a request is, and for which call (by what it writes). */
function stepOf(input: Record<string, any>): { step: Step; callId?: number } {
  const text = JSON.stringify(input);
  const sk = String((input.TransactItems?.[0]?.Update ?? input).Key?.sk ?? '');
  const callId = /^CALL#(\d+)#MAIN$/.exec(sk)?.[1];
  const step: Step =
    input.TransactItems && text.includes('finish_pending')
      ? 'ended write'
      : input.TransactItems && text.includes('settled')
        ? 'give-back'
        : input.UpdateExpression && text.includes('finish_pending')
          ? 'finish flag'
          : 'other';
  return { step, ...(callId !== undefined && { callId: Number(callId) }) };
}

/** How a request fails: before it is sent, after it landed (the answer lost), or as a transaction conflict. */
type Fault = 'before' | 'landed' | 'conflict';

const lockTimeout = () =>
  new InternalServerError({ message: 'This action timed out because it too long waiting for a lock.', $metadata: {} });
const conflict = () =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }],
  });

/** A client on the same table whose requests fail as `plan` says (the faults of one call and step, in order). */
function faultyDb(plan: (step: Step, index: number) => Fault[]): { db: Db; injected: () => number } {
  const db = createDb({ tableName, region: 'local', endpoint });
  const seen = new Map<string, number>();
  let injected = 0;
  db.doc.middlewareStack.add(
    (next) => async (args) => {
      const { step, callId } = stepOf(args.input as Record<string, any>);
      if (callId === undefined || step === 'other') return next(args);
      const key = `${step}#${callId}`;
      const attempt = seen.get(key) ?? 0;
      seen.set(key, attempt + 1);
      const fault = plan(step, callId)[attempt];
      if (!fault) return next(args);
      injected++;
      if (fault === 'landed') await next(args);
      throw fault === 'conflict' ? conflict() : lockTimeout();
    },
    { step: 'initialize', name: 'inject-load-faults' },
  );
  return { db, injected: () => injected };
}

/** A business at its cap with `count` answered calls, each holding a slot and 5 reserved minutes. */
async function liveCalls(count: number, answeredAt: Date) {
  const businessId = await ids.nextId();
  await new BusinessRepository(clean).putBusiness({
    id: businessId,
    name: 'Endings',
    created_at: answeredAt.toISOString(),
    minutes_balance: 1000,
    minutes_reserved: 0,
    max_concurrent_calls: count,
    profile: defaultBusinessProfile(),
    webhook_secret_sealed: 'unused',
  });
  const slots = new CallSlotsRepository(clean);
  const callIds = await Promise.all(
    Array.from({ length: count }, async () => {
      const { callId } = await seedQueuedCall(calls, ids, businessId);
      expect((await slots.admit(businessId, callId, 5)).kind).toBe('admitted');
      await calls.markAnswered(businessId, callId, answeredAt.toISOString());
      return callId;
    }),
  );
  return { businessId, callIds };
}

/** A lifecycle on `db` whose retries do not wait (the schedule, not time, decides what fails). */
function lifecycleOn(db: Db, now: Date, published: CallEvent[], publishFaults: Set<number> = new Set()) {
  return new CallLifecycle({
    calls: new CallRepository(db),
    assistants: new AssistantRepository(db),
    minutes: new MinutesRepository(db, () => 0),
    slots: new CallSlotsRepository(db, () => 0),
    events: {
      publish: async (events) => {
        const callId = events[0]!.detail.call_id;
        if (publishFaults.delete(callId)) throw Object.assign(new Error('EventBridge: internal failure'), { $fault: 'server' });
        published.push(...events);
      },
    },
    now: () => now,
    newEventId: () => `evt_${crypto.randomUUID()}`,
    retryPause: async () => undefined,
  });
}

async function ledger(businessId: number) {
  const item = (await clean.doc.send(new GetCommand({ TableName: tableName, Key: keys.business(businessId), ConsistentRead: true }))).Item;
  return { live: Number(item?.live_calls ?? 0), reserved: Number(item?.minutes_reserved), balance: Number(item?.minutes_balance) };
}

describe('endings under load', () => {
  it('40 calls ending at once through failed, landed-but-failed and conflicting writes all end; live_calls and minutes_reserved return to 0', async () => {
    // Arrange: answered 90 s before they all end (2 minutes each).
    const answeredAt = new Date('2031-03-01T12:00:00.000Z');
    const { businessId, callIds } = await liveCalls(40, answeredAt);
    const { db, injected } = faultyDb((step, callId) => {
      const i = callIds.indexOf(callId);
      if (step === 'ended write') return ([['before'], ['landed'], ['before', 'before'], ['conflict']] as Fault[][])[i % 4]!;
      if (step === 'give-back') return ([['before', 'before'], ['landed'], ['conflict', 'conflict', 'conflict']] as Fault[][])[i % 3]!;
      if (step === 'finish flag') return i % 2 === 0 ? ['landed'] : [];
      return [];
    });
    const published: CallEvent[] = [];
    const lifecycle = lifecycleOn(db, new Date(answeredAt.getTime() + 90_000), published, new Set(callIds.filter((_, i) => i % 5 === 0)));
    // Act
    const ended = await Promise.all(callIds.map((callId) => lifecycle.end(businessId, callId, { endedReason: 'caller_hung_up' })));
    // Assert: every ending completed in this process, none left for the sweeper.
    expect(injected()).toBe(150);
    expect(ended.every(Boolean)).toBe(true);
    for (const callId of callIds) {
      const call = await calls.getCallRecord(businessId, callId);
      expect(call).toMatchObject({ status: 'ended', finish_pending: false, settled: true, slot_released: true, charged_minutes: 2 });
      expect(published.filter((event) => event.type === 'call.ended' && event.detail.call_id === callId)).toEqual([
        expect.objectContaining({ detail: expect.objectContaining({ event_id: call!.ended_event_id }) }),
      ]);
    }
    expect(await ledger(businessId)).toEqual({ live: 0, reserved: 0, balance: 1000 - 40 * 2 });
  });

  it('a step failing past the retries leaves finish_pending, and the sweeper completes it: nothing leaked', async () => {
    // Arrange: the give-back of the first call fails on every try while the three end.
    const answeredAt = new Date('2031-04-01T12:00:00.000Z');
    const endedAt = new Date(answeredAt.getTime() + 30_000);
    const { businessId, callIds } = await liveCalls(3, answeredAt);
    const { db } = faultyDb((step, callId) => (step === 'give-back' && callId === callIds[0] ? Array<Fault>(20).fill('before') : []));
    const published: CallEvent[] = [];
    // Act
    const ended = await Promise.allSettled(
      callIds.map((callId) => lifecycleOn(db, endedAt, published).end(businessId, callId, { endedReason: 'caller_hung_up' })),
    );
    const unfinished = await calls.getCallRecord(businessId, callIds[0]!);
    const sweepAt = endedAt.getTime() + DEFAULT_SWEEP_LIMITS.unfinishedEndingMs + 1000;
    const action = sweepAction(unfinished!, sweepAt, DEFAULT_SWEEP_LIMITS);
    await lifecycleOn(clean, new Date(sweepAt), published).finish(unfinished!);
    // Assert
    expect(ended.map((result) => result.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(unfinished).toMatchObject({ status: 'ended', finish_pending: true });
    expect(action).toEqual({ kind: 'finish' });
    expect(await calls.getCallRecord(businessId, callIds[0]!)).toMatchObject({ finish_pending: false, settled: true, slot_released: true });
    expect(await ledger(businessId)).toEqual({ live: 0, reserved: 0, balance: 1000 - 3 });
    expect(published.filter((event) => event.type === 'call.ended')).toHaveLength(3);
  });
});
