const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Wait before each attempt, attempt 1 first (docs/design.md "Webhooks", the Standard Webhooks example table):
 * now, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. The last attempt lands about
 * 75 h 35 min after the first, Stripe's "up to three days".
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  0,
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];

/** Attempts per delivery; after the last failure the delivery is dead-lettered. */
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length;

/** ±10 % jitter, so receivers that failed together are not retried together. */
export const JITTER_RATIO = 0.1;

/** The longest wait a receiver's `Retry-After` can impose: the schedule's longest gap. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;

/**
 * How long to wait before attempt `attemptNumber` (1-based: 1 is the first attempt, sent at once;
 * 2 follows the first failure after ~5 s), or null when no attempt that number exists, i.e. the
 * delivery is exhausted and goes to the dead-letter record.
 *
 * `random` returns a number in [0, 1) (injected: domain code takes no hidden randomness); the
 * scheduled wait is scaled by 1 ± 10 %. A `retryAfterSeconds` from a 429 or 503 response is honoured
 * as a floor: the wait is max(jittered schedule, Retry-After), with Retry-After itself capped at
 * 24 h so a hostile or broken header cannot park a delivery forever, and never brought below the
 * schedule, so a receiver asking for "Retry-After: 0" does not turn the backoff into a hot loop.
 *
 * @example
 * nextAttemptDelayMs(2, Math.random);        // 4500..5500
 * nextAttemptDelayMs(2, Math.random, 120);   // 120000 (the receiver asked for 2 minutes)
 */
export function nextAttemptDelayMs(attemptNumber: number, random: () => number, retryAfterSeconds?: number | null): number | null {
  if (!Number.isInteger(attemptNumber) || attemptNumber < 1) throw new RangeError('attemptNumber is an integer from 1');
  if (attemptNumber > MAX_ATTEMPTS) return null;
  const base = RETRY_SCHEDULE_MS[attemptNumber - 1];
  if (base === undefined) return null;
  const unit = Math.min(Math.max(random(), 0), 1);
  const jittered = Math.round(base * (1 + (unit * 2 - 1) * JITTER_RATIO));
  if (retryAfterSeconds === undefined || retryAfterSeconds === null || !Number.isFinite(retryAfterSeconds)) return jittered;
  const requested = Math.min(Math.max(retryAfterSeconds, 0) * SECOND, MAX_RETRY_AFTER_MS);
  return Math.max(jittered, Math.ceil(requested));
}

/**
 * A `Retry-After` value in seconds (RFC 9110 §10.2.3: delay-seconds or an HTTP-date), or null
 * when absent or unreadable. `nowMs` is injected for the HTTP-date form; past dates give 0.
 *
 * @example
 * parseRetryAfter('120', now);                              // 120
 * parseRetryAfter('Wed, 21 Oct 2026 07:28:00 GMT', now);    // seconds until then
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (value === undefined || value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  if (!/[A-Za-z]/.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - nowMs) / SECOND));
}
