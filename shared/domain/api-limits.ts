/**
 * What the API promises about a request beyond its schemas, written once: the code that enforces
 * each limit and the OpenAPI text both read it here (the rate limits are in rate-limits.ts).
 */

/**
 * The largest JSON body the API reads: the biggest legitimate body is an assistant config
 * (at most 128 KiB once parsed), so 256 KiB leaves room for whitespace and escapes.
 */
export const MAX_BODY_BYTES = 256 * 1024;

/** The longest Idempotency-Key accepted (a UUID is 36; room for a client's own prefixes). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** How long an Idempotency-Key is remembered, per business and route (docs/design.md "Limits and versions": 24 h). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/**
 * How long a request waits for an earlier one with the same key and body to finish before it
 * gives up with 409: a create takes tens of milliseconds, and the API function has 29 s in all.
 */
export const IDEMPOTENCY_WAIT_MS = 10_000;
