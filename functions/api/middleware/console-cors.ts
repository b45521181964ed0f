import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { ApiEnv } from '../env';

/** What the console sends: the key, JSON bodies, create keys and conditional writes. */
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match', 'If-None-Match', 'X-Request-Id'];

/** The response headers the console reads: versions for If-Match, the request id to quote, the rate limit. */
const EXPOSED_HEADERS = ['ETag', 'X-Request-Id', 'X-API-Version', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'WWW-Authenticate'];

/** Every method a route of the API takes. */
const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'];

/** How long a browser may cache a preflight (s): ten minutes, so a console session preflights rarely. */
const PREFLIGHT_MAX_AGE_S = 600;

/**
 * CORS for the console's origin only (`CONSOLE_ORIGIN`): a request whose `Origin` is exactly that
 * origin gets hono's `cors` headers (a preflight is answered 204 here, before auth); any other
 * origin gets no `Access-Control-*` header at all, not even on a preflight (hono's `cors` would still
 * list the methods and headers), and its preflight goes on to the routes like any request without a
 * key. No credentials mode: the console sends its key in `Authorization`, never a cookie.
 *
 * @example
 * app.use('/api/v1/*', consoleCors('https://console.example.com'));
 */
export function consoleCors(consoleOrigin: string): MiddlewareHandler<ApiEnv> {
  const allow = cors({
    origin: consoleOrigin,
    allowMethods: ALLOWED_METHODS,
    allowHeaders: ALLOWED_HEADERS,
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_S,
  });
  return async function consoleCorsMiddleware(c, next) {
    if (c.req.header('origin') === consoleOrigin) return allow(c, next);
    await next();
    // The answer depends on Origin, so shared caches must keep the two apart.
    c.header('Vary', 'Origin', { append: true });
  };
}
