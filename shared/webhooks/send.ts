import {
  guardedFetch,
  RequestTimeoutError,
  type GuardedFetchOptions,
  type GuardedRequestInit,
  type GuardedResponse,
} from '../security/guarded-fetch';
import { BlockedUrlError } from '../security/ssrf';
import { classifyAttempt, type AttemptFailure, type AttemptOutcome } from './classify';
import { parseRetryAfter } from './schedule';
import { signWebhook } from './signing';

/** The attempt budget (docs/design.md "Webhooks": 10 s; GitHub uses the same). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** Our `User-Agent` on deliveries, so receivers can recognise and allow-list them. */
export const WEBHOOK_USER_AGENT = 'VoiceAgentPlatform-Webhooks/1.0';

/** The HTTP client {@link sendWebhook} uses; `guardedFetch` in production. */
export type WebhookFetch = (url: string, init: GuardedRequestInit, options: GuardedFetchOptions) => Promise<GuardedResponse>;

/** One delivery attempt to send. */
export interface SendWebhookInput {
  url: string;
  /** The event envelope `{type, timestamp, data}`; serialised once, and those exact bytes are signed and sent. */
  payload: object;
  /** The same on every attempt of this delivery. */
  webhookId: string;
  /** Current secret first, then rotated-out ones still in their grace period. */
  secrets: readonly string[];
  /** Clock, injected: the attempt's `at` and its fresh `webhook-timestamp`. */
  now: () => Date;
  /** The explicit local-development setting (loopback/private receivers); false in production. */
  allowPrivate: boolean;
  /** Defaults to `!allowPrivate`: production is https-only, local receivers are plain http. */
  requireHttps?: boolean;
  timeoutMs?: number;
  fetchImpl?: WebhookFetch;
}

/**
 * What one attempt did, as the delivery record stores it. The receiver's body is never kept:
 * echoing it back would turn the webhook into a blind-SSRF oracle.
 */
export interface WebhookAttempt {
  /** ISO 8601 UTC start of the attempt. */
  at: string;
  status: number | null;
  latency_ms: number;
  /** A short reason for a failure with no usable response (`timeout after 10000 ms`, `blocked: …`, `network: ECONNREFUSED`). */
  error: string | null;
  outcome: AttemptOutcome;
  /** A 429/503 `Retry-After` in seconds, for the scheduler; null otherwise. */
  retry_after_s: number | null;
}

function describeFailure(error: unknown, timeoutMs: number): { kind: AttemptFailure; text: string } {
  // Shown to the business (its deliveries): never an address its name resolved to inside our
  // network, nor an error message that may carry one; the code is enough to act on.
  if (error instanceof BlockedUrlError) return { kind: 'blocked', text: `blocked: ${error.shownReason}` };
  if (error instanceof RequestTimeoutError) return { kind: 'timeout', text: `timeout after ${timeoutMs} ms` };
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return { kind: 'network', text: `network: ${code}` };
  return { kind: 'network', text: 'network: the request failed' };
}

/**
 * Makes ONE signed delivery attempt and reports it. Nothing the receiver or the network does makes it
 * throw, so the caller can always record the attempt before acknowledging its queue message
 * (a receiver that answers slowly or oddly must not make us lose the event); only our own bugs do (a malformed id or secret), before any request is made. Retrying is the caller's job,
 * driven by `outcome` and `nextAttemptDelayMs`. Per docs/design.md "Webhooks": POST, JSON, the Standard Webhooks
 * headers with a fresh timestamp and the stable id, no redirects followed, a 10 s timeout, and the
 * SSRF guard checking the URL and every resolved address again at connection time.
 *
 * @example
 * const attempt = await sendWebhook({ url, payload: event, webhookId: 'msg_42', secrets, now: () => new Date(), allowPrivate: false });
 * if (attempt.outcome === 'retry') schedule(nextAttemptDelayMs(n + 1, Math.random, attempt.retry_after_s));
 */
export async function sendWebhook(input: SendWebhookInput): Promise<WebhookAttempt> {
  const { timeoutMs = WEBHOOK_TIMEOUT_MS, fetchImpl = guardedFetch } = input;
  const body = JSON.stringify(input.payload);
  const startedAt = input.now();
  const signature = signWebhook({ id: input.webhookId, timestamp: Math.floor(startedAt.getTime() / 1000), body, secrets: input.secrets });
  const headers = { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT, ...signature };
  const options: GuardedFetchOptions = {
    allowPrivate: input.allowPrivate,
    requireHttps: input.requireHttps ?? !input.allowPrivate,
    timeoutMs,
  };
  const at = startedAt.toISOString();
  try {
    const response = await fetchImpl(input.url, { method: 'POST', headers, body }, options);
    const throttled = response.status === 429 || response.status === 503;
    return {
      at,
      status: response.status,
      latency_ms: response.latencyMs,
      error: null,
      outcome: classifyAttempt({ status: response.status }),
      retry_after_s: throttled ? parseRetryAfter(response.headers['retry-after'], input.now().getTime()) : null,
    };
  } catch (error) {
    const failure = describeFailure(error, timeoutMs);
    const latency = Math.max(0, input.now().getTime() - startedAt.getTime());
    return {
      at,
      status: null,
      latency_ms: latency,
      error: failure.text,
      outcome: classifyAttempt({ error: failure.kind }),
      retry_after_s: null,
    };
  }
}
