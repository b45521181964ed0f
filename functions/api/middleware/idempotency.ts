import type { MiddlewareHandler } from 'hono';
import type { IdempotencyRepository } from '../../../shared/db/idempotency-repository';
import { checkIdempotencyKey, claimIdempotencyKey, fingerprint } from '../../../shared/services/idempotency';
import { readJsonBody } from '../body';
import type { ApiEnv } from '../env';

/** Response headers a replay repeats beside the body: the created resource's version tag. */
const REPLAYED_HEADERS = ['etag'] as const;

/** What the middleware needs: where keys are kept, and the clock their leases run on. */
export interface IdempotencyOptions {
  store: IdempotencyRepository;
  now: () => number;
}

/**
 * `Idempotency-Key` on a create route: the same key and body (and path parameters) on the same
 * route of the same business give one resource and the same response, even when sent at once;
 * another body under a used key is a 409 `idempotency_conflict`. Only a 2xx is remembered, so a
 * refused request may be fixed and retried under its key. POST /calls does the same in its
 * service, recording the response in the call's own transaction.
 *
 * @example
 * .post('/', idempotent(options, 'POST /tools'), async (c) => c.json(await service.create(...)))
 */
export function idempotent(options: IdempotencyOptions, scope: string): MiddlewareHandler<ApiEnv> {
  return async function idempotentCreate(c, next) {
    const key = c.req.header('idempotency-key');
    if (key === undefined) return next();
    checkIdempotencyKey(key);
    const body = await readJsonBody(c, null);
    const request = { businessId: c.get('businessId'), scope, key, fingerprint: fingerprint({ path: c.req.param(), body }) };
    const claim = await claimIdempotencyKey(options.store, request, options.now);
    if (claim.kind === 'replay') return c.body(JSON.stringify(claim.body), claim.status as 200, jsonHeaders(claim.headers));
    try {
      await next();
    } finally {
      await settle(options.store, request, c.res);
    }
  };
}

/** Remembers a 2xx response under the claim; anything else releases it so a retry runs. */
async function settle(
  store: IdempotencyRepository,
  request: { businessId: number; scope: string; key: string; fingerprint: string },
  response: Response,
): Promise<void> {
  if (response.status < 200 || response.status > 299) return store.release(request.businessId, request.scope, request.key);
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const body: unknown = await response.clone().json();
  await store.complete(request.businessId, request.scope, request.key, request.fingerprint, { status: response.status, body, headers });
}

function jsonHeaders(headers: Record<string, string>): Record<string, string> {
  return { ...headers, 'content-type': 'application/json' };
}
