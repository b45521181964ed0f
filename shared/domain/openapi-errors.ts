import { COMMON_HEADERS } from './openapi-headers';
import { jsonResponse, type Json } from './openapi-operations';
import { API_KEY_RATE_LIMIT, FAILED_AUTH_LIMIT, RATE_LIMIT_WINDOW_WORDS } from './rate-limits';
import { IDEMPOTENCY_WAIT_MS, MAX_BODY_BYTES } from './api-limits';

/** The first request of a key still running when a duplicate gives up on it. */
const STILL_RUNNING = `its first request still running after ${IDEMPOTENCY_WAIT_MS / 1000} s`;

/**
 * The error responses any resource's operations may list (`components/responses`), each with the
 * `code` its body carries; a resource's own errors sit beside its paths (openapi-bookings.ts, …).
 */
export function commonErrorResponses(): Record<string, Json> {
  return {
    Unauthorized: jsonResponse('Missing or invalid API key (`unauthorized`).', 'ErrorBody', [
      'X-API-Version',
      'RateLimit-Policy',
      'WWW-Authenticate',
    ]),
    PayloadTooLarge: jsonResponse(`The body is over ${MAX_BODY_BYTES / 1024} KiB (\`payload_too_large\`).`, 'ErrorBody'),
    UnsupportedMediaType: jsonResponse(
      'The body is not sent as JSON (`unsupported_media_type`): `Content-Type` must be `application/json` or `application/*+json`, a `charset` only `utf-8`; a missing one is refused too.',
      'ErrorBody',
    ),
    InsufficientMinutes: jsonResponse('The plan has no minutes left (`insufficient_minutes`).', 'ErrorBody'),
    NotFound: jsonResponse('Missing, or owned by another business (`not_found`).', 'ErrorBody'),
    IdempotencyConflict: jsonResponse(
      `Idempotency-Key reused with a different body, or ${STILL_RUNNING} (\`idempotency_conflict\`).`,
      'ErrorBody',
    ),
    PreconditionFailed: jsonResponse(
      'If-Match names a version that is no longer current (`precondition_failed`); nothing was written. Read the resource again and retry.',
      'ErrorBody',
    ),
    ValidationFailed: jsonResponse('A parameter or field is invalid; `detail` lists each one.', 'HTTPValidationError'),
    RateLimited: jsonResponse(
      `More than ${API_KEY_RATE_LIMIT} requests ${RATE_LIMIT_WINDOW_WORDS} on this key, or more than ${FAILED_AUTH_LIMIT} failed authentications ` +
        `${RATE_LIMIT_WINDOW_WORDS} from this address (\`rate_limited\`).`,
      'ErrorBody',
      [...COMMON_HEADERS, 'Retry-After'],
    ),
    Internal: jsonResponse('Unexpected error (`internal`), with a request id to quote.', 'ErrorBody'),
    CreateConflict: jsonResponse(
      `Idempotency-Key reused with a different body, or ${STILL_RUNNING} (\`idempotency_conflict\`); ` +
        'or the business is at one of its quotas (`quota_exceeded`): the detail names the quota and its value, a delete frees a place and ops can raise it.',
      'ErrorBody',
    ),
  };
}
