import type { Json } from './openapi-operations';
import { API_KEY_RATE_LIMIT, RATE_LIMIT_POLICY, RATE_LIMIT_WINDOW_SECONDS } from './rate-limits';

/** The response headers of the OpenAPI document (`components/headers`), and which ones every answer carries. */

/** The public API version (spec Versioning); also sent as `X-API-Version`. */
export const OPENAPI_VERSION = '1.0.0';

/** Every response header an operation names, by name. */
export const HEADERS: Record<string, Json> = {
  'X-API-Version': { description: 'Version of the API that answered.', schema: { type: 'string', examples: [OPENAPI_VERSION] } },
  'RateLimit-Policy': {
    description: `IETF draft rate-limit policy: ${API_KEY_RATE_LIMIT} requests per rolling ${RATE_LIMIT_WINDOW_SECONDS} s per API key.`,
    schema: { type: 'string', examples: [RATE_LIMIT_POLICY] },
  },
  RateLimit: {
    description: 'Requests remaining (r) and seconds until the window frees one (t).',
    schema: { type: 'string', examples: [`"default";r=${API_KEY_RATE_LIMIT - 1};t=${RATE_LIMIT_WINDOW_SECONDS}`] },
  },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
  ETag: {
    description:
      'Strong entity tag of the assistant as stored (its version): send it back in `If-Match` to update or delete only that version.',
    schema: { type: 'string', examples: ['"3"'] },
  },
  'Cache-Control': {
    description: '`no-store` on an answer that holds a credential (a web call token): no cache or proxy may keep it.',
    schema: { type: 'string', examples: ['no-store'] },
  },
  'WWW-Authenticate': {
    description: 'RFC 6750 challenge: `Bearer realm="api"`, with `error="invalid_token"` when a key was sent but refused.',
    schema: { type: 'string', examples: ['Bearer realm="api", error="invalid_token"'] },
  },
};

/** `$ref`s to the named header components. */
export const headerRefs = (...names: string[]) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
/** The headers on every answer to a request with a key: the version and the key's rate limit. */
export const COMMON_HEADERS = ['X-API-Version', 'RateLimit-Policy', 'RateLimit'];
