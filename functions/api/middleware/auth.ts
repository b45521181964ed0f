import type { Context, MiddlewareHandler } from 'hono';
import { hashApiKey, isWellFormedApiKey } from '../../../shared/auth/api-key';
import type { ApiKeyRecord } from '../../../shared/db/business-repository';
import { FAILED_AUTH_LIMIT, RATE_LIMIT_WINDOW_SECONDS } from '../../../shared/domain/rate-limits';
import { AuthThrottledError, UnauthorizedError } from '../../../shared/errors';
import type { ApiEnv } from '../env';
import { BoundedMap } from './bounded-map';

/** Looks a key hash up in the store. */
export type FindApiKey = (keyHash: string) => Promise<ApiKeyRecord | undefined>;

/** Where a request came from (the client's IP address), or undefined when unknown. */
export type SourceAddress = (c: Context) => string | undefined;

export interface AuthOptions {
  findApiKey: FindApiKey;
  now: () => number;
  /**
   * How long a warm process trusts a key it has already looked up. Authentication then costs no
   * DynamoDB call; the price is that a revoked key keeps working on a warm instance for at most
   * this long (30 s, documented in the README). Unknown keys are remembered as long.
   */
  cacheMs?: number;
  /** The request's source address; default {@link requestSourceAddress}. */
  sourceAddress?: SourceAddress;
  /** Failed authentications one address may make per window before it is throttled (default {@link FAILED_AUTH_LIMIT}). */
  maxFailures?: number;
  /** The failure window (default {@link RATE_LIMIT_WINDOW_SECONDS}). */
  failureWindowMs?: number;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Keys (known and unknown) and addresses a warm instance remembers: a few MB at most. */
const MAX_REMEMBERED = 10_000;

/**
 * How long a key that authenticated stays exempt from its address's failure throttle (its record
 * is still looked up again after `cacheMs`, so a revocation takes effect as usual). Longer than the
 * failure window, so a business that shares an address with a noisy client keeps working.
 */
const KNOWN_GOOD_MS = 10 * 60_000;

/**
 * The client's address as the platform reports it: API Gateway's `requestContext.http.sourceIp`
 * on Lambda (`hono/aws-lambda` puts the event in `c.env.event`), the socket's peer address on
 * `@hono/node-server` (`npm run dev`). Client headers such as X-Forwarded-For are never trusted.
 */
export const requestSourceAddress: SourceAddress = (c) => {
  const env = c.env as
    { event?: { requestContext?: { http?: { sourceIp?: string } } }; incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.event?.requestContext?.http?.sourceIp ?? env?.incoming?.socket?.remoteAddress;
};

/**
 * Authenticates `Authorization: Bearer <key>`: a malformed key (bad shape or checksum) is refused
 * without a read; a well-formed one is looked up by its SHA-256 hash, never by the key itself.
 *
 * Known keys and unknown keys are remembered in two separate bounded maps, so a flood of
 * well-formed but unknown keys costs one DynamoDB read each at most once per `cacheMs`, and can
 * never push the real keys out. Every failed authentication counts against its source address: past
 * `maxFailures` in a window, that address gets 429 for anything but a key that authenticated on this
 * instance in the last 10 minutes, before any lookup (in each warm instance, on top of API Gateway's stage throttle).
 */
export function auth(options: AuthOptions): MiddlewareHandler<ApiEnv> {
  const cacheMs = options.cacheMs ?? 30_000;
  const known = new BoundedMap<string, { record: ApiKeyRecord; until: number; goodUntil: number }>(MAX_REMEMBERED);
  const unknown = new BoundedMap<string, number>(MAX_REMEMBERED);
  const failures = new FailureCounter(
    options.maxFailures ?? FAILED_AUTH_LIMIT,
    options.failureWindowMs ?? RATE_LIMIT_WINDOW_SECONDS * 1000,
  );
  const sourceOf = options.sourceAddress ?? requestSourceAddress;
  return async function authMiddleware(c, next) {
    const now = options.now();
    const source = sourceOf(c);
    const fail = (error: UnauthorizedError) => {
      if (source !== undefined) failures.add(source, now);
      return error;
    };
    const match = BEARER.exec(c.req.header('authorization') ?? '');
    const key = match?.[1];
    const keyHash = key !== undefined && isWellFormedApiKey(key) ? hashApiKey(key) : undefined;
    const cached = keyHash === undefined ? undefined : known.get(keyHash);
    const trusted = cached !== undefined && cached.until > now ? cached.record : undefined;
    const knownGood = cached !== undefined && cached.goodUntil > now && cached.record.revoked_at === null;
    if (!knownGood && source !== undefined) {
      const retryAfter = failures.retryAfterSeconds(source, now);
      if (retryAfter > 0) throw new AuthThrottledError(retryAfter);
    }
    if (!match) throw fail(new UnauthorizedError('Missing or malformed Authorization header; send "Authorization: Bearer <API key>".'));
    if (keyHash === undefined) throw fail(new UnauthorizedError('Invalid API key.'));
    const record = trusted ?? (await lookUp(keyHash, now));
    if (!record) throw fail(new UnauthorizedError('Invalid API key.'));
    if (record.revoked_at !== null) throw fail(new UnauthorizedError('This API key has been revoked.'));
    c.set('businessId', record.business_id);
    c.set('keyId', keyHash.slice(0, 32));
    await next();
  };

  async function lookUp(keyHash: string, now: number): Promise<ApiKeyRecord | undefined> {
    const unknownUntil = unknown.get(keyHash);
    if (unknownUntil !== undefined && unknownUntil > now) return undefined;
    const record = await options.findApiKey(keyHash);
    if (record) known.set(keyHash, { record, until: now + cacheMs, goodUntil: now + KNOWN_GOOD_MS });
    else unknown.set(keyHash, now + cacheMs);
    return record;
  }
}

/** Failed authentications per source address in fixed windows, for a bounded number of addresses. */
class FailureCounter {
  readonly #windows = new BoundedMap<string, { start: number; count: number }>(MAX_REMEMBERED);

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  add(source: string, now: number): void {
    const window = this.#windows.get(source);
    if (window === undefined || now - window.start >= this.windowMs) this.#windows.set(source, { start: now, count: 1 });
    else window.count++;
  }

  /** Seconds until `source` may try again; 0 when it is not throttled. */
  retryAfterSeconds(source: string, now: number): number {
    const window = this.#windows.get(source);
    if (window === undefined || window.count < this.max || now - window.start >= this.windowMs) return 0;
    return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
  }
}
