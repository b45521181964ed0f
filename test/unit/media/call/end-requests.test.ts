import { describe, expect, it, vi } from 'vitest';
import { EndRequestPoller, type WatchedCall } from '../../../../media-service/src/call/end-requests';
import type { SessionTimers } from '../../../../media-service/src/call/session-types';

/** Timers run by hand: `fire()` runs the one pending timer and lets its check settle. */
function handTimers() {
  const pending = new Map<number, { run: () => void; ms: number }>();
  let next = 0;
  const timers: SessionTimers = {
    setTimeout: (run, ms) => (pending.set(++next, { run, ms }), next),
    clearTimeout: (handle) => void pending.delete(handle as number),
  };
  const fire = async () => {
    const [id, timer] = [...pending.entries()][0]!;
    pending.delete(id);
    timer.run();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { timers, pending, fire };
}

const A = { businessId: 1, callId: 10 };
const B = { businessId: 2, callId: 20 };

describe('EndRequestPoller', () => {
  it('checks every watched call in one read a second, and tells only the asked one, once', async () => {
    // Arrange
    const { timers, pending, fire } = handTimers();
    const asked: WatchedCall[][] = [];
    const answers = [new Set<string>(), new Set(['2/20']), new Set<string>()];
    const poller = new EndRequestPoller({
      check: async (calls) => (asked.push([...calls]), answers.shift()!),
      timers,
      everyMs: 1000,
      onError: vi.fn(),
    });
    const [onA, onB] = [vi.fn(), vi.fn()];
    poller.watch(A, onA);
    poller.watch(B, onB);
    // Act + Assert: one timer for both
    expect([...pending.values()].map((t) => t.ms)).toEqual([1000]);
    await fire();
    await fire();
    expect(onB).toHaveBeenCalledTimes(1);
    await fire();
    expect(asked).toEqual([[A, B], [A, B], [A]]);
    expect(onA).not.toHaveBeenCalled();
    expect(onB).toHaveBeenCalledTimes(1);
  });

  it('runs no timer while nothing is watched', async () => {
    const { timers, pending } = handTimers();
    const poller = new EndRequestPoller({ check: async () => new Set(), timers, everyMs: 1000, onError: vi.fn() });
    const stopA = poller.watch(A, vi.fn());
    const stopB = poller.watch(B, vi.fn());
    stopA();
    expect(pending.size).toBe(1);
    stopB();
    expect(pending.size).toBe(0);
    expect(poller.size).toBe(0);
  });

  it('keeps checking after a failed check', async () => {
    const { timers, pending, fire } = handTimers();
    const onError = vi.fn();
    const poller = new EndRequestPoller({ check: () => Promise.reject(new Error('throttled')), timers, everyMs: 1000, onError });
    poller.watch(A, vi.fn());
    await fire();
    expect(onError).toHaveBeenCalledTimes(1);
    expect(pending.size).toBe(1);
  });
});
