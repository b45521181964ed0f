import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { IdParamSchema } from './ids';
import { COMMON_HEADERS, headerRefs } from './openapi-headers';
import { IDEMPOTENCY_TTL_SECONDS, MAX_IDEMPOTENCY_KEY_LENGTH } from './api-limits';
import { stringField } from './validation';

/**
 * The builders every path of the OpenAPI document is written with: an operation, its responses
 * and error references, a JSON body, the id, query and Idempotency-Key parameters. Functions only,
 * called while the document is built.
 */

/** A piece of the OpenAPI document. */
export type Json = Record<string, unknown>;

/** A `$ref` to a named schema component. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** One valibot schema as an inline JSON Schema (parameters and headers). */
export function inline(schema: v.GenericSchema): Json {
  const { $schema: _dialect, ...json } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode: 'input',
    ignoreActions: ['check'],
  }) as Json;
  return json;
}

export function jsonResponse(description: string, schema: string, headers = COMMON_HEADERS): Json {
  return { description, headers: headerRefs(...headers), content: { 'application/json': { schema: ref(schema) } } };
}

/** The responses of one operation: its success, the errors it lists, and 401/429/500 always. */
export function responses(success: Json, errors: Record<string, string> = {}): Json {
  const errorRefs = (statuses: Record<string, string>) =>
    Object.fromEntries(Object.entries(statuses).map(([status, name]) => [status, { $ref: `#/components/responses/${name}` }]));
  return { '200': success, ...errorRefs({ '401': 'Unauthorized', ...errors, '429': 'RateLimited', '500': 'Internal' }) };
}

/**
 * The Idempotency-Key header every create takes (docs/api-tour.md "Idempotent creates"); list
 * `'409': 'IdempotencyConflict'` in the operation's responses beside it.
 */
export function idempotencyKeyParam(): Json {
  return {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      `Kept ${IDEMPOTENCY_TTL_SECONDS / 3600} h per business and route: the same key and body (and path) return the first response, even when sent at once; ` +
      'another body is a 409 `idempotency_conflict`. Only a 2xx is remembered.',
    schema: inline(stringField({ min: 1, max: MAX_IDEMPOTENCY_KEY_LENGTH })),
  };
}

export function body(schema: string): Json {
  return { required: true, content: { 'application/json': { schema: ref(schema) } } };
}

export function idParam(name: string): Json {
  return {
    name,
    in: 'path',
    required: true,
    description: 'Canonical decimal: digits only, no sign, spaces or leading zeros.',
    schema: inline(IdParamSchema),
  };
}

/** The query parameters of a list, from the schema that parses them; `descriptions` by name. */
export function queryParams(query: v.ObjectSchema<v.ObjectEntries, undefined>, descriptions: Record<string, string> = {}): Json[] {
  return Object.entries(query.entries).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    ...(descriptions[name] !== undefined && { description: descriptions[name] }),
    schema: inline(schema),
  }));
}

export function op(operationId: string, tag: string, summary: string, operationResponses: Json): Json {
  return { operationId, tags: [tag], summary, responses: operationResponses };
}

/** The error responses operations list by status (the 401/429/500 every one has are added by {@link responses}). */
export const NOT_FOUND = { '404': 'NotFound' };
export const INVALID = { '422': 'ValidationFailed' };
/** Operations that read a JSON body also refuse one over `MAX_BODY_BYTES` (api-limits.ts), and one not sent as JSON. */
export const BODY_ERRORS = { '413': 'PayloadTooLarge', '415': 'UnsupportedMediaType', ...INVALID };
