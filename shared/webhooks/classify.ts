/**
 * What happens after one delivery attempt: done, try again on the schedule, or stop now.
 * Whether a `retry` still has an attempt left is the schedule's call (`nextAttemptDelayMs`).
 */
export type AttemptOutcome = 'delivered' | 'retry' | 'give_up';

/** A failure with no HTTP status: refused by the SSRF guard, out of time, or a network error. */
export type AttemptFailure = 'blocked' | 'timeout' | 'network';

/** One attempt's result as {@link classifyAttempt} needs it. */
export interface AttemptResult {
  status?: number | null;
  error?: AttemptFailure | null;
}

/**
 * Maps an attempt to its outcome (docs/design.md "Webhooks"):
 * - 2xx → `delivered`; nothing else counts as success.
 * - 410 Gone → `give_up`: the Standard Webhooks spec reads it as "this endpoint is gone".
 * - `blocked` → `give_up`: the SSRF guard refused the URL or what it resolves to; retrying the
 *   same policy decision only repeats the probe. The reason is recorded for the business.
 * - Everything else → `retry`: 3xx (a failure, never followed), 408, 429, 5xx, timeouts,
 *   network errors, and every other 4xx too. Standard Webhooks and Svix retry all non-2xx, because a
 *   401/404 during a receiver's deploy or key rotation is usually temporary, and the schedule
 *   is bounded anyway. This deliberately differs from `isRetryableStatus` (provider calls), where
 *   a 4xx means our request was wrong.
 *
 * @example
 * classifyAttempt({ status: 204 }); // 'delivered'
 * classifyAttempt({ error: 'timeout' }); // 'retry'
 */
export function classifyAttempt(result: AttemptResult): AttemptOutcome {
  if (result.error === 'blocked') return 'give_up';
  const status = result.status;
  if (status === undefined || status === null) return 'retry';
  if (status >= 200 && status <= 299) return 'delivered';
  if (status === 410) return 'give_up';
  return 'retry';
}
