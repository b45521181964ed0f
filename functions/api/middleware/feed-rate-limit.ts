import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { RateDecision } from '../../../shared/db/rate-limiter';
import { FEED_RATE_LIMIT, RATE_LIMIT_WINDOW_WORDS } from '../../../shared/domain/rate-limits';
import { RateLimitedError } from '../../../shared/errors';
import type { ApiEnv } from '../env';
import { requestSourceAddress, type SourceAddress } from './auth';

/** The limiter the feed consults (the DynamoDB rolling-window limiter, at {@link FEED_RATE_LIMIT}, in production). */
export interface FeedRateLimit {
  hitFeed(subject: string): Promise<RateDecision>;
}

/**
 * Throttles GET /calendars/{token}.ics, which no API key guards: first by the client's address
 * (as the failed-authentication throttle finds it, never from client headers), then by the token,
 * so neither one address trying many tokens nor many addresses reading one token goes unbounded.
 * 429 carries `Retry-After`. The token is counted by its hash: a secret never becomes a key.
 */
export function feedRateLimit(limiter: FeedRateLimit, sourceAddress: SourceAddress = requestSourceAddress): MiddlewareHandler<ApiEnv> {
  return async function feedRateLimitMiddleware(c, next) {
    const address = sourceAddress(c);
    if (address !== undefined) refuseWhenFull(await limiter.hitFeed(`ADDR#${address}`));
    const token = c.req.path.slice(c.req.path.lastIndexOf('/') + 1);
    refuseWhenFull(await limiter.hitFeed(`TOKEN#${createHash('sha256').update(token).digest('base64url')}`));
    await next();
  };
}

function refuseWhenFull(decision: RateDecision): void {
  if (!decision.allowed)
    throw new RateLimitedError(
      Math.max(1, decision.resetSeconds),
      `at most ${FEED_RATE_LIMIT} ${RATE_LIMIT_WINDOW_WORDS} per address and per calendar feed`,
    );
}
