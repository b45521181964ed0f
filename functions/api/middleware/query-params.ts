import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { ValidationError } from '../../../shared/errors';
import type { ApiEnv } from '../env';

/**
 * The operations that read query parameters (`METHOD /path` as routed under /api/v1). Each parses
 * its own with `parseListQuery`, which refuses unknown names; every other operation takes none.
 */
export const QUERY_OPERATIONS: ReadonlySet<string> = new Set([
  'GET /assistants',
  'GET /calls',
  'GET /messages',
  'GET /bookings',
  'GET /availability',
  'GET /tools',
  'GET /workflows',
  'GET /knowledge-bases',
  'GET /knowledge-bases/:kb/documents',
  'GET /phone-numbers',
]);

/**
 * Refuses query parameters on an operation that reads none (422 `extra_forbidden` at
 * `['query', name]`, as an unknown body field is), so a misspelt parameter is never silently
 * ignored. A path no route answers is left to the 404.
 */
export function refuseUnreadQuery(prefix: string, operations: ReadonlySet<string> = QUERY_OPERATIONS): MiddlewareHandler<ApiEnv> {
  return async function refuseUnreadQueryMiddleware(c, next) {
    const query = c.req.query();
    const route = matchedRoutes(c).at(-1);
    const handled = route !== undefined && route.method !== 'ALL';
    const operation = handled ? `${route.method} ${route.path.slice(prefix.length)}` : '';
    if (Object.keys(query).length === 0 || !handled || operations.has(operation)) return next();
    throw new ValidationError(
      Object.entries(query).map(([name, input]) => ({
        loc: ['query', name],
        msg: 'Extra inputs are not permitted',
        type: 'extra_forbidden',
        input,
      })),
    );
  };
}
