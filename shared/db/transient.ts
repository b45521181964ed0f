import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { fullJitterMs, type Backoff } from '../domain/backoff';

/**
 * Errors a DynamoDB request may end with that say nothing about the data: the same request can
 * succeed a moment later. The SDK retries them itself, but only three attempts with a small retry
 * budget; under a burst (a hot business item throttled, DynamoDB's rare 500s, or DynamoDB Local's
 * "timed out waiting for a lock" when it is loaded) that budget runs out and the error reaches us.
 * A step that must complete (a call's ending) retries them once more with {@link retryTransient}.
 */

/** Error names DynamoDB (and the SDK) give a request that may succeed when retried as it is. */
const TRANSIENT_NAMES = new Set([
  'InternalServerError',
  'ServiceUnavailable',
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TransactionConflictException',
  'TimeoutError',
  'RequestTimeout',
]);

/** Cancellation reasons of a transaction that a retry can get past (anything but a failed condition or a bad request). */
const TRANSIENT_REASONS = new Set([
  'None',
  'TransactionConflict',
  'ThrottlingError',
  'ProvisionedThroughputExceeded',
  'RequestLimitExceeded',
]);

/** Network errors (the connection dropped or was refused while DynamoDB was busy). */
const TRANSIENT_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNREFUSED']);

/**
 * Whether `error` is worth retrying as it is: throttled, a server error, a transaction that lost to
 * a concurrent one, a dropped connection. Never a failed condition: that is an answer.
 */
export function isTransientDbError(error: unknown): boolean {
  if (error instanceof TransactionCanceledException) {
    const reasons = (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
    return reasons.some((code) => code !== 'None') && reasons.every((code) => TRANSIENT_REASONS.has(code));
  }
  const failure = error as { name?: string; code?: string; $fault?: string; $metadata?: { httpStatusCode?: number } } | null;
  if (!failure) return false;
  if (TRANSIENT_NAMES.has(failure.name ?? '') || TRANSIENT_CODES.has(failure.code ?? '')) return true;
  return failure.$fault === 'server' || (failure.$metadata?.httpStatusCode ?? 0) >= 500;
}

/** A call's ending retries a transient failure 8 times: 50 ms doubling to 2 s, full jitter (~5 s at most). */
export const ENDING_RETRY: RetryPolicy = { tries: 8, backoff: { baseMs: 50, capMs: 2000 } };

/** How often and how patiently {@link retryTransient} retries. */
export interface RetryPolicy {
  tries: number;
  backoff: Backoff;
}

/** Waits before retry `attempt` (0-based); tests pass one that does not wait. */
export type RetryPause = (attempt: number) => Promise<void>;

/** Full jitter over the policy's backoff. */
export function jitteredPause(policy: RetryPolicy, random: () => number = Math.random): RetryPause {
  return (attempt) => new Promise((resolve) => setTimeout(resolve, fullJitterMs(attempt, policy.backoff, random)));
}

/**
 * Runs `step`, retrying it while it fails transiently ({@link isTransientDbError}), at most
 * `tries` times in all; any other error, or the last transient one, is thrown. `step` must be safe
 * to repeat: the request before may have been applied even though it failed (a 500 after the write).
 */
export async function retryTransient<T>(step: () => Promise<T>, tries: number, pause: RetryPause, onRetry?: () => void): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (attempt + 1 >= tries || !isTransientDbError(error)) throw error;
      onRetry?.();
      await pause(attempt);
    }
  }
}
