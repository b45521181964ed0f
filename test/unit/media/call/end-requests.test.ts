import { describe, expect, it, vi } from 'vitest';
import { watchEndRequests } from '../../../../media-service/src/call/end-requests';
import type { SessionTimers } from '../../../../media-service/src/call/session-types';

/** Timers run by hand: `fire()` runs the one pending timer. */
function handTimers() {
  const pending = new Map<number, { run: () => void; ms: number }>();
  let next = 0;
  const timers: SessionTimers = {
    setTimeout: (run, ms) => (pending.set(++next, { run, ms }), next),
    clearTimeout: (handle) => void pending.delete(handle as number),
  };
  const fire = async () => {
    const [[id, timer]] = [...pending.entries()];
    pending.delete(id!);
    timer!.run();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { timers, pending, fire };
}

describe('watchEndRequests', () => {
  it('checks every interval, one check at a time, and calls back once on a request', async () => {
    // Arrange
    const { timers, pending, fire } = handTimers();
    const answers = [false, false, true];
    const check = vi.fn(async () => answers.shift()!);
    const onRequested = vi.fn();
    watchEndRequests({ check, timers, everyMs: 1000, onRequested, onError: vi.fn() });
    // Act + Assert
    expect([...pending.values()].map((t) => t.ms)).toEqual([1000]);
    await fire();
    await fire();
    expect(onRequested).not.toHaveBeenCalled();
    await fire();
    expect(check).toHaveBeenCalledTimes(3);
    expect(onRequested).toHaveBeenCalledTimes(1);
    expect(pending.size).toBe(0);
  });

  it('keeps checking after a failed check, and stops when stopped', async () => {
    const { timers, pending, fire } = handTimers();
    const onError = vi.fn();
    const stop = watchEndRequests({
      check: () => Promise.reject(new Error('throttled')),
      timers,
      everyMs: 1000,
      onRequested: vi.fn(),
      onError,
    });
    await fire();
    expect(onError).toHaveBeenCalledTimes(1);
    expect(pending.size).toBe(1);
    stop();
    expect(pending.size).toBe(0);
  });
});
