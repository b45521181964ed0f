import { setTimeout as delay } from 'node:timers/promises';

/**
 * How a streaming adapter replaces a socket that dropped mid-call (docs/design.md "Provider
 * faults"): three attempts, at once, after 200 ms and after 500 ms more, each with a 1 s
 * handshake budget. A vendor's handshake takes 100–300 ms, so the first attempt normally lands
 * within the 1 s the caller may wait; the three together give up after about 3.7 s, when the
 * call's failure path takes over (a dead provider is no better on the fourth try).
 */
export const RECONNECT_DELAYS_MS = [0, 200, 500] as const;

/** The handshake budget of one reconnect attempt. */
export const RECONNECT_HANDSHAKE_MS = 1000;

/**
 * Runs `connect` on the {@link RECONNECT_DELAYS_MS} schedule until one attempt succeeds; rejects
 * with the last attempt's error (or the signal's reason once it aborts).
 */
export async function reconnect<T>(connect: () => Promise<T>, signal: AbortSignal): Promise<T> {
  let last: unknown;
  for (const waitMs of RECONNECT_DELAYS_MS) {
    if (waitMs > 0) await delay(waitMs, undefined, { signal });
    signal.throwIfAborted();
    try {
      return await connect();
    } catch (error) {
      signal.throwIfAborted();
      last = error;
    }
  }
  throw last;
}
