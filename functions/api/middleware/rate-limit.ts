import type { MiddlewareHandler } from 'hono';
import type { RateDecision } from '../../../shared/db/rate-limiter';
import { API_KEY_RATE_LIMIT, RATE_LIMIT_WINDOW_WORDS } from '../../../shared/domain/rate-limits';
import { RateLimitedError } from '../../../shared/errors';
import type { ApiEnv } from '../env';

/** The limiter the middleware consults (the DynamoDB rolling-window limiter in production). */
export interface RateLimit {
  hit(businessId: number, keyId: string): Promise<RateDecision>;
}

/**
 * Counts the request against its API key (after authentication, so unauthenticated traffic can
 * neither spend nor probe a key's quota) and sets `RateLimit` on the response; 429 carries
 * `Retry-After`.
 */
export function rateLimit(limiter: RateLimit): MiddlewareHandler<ApiEnv> {
  return async function rateLimitMiddleware(c, next) {
    const decision = await limiter.hit(c.get('businessId'), c.get('keyId'));
    const header = `"default";r=${decision.remaining};t=${decision.resetSeconds}`;
    if (!decision.allowed) {
      c.header('RateLimit', header);
      throw new RateLimitedError(
        Math.max(1, decision.resetSeconds),
        `at most ${API_KEY_RATE_LIMIT} ${RATE_LIMIT_WINDOW_WORDS} per API key`,
      );
    }
    await next();
    c.header('RateLimit', header);
  };
}
