import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenario, step } from '../../../media-service/src/sandbox/scenario-script';
import { billableMinutes } from '../../../shared/db/minutes-repository';
import { CALL_TEST_MS } from '../../support/call-limits';
import { uniqueNumber } from '../../support/api-harness';
import { QUIET } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';

/**
 * A campaign far over the business's cap (12 calls, 2 at once) through the API, the outbound
 * queue, two consumers racing for its jobs, the dialler and the sandbox carrier: calls wait
 * `queued` at the cap and are retried (a 1 s wait here instead of the engine's growing one, so the
 * test takes seconds), every call is eventually placed and answered, none ends `error`, the cap
 * holds throughout, and the plan's counters settle exactly.
 */

const CAP = 2;
const CALLS = 12;
const MINUTES = 100;

let stack: CallStack;

beforeAll(async () => {
  stack = await startCallStack({ consumers: 2, deferDelayS: () => 1 });
});

afterAll(async () => {
  await stack?.stop();
});

/** The most intervals open at any one instant (an interval is [start, end)). */
function mostAtOnce(intervals: [number, number][]): number {
  const edges = intervals.flatMap(([start, end]) => [
    [start, 1],
    [end, -1],
  ]);
  edges.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  let open = 0;
  let most = 0;
  for (const [, delta] of edges) most = Math.max(most, (open += delta!));
  return most;
}

describe(`a campaign of ${CALLS} calls at a cap of ${CAP}`, () => {
  it(
    'places every call, none ends error, never more than the cap at once; live_calls and minutes settle exactly',
    { timeout: CALL_TEST_MS },
    async () => {
      // Arrange: one business capped at 2, one assistant, 12 callees who hang up after a second
      const tenant = await stack.api.newTenant({ minutes: MINUTES });
      await stack.api.admin.setMaxConcurrentCalls(tenant.businessId, CAP);
      const config = { first_message: 'Hello, this is Acme.', advanced: { ...QUIET, max_duration_s: 60 } };
      const created = await tenant.request('POST', '/assistants', { name: 'Campaign', config });
      expect(created.status, await created.clone().text()).toBe(200);
      const assistantId = ((await created.json()) as { id: number }).id;
      const refusedBefore = stack.slots.stats.refusedByRead;
      // Act: the whole campaign at once
      const ids = await Promise.all(
        Array.from({ length: CALLS }, async (_, i) => {
          const to = uniqueNumber();
          stack.carrier.registerScenario(to, scenario(`campaign ${i}`, [step.pause(1000), step.hangup()]));
          const response = await tenant.request('POST', '/calls', { assistant_id: assistantId, to });
          expect(response.status, await response.clone().text()).toBe(200);
          return ((await response.json()) as { id: number }).id;
        }),
      );
      const ended = await Promise.all(ids.map((id) => stack.whenCallEnded(tenant.businessId, id)));
      // Assert: every call was dialled, answered and ended by its callee
      const calls = ended.map(({ call }) => call);
      for (const call of calls) {
        expect(call.ended_reason, `call ${call.id}`).toBe('caller_hung_up');
        expect(call.carrier_call_sid, `call ${call.id} was placed`).toBeTruthy();
        expect(call.started_at, `call ${call.id} was answered`).toBeTruthy();
      }
      // Calls really waited at the cap, and it held: answered-to-ended spans lie inside slot holds.
      expect(stack.slots.stats.refusedByRead - refusedBefore).toBeGreaterThan(0);
      expect(mostAtOnce(calls.map((call) => [Date.parse(call.started_at!), Date.parse(call.ended_at!)]))).toBeLessThanOrEqual(CAP);
      // Every slot and reservation came back; exactly the calls' whole minutes were charged.
      const charged = calls.reduce((sum, call) => sum + billableMinutes(call.duration_s ?? 0), 0);
      const usage = await tenant.request('GET', '/usage');
      expect(await usage.json()).toEqual({
        minutes_remaining: MINUTES - charged,
        minutes_reserved: 0,
        live_calls: 0,
        max_concurrent_calls: CAP,
        queued_calls: 0,
      });
    },
  );
});
