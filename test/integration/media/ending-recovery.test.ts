import { describe, expect, it } from 'vitest';
import { CallSlotsRepository } from '../../../shared/db/call-slots-repository';
import { MinutesRepository } from '../../../shared/db/minutes-repository';
import type { CallEvent } from '../../../shared/events/catalog';
import { DEFAULT_SWEEP_LIMITS, sweepAction } from '../../../shared/services/call-sweeper';
import { CallLifecycle } from '../../../shared/services/call-lifecycle';
import { createApiHarness } from '../../support/api-harness';

/**
 * An ending that stops halfway (a throttled or conflicting write, a crash, EventBridge down) loses
 * nothing and leaks nothing: the failure is injected at every step of `CallLifecycle.end`, then
 * the follow-up the sweeper runs (`finish`) completes it. Against DynamoDB Local.
 */

type Step = 'ended write' | 'give-back' | 'call.ended' | 'finish flag';

const transcript = [{ role: 'user' as const, text: 'Please cancel my booking.', start_ms: 0, end_ms: 1500, interrupted: false }];

async function setup(failAt: Step) {
  const harness = await createApiHarness();
  const tenant = await harness.newTenant({ minutes: 50 });
  const assistant = (await (await tenant.request('POST', '/assistants', {})).json()) as { id: number };
  const created = (await (await tenant.request('POST', '/calls', { assistant_id: assistant.id, to: '+14155550123' })).json()) as {
    id: number;
  };
  const slots = new CallSlotsRepository(harness.core.db);
  const minutes = new MinutesRepository(harness.core.db);
  await slots.admit(tenant.businessId, created.id, 10);
  let clock = Date.parse('2026-11-24T10:00:00.000Z');
  const published: CallEvent[] = [];
  let failOnce = true;
  const failHere = (step: Step | 'other') => {
    if (step !== failAt || !failOnce) return;
    failOnce = false;
    throw new Error(`injected failure: ${step}`);
  };
  harness.core.db.doc.middlewareStack.add(
    (next) => async (args) => {
      failHere(stepOf(args.input as Record<string, any>));
      return next(args);
    },
    { step: 'initialize', name: `inject-${failAt}` },
  );
  const lifecycle = new CallLifecycle({
    calls: harness.core.callRepo,
    assistants: harness.core.assistantRepo,
    minutes,
    slots,
    events: {
      publish: async (events) => {
        if (events.some((event) => event.type === 'call.ended')) failHere('call.ended');
        published.push(...events);
      },
    },
    now: () => new Date(clock),
    newEventId: () => `evt_${published.length}_${clock}`,
  });
  await lifecycle.markAnswered(tenant.businessId, created.id);
  clock += 75_000;
  const business = () => harness.core.businesses.getBusiness(tenant.businessId);
  const call = () => harness.core.callRepo.findCall(tenant.businessId, created.id, Math.floor(clock / 1000));
  return { tenant, lifecycle, published, business, call, callId: created.id, advance: (ms: number) => (clock += ms), now: () => clock };
}

/** Which step of an ending a DynamoDB request is (by what it writes); anything else is 'other'. */
function stepOf(input: Record<string, any>): Step | 'other' {
  const text = JSON.stringify(input);
  if (input.TransactItems && text.includes('finish_pending')) return 'ended write';
  // The slot given back and the minutes settled: one transaction.
  if (input.TransactItems && text.includes('settled')) return 'give-back';
  if (input.UpdateExpression && JSON.stringify(input.ExpressionAttributeNames ?? {}).includes('finish_pending')) return 'finish flag';
  return 'other';
}

describe('an ending that fails at any step', () => {
  it.each<Step>(['ended write', 'give-back', 'call.ended', 'finish flag'])(
    'fails at the %s, then is completed: transcript kept, slot and minutes back, call.ended published once per id',
    async (failAt) => {
      // Arrange
      const { tenant, lifecycle, published, business, call, callId, advance, now } = await setup(failAt);
      // Act: the session's ending fails at one step
      const first = await lifecycle
        .end(tenant.businessId, callId, { endedReason: 'assistant_ended', transcript, metrics: {} })
        .catch((error: Error) => error);
      // ...and is completed by whoever sees the call next: a retry of the ending (the write failed),
      // or the sweeper's finish a minute later (the ending was written).
      const halfway = (await call())!.call;
      if (halfway.status === 'ended') {
        advance(DEFAULT_SWEEP_LIMITS.unfinishedEndingMs + 1000);
        expect(sweepAction(halfway, now(), DEFAULT_SWEEP_LIMITS)).toEqual({ kind: 'finish' });
        await lifecycle.finish(halfway);
      } else {
        await lifecycle.end(tenant.businessId, callId, { endedReason: 'assistant_ended', transcript, metrics: {} });
      }
      // Assert
      expect(first).toBeInstanceOf(Error);
      const done = (await call())!;
      expect(done.call).toMatchObject({
        status: 'ended',
        ended_reason: 'assistant_ended',
        duration_s: 75,
        finish_pending: false,
        settled: true,
      });
      expect(done.detail.transcript.map((entry) => entry.text)).toEqual(['Please cancel my booking.']);
      expect(await business()).toMatchObject({ live_calls: 0, minutes_reserved: 0, minutes_balance: 48 });
      const ended = published.filter((event) => event.type === 'call.ended');
      expect(ended.length).toBeGreaterThanOrEqual(1);
      expect(new Set(ended.map((event) => event.detail.event_id)).size).toBe(1);
      expect(sweepAction(done.call, now() + 10 * 60_000, DEFAULT_SWEEP_LIMITS)).toBeUndefined();
    },
  );
});
