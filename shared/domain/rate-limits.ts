/**
 * The API's request limits, written once: the limiters' defaults, the `RateLimit-Policy` header,
 * the 429 messages and the OpenAPI text all read them here (docs may state the numbers; code
 * repeats none). Dependency-free, so `infra/` reads them too (its stage throttle sits above one key).
 */

/** The window every API limit counts in, in seconds: a rolling minute. */
export const RATE_LIMIT_WINDOW_SECONDS = 60;

/** The window in words, as messages and the OpenAPI text say it ("at most N a minute"). */
export const RATE_LIMIT_WINDOW_WORDS = RATE_LIMIT_WINDOW_SECONDS === 60 ? 'a minute' : `per ${RATE_LIMIT_WINDOW_SECONDS} s`;

/**
 * Accepted requests per API key in any rolling window, across every Lambda instance
 * (shared/db/rate-limiter.ts counts them in DynamoDB).
 */
export const API_KEY_RATE_LIMIT = 240;

/**
 * Failed authentications one source address may make in a window before it gets 429 for anything
 * but a key that recently authenticated (counted in each warm instance: functions/api/middleware/auth.ts).
 */
export const FAILED_AUTH_LIMIT = 20;

/**
 * Requests a window the public calendar feed answers, per client address and per token. A
 * calendar app polls a feed every 5 to 60 minutes, so one address or one token of 60 a minute is
 * far beyond any real use, while a flood costs at most one feed build a second per token.
 */
export const FEED_RATE_LIMIT = 60;

/** The IETF draft-11 `RateLimit-Policy` header, sent on every response: one key's quota and window. */
export const RATE_LIMIT_POLICY = `"default";q=${API_KEY_RATE_LIMIT};w=${RATE_LIMIT_WINDOW_SECONDS}`;
