import type { MiddlewareHandler } from 'hono';
import { hashApiKey, isWellFormedApiKey } from '../../../shared/auth/api-key';
import type { ApiKeyRecord } from '../../../shared/db/business-repository';
import { UnauthorizedError } from '../../../shared/errors';
import type { ApiEnv } from '../env';

/** Looks a key hash up in the store. */
export type FindApiKey = (keyHash: string) => Promise<ApiKeyRecord | undefined>;

export interface AuthOptions {
  findApiKey: FindApiKey;
  now: () => number;
  /**
   * How long a warm process trusts a key it has already looked up. Authentication then costs no
   * DynamoDB call; the price is that a revoked key keeps working on a warm instance for at most
   * this long (30 s, documented in the README).
   */
  cacheMs?: number;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Authenticates `Authorization: Bearer <key>`: a malformed key (bad shape or checksum) is refused
 * without a read; a well-formed one is looked up by its SHA-256 hash, never by the key itself.
 */
export function auth(options: AuthOptions): MiddlewareHandler<ApiEnv> {
  const cacheMs = options.cacheMs ?? 30_000;
  const cache = new Map<string, { record: ApiKeyRecord | undefined; until: number }>();
  return async function authMiddleware(c, next) {
    const match = BEARER.exec(c.req.header('authorization') ?? '');
    if (!match) throw new UnauthorizedError('Missing or malformed Authorization header; send "Authorization: Bearer <API key>".');
    const key = match[1]!;
    if (!isWellFormedApiKey(key)) throw new UnauthorizedError('Invalid API key.');
    const keyHash = hashApiKey(key);
    const now = options.now();
    let cached = cache.get(keyHash);
    if (!cached || cached.until <= now) {
      cached = { record: await options.findApiKey(keyHash), until: now + cacheMs };
      if (cache.size > 10_000) cache.clear();
      cache.set(keyHash, cached);
    }
    const record = cached.record;
    if (!record) throw new UnauthorizedError('Invalid API key.');
    if (record.revoked_at !== null) throw new UnauthorizedError('This API key has been revoked.');
    c.set('businessId', record.business_id);
    c.set('keyId', keyHash.slice(0, 32));
    await next();
  };
}
