import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { RateDecision } from '../../../shared/db/rate-limiter';
import { RateLimitedError } from '../../../shared/errors';
import type { ApiEnv } from '../env';
import { requestSourceAddress, type SourceAddress } from './auth';

/** The limiter the feed consults (the DynamoDB rolling-window limiter, at {@link FEED_RATE_LIMIT}, in production). */
export interface FeedRateLimit {
  hitFeed(subject: string): Promise<RateDecision>;
}

/**
 * Requests a minute the public calendar feed answers, per client address and per token. A
 * calendar app polls a feed every 5 to 60 minutes, so one address or one token of 60 a minute is
 * far beyond any real use, while a flood costs at most one feed build a second per token.
 */
export const FEED_RATE_LIMIT = 60;

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
    throw new RateLimitedError(Math.max(1, decision.resetSeconds), `at most ${FEED_RATE_LIMIT} a minute per address and per calendar feed`);
}
