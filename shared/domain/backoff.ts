/** An exponential backoff: `baseMs` at the first retry, doubling up to `capMs`. */
export interface Backoff {
  baseMs: number;
  capMs: number;
}

/** Transactions that lost to a concurrent one on the same (business) item: 10 ms doubling to 1 s. */
export const CONFLICT_BACKOFF: Backoff = { baseMs: 10, capMs: 1000 };

/** The ceiling of retry `attempt` (0-based): base · 2^attempt, never above the cap. */
export function backoffCeilingMs(attempt: number, backoff: Backoff): number {
  return Math.min(backoff.capMs, backoff.baseMs * 2 ** Math.max(0, attempt));
}

/**
 * Full jitter: anywhere between 0 and the ceiling, so writers that collided once spread out over
 * the whole window instead of colliding again at the same instant. `random` is in [0, 1).
 */
export function fullJitterMs(attempt: number, backoff: Backoff, random: () => number): number {
  return random() * backoffCeilingMs(attempt, backoff);
}

/**
 * Equal jitter: between half the ceiling and the ceiling. For waits that should still grow with
 * the attempt (a call waiting at the concurrency cap must not come back at once).
 */
export function equalJitterMs(attempt: number, backoff: Backoff, random: () => number): number {
  const ceiling = backoffCeilingMs(attempt, backoff);
  return ceiling / 2 + (random() * ceiling) / 2;
}
