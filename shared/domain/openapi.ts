import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import * as assistant from './assistant';
import * as call from './call';
import { ListMessagesQuerySchema } from './message';
import { CursorListQuerySchema, MAX_EXAMINED_PER_PAGE } from './paging';
import { componentSchemas } from './openapi-schemas';
import { BOOKING_TAGS, bookingErrorResponses, bookingPaths } from './openapi-bookings';
import { TOOL_CALL_PARAMETERS, TOOL_TAGS, toolErrorResponses, toolPaths, toolWebhooks } from './openapi-tools';
import { KNOWLEDGE_TAGS, knowledgeErrorResponses, knowledgePaths } from './openapi-knowledge';
import { WORKFLOW_TAGS, workflowErrorResponses, workflowPaths } from './openapi-workflows';
import { WEBHOOK_HEADER_PARAMETERS, webhookOperations } from './openapi-webhooks';
import { stringField } from './validation';
import { DEFAULT_QUOTAS } from './quota';
import {
  API_KEY_RATE_LIMIT,
  FAILED_AUTH_LIMIT,
  RATE_LIMIT_POLICY,
  RATE_LIMIT_WINDOW_SECONDS,
  RATE_LIMIT_WINDOW_WORDS,
} from './rate-limits';

type Json = Record<string, unknown>;

/** The public API version (spec Versioning); also sent as `X-API-Version`. */
export const OPENAPI_VERSION = '1.0.0';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** One valibot schema as an inline JSON Schema (parameters and headers). */
export function inline(schema: v.GenericSchema): Json {
  const { $schema: _dialect, ...json } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode: 'input',
    ignoreActions: ['check'],
  }) as Json;
  return json;
}

const HEADERS: Record<string, Json> = {
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
  'WWW-Authenticate': {
    description: 'RFC 6750 challenge: `Bearer realm="api"`, with `error="invalid_token"` when a key was sent but refused.',
    schema: { type: 'string', examples: ['Bearer realm="api", error="invalid_token"'] },
  },
};

const headerRefs = (...names: string[]) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
const COMMON_HEADERS = ['X-API-Version', 'RateLimit-Policy', 'RateLimit'];

export function jsonResponse(description: string, schema: string, headers = COMMON_HEADERS): Json {
  return { description, headers: headerRefs(...headers), content: { 'application/json': { schema: ref(schema) } } };
}

const ERROR_RESPONSES: Record<string, Json> = {
  Unauthorized: jsonResponse('Missing or invalid API key (`unauthorized`).', 'ErrorBody', [
    'X-API-Version',
    'RateLimit-Policy',
    'WWW-Authenticate',
  ]),
  PayloadTooLarge: jsonResponse('The body is over 256 KiB (`payload_too_large`).', 'ErrorBody'),
  UnsupportedMediaType: jsonResponse(
    'The body is not sent as JSON (`unsupported_media_type`): `Content-Type` must be `application/json` or `application/*+json`, a `charset` only `utf-8`; a missing one is refused too.',
    'ErrorBody',
  ),
  InsufficientMinutes: jsonResponse('The plan has no minutes left (`insufficient_minutes`).', 'ErrorBody'),
  NotFound: jsonResponse('Missing, or owned by another business (`not_found`).', 'ErrorBody'),
  IdempotencyConflict: jsonResponse(
    'Idempotency-Key reused with a different body, or its first request still running after 10 s (`idempotency_conflict`).',
    'ErrorBody',
  ),
  PreconditionFailed: jsonResponse(
    'If-Match names a version that is no longer current (`precondition_failed`); nothing was written. Read the resource again and retry.',
    'ErrorBody',
  ),
  ValidationFailed: jsonResponse('A parameter or field is invalid; `detail` lists each one.', 'HTTPValidationError'),
  RateLimited: jsonResponse(
    `More than ${API_KEY_RATE_LIMIT} requests ${RATE_LIMIT_WINDOW_WORDS} on this key, or more than ${FAILED_AUTH_LIMIT} failed authentications ` +
      `${RATE_LIMIT_WINDOW_WORDS} from this address (\`rate_limited\`).`,
    'ErrorBody',
    [...COMMON_HEADERS, 'Retry-After'],
  ),
  Internal: jsonResponse('Unexpected error (`internal`), with a request id to quote.', 'ErrorBody'),
  CreateConflict: jsonResponse(
    'Idempotency-Key reused with a different body, or its first request still running after 10 s (`idempotency_conflict`); ' +
      'or the business is at one of its quotas (`quota_exceeded`): the detail names the quota and its value, a delete frees a place and ops can raise it.',
    'ErrorBody',
  ),
  ...bookingErrorResponses(),
  ...toolErrorResponses(),
  ...knowledgeErrorResponses(),
  ...workflowErrorResponses(),
};

/** The responses of one operation: its success, the errors it lists, and 401/429/500 always. */
export function responses(success: Json, errors: Record<string, string> = {}): Json {
  const errorRefs = (statuses: Record<string, string>) =>
    Object.fromEntries(Object.entries(statuses).map(([status, name]) => [status, { $ref: `#/components/responses/${name}` }]));
  return { '200': success, ...errorRefs({ '401': 'Unauthorized', ...errors, '429': 'RateLimited', '500': 'Internal' }) };
}

/**
 * The Idempotency-Key header every create takes (README "Idempotent creates"); list
 * `'409': 'IdempotencyConflict'` in the operation's responses beside it.
 */
export function idempotencyKeyParam(): Json {
  return {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Kept 24 h per business and route: the same key and body (and path) return the first response, even when sent at once; ' +
      'another body is a 409 `idempotency_conflict`. Only a 2xx is remembered.',
    schema: inline(stringField({ min: 1, max: 255 })),
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
    schema: inline(call.IdParamSchema),
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

const BYTE_BUDGET =
  'A page also stops before the item that would take its items past 4 MiB of JSON (`has_more` is then true), so it can hold fewer.';
const CURSOR =
  'The `next_cursor` of the previous page, unchanged, with the same filters; a cursor of another list, business or filter is a 422.';

const ASSISTANT_PAGE_PARAMS = {
  limit: `At most this many assistants (default and maximum 200). ${BYTE_BUDGET}`,
  offset: 'Assistants to skip, newest first (0 to 1000); not with `cursor`.',
  cursor: CURSOR,
};

const CALL_PAGE_PARAMS = {
  limit: `At most this many calls (1 to 200, default 50). ${BYTE_BUDGET}`,
  offset:
    'Calls to skip, newest first (spec; no upper bound). Skipping N calls reads N keys, so a deep offset is slow: walk with `cursor` instead, ' +
    'which costs one page at any depth. Not with `cursor`.',
  cursor: CURSOR,
  status: 'Only calls in this status.',
  outcome: 'Only calls with this outcome.',
  created_after: 'Only calls created at or after this instant (ISO 8601; a date is its midnight UTC).',
  created_before: 'Only calls created before this instant (exclusive); after `created_after` or equal to it.',
};

const CURSOR_LIST_PARAMS = { limit: `At most this many items (1 to 200, default 200). ${BYTE_BUDGET}`, cursor: CURSOR };

/** The query of a list paged by cursor only (`limit`, `cursor`). */
export function cursorListParameters(): Json[] {
  return queryParams(CursorListQuerySchema, CURSOR_LIST_PARAMS);
}

/** What every list page says about reading: filters examine a bounded number of items, so a page may come back short. */
export const LIST_PAGING_NOTE =
  ` Filters are applied as items are read, at most ${MAX_EXAMINED_PER_PAGE} a page: a page may hold fewer than \`limit\` items, even none, ` +
  'while `has_more` is true; follow `next_cursor` until it is null.';

const NOT_FOUND = { '404': 'NotFound' };
const INVALID = { '422': 'ValidationFailed' };
/** Operations that read a JSON body also refuse one over 256 KiB, and one not sent as JSON. */
export const BODY_ERRORS = { '413': 'PayloadTooLarge', '415': 'UnsupportedMediaType', ...INVALID };

/** Assistant responses carry the version tag beside the common headers. */
const TAGGED = [...COMMON_HEADERS, 'ETag'];

function ifMatchParam(): Json {
  return {
    name: 'If-Match',
    in: 'header',
    required: false,
    description:
      'Write only if the assistant is still at this version: an `ETag` from an earlier response (a list of them, or `*` for any ' +
      'version). A stale tag is a 412 `precondition_failed` and nothing is written; without the header the write is unconditional.',
    schema: { type: 'string', maxLength: 1000, examples: ['"3"'] },
  };
}

function assistantPaths(): Json {
  const id = idParam('assistant_id');
  return {
    '/assistants': {
      get: {
        ...op(
          'listAssistants',
          'Assistants',
          'List assistants, newest first, one page at a time.',
          responses(jsonResponse('One page of assistants.', 'AssistantList'), INVALID),
        ),
        parameters: queryParams(assistant.ListAssistantsQuerySchema, ASSISTANT_PAGE_PARAMS),
      },
      post: {
        ...op(
          'createAssistant',
          'Assistants',
          `Create an assistant from a template or a full config (at most the business's \`assistants\` quota, default ${DEFAULT_QUOTAS.assistants}).`,
          responses(jsonResponse('The new assistant.', 'Assistant', TAGGED), { '409': 'CreateConflict', ...BODY_ERRORS }),
        ),
        parameters: [idempotencyKeyParam()],
        requestBody: body('CreateAssistantBody'),
      },
    },
    '/assistants/{assistant_id}': {
      parameters: [id],
      get: op(
        'getAssistant',
        'Assistants',
        'Get one assistant.',
        responses(jsonResponse('The assistant.', 'Assistant', TAGGED), { ...NOT_FOUND, ...INVALID }),
      ),
      patch: {
        ...op(
          'updateAssistant',
          'Assistants',
          'Rename an assistant and/or replace its whole config (`application/json`: omitted settings return to their defaults), ' +
            'or change only what is sent (`application/merge-patch+json`, RFC 7396). With If-Match, only the version it names.',
          responses(jsonResponse('The updated assistant.', 'Assistant', TAGGED), {
            ...NOT_FOUND,
            '412': 'PreconditionFailed',
            ...BODY_ERRORS,
          }),
        ),
        parameters: [ifMatchParam()],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: ref('UpdateAssistantBody') },
            'application/merge-patch+json': {
              schema: {
                type: 'object',
                description:
                  'RFC 7396 merge patch on `{name, config}` as GET returns them: objects merge member by member, `null` removes a ' +
                  'member (a setting returns to its default; `name` and `config` cannot be removed), arrays and other values replace. ' +
                  'The result is validated as an `UpdateAssistantBody` (422 items point at the field).',
                examples: [{ config: { model: { temperature: 0.2 }, variables: { city: null } } }],
              },
            },
          },
        },
      },
      delete: {
        ...op(
          'deleteAssistant',
          'Assistants',
          'Delete an assistant; the oldest remaining one becomes the default. With If-Match, only the version it names.',
          responses(jsonResponse('Deleted.', 'DeleteResult'), { ...NOT_FOUND, '412': 'PreconditionFailed', ...INVALID }),
        ),
        parameters: [ifMatchParam()],
      },
    },
  };
}

function callPaths(): Json {
  return {
    '/calls': {
      get: {
        ...op(
          'listCalls',
          'Calls',
          `List calls, newest first, one page at a time.${LIST_PAGING_NOTE}`,
          responses(jsonResponse('One page of calls.', 'CallsPage'), INVALID),
        ),
        parameters: queryParams(call.ListCallsQuerySchema, CALL_PAGE_PARAMS),
      },
      post: {
        ...op(
          'createCall',
          'Calls',
          'Start an outbound call; it is returned queued, and analysed once it ends.',
          responses(jsonResponse('The call in its initial state.', 'Call'), {
            '402': 'InsufficientMinutes',
            ...NOT_FOUND,
            '409': 'IdempotencyConflict',
            ...BODY_ERRORS,
          }),
        ),
        parameters: [idempotencyKeyParam()],
        requestBody: body('CreateCallBody'),
      },
    },
    '/calls/{call_id}': {
      parameters: [idParam('call_id')],
      get: op(
        'getCall',
        'Calls',
        'Get a call with its transcript, analysis, metrics, recording and webhook deliveries.',
        responses(jsonResponse('The call.', 'CallDetail'), { ...NOT_FOUND, ...INVALID }),
      ),
    },
  };
}

function messagePaths(): Json {
  const list = `List the messages callers left (take_message, notify_team), newest first; \`from\` inclusive, \`to\` exclusive, \`from\` not after \`to\`.${LIST_PAGING_NOTE}`;
  return {
    '/messages': {
      get: {
        ...op('listMessages', 'Messages', list, responses(jsonResponse('One page of messages.', 'MessagesPage'), INVALID)),
        parameters: queryParams(ListMessagesQuerySchema, { cursor: CURSOR, offset: 'Messages to skip (0 to 1000); not with `cursor`.' }),
      },
    },
    '/messages/{message_id}': {
      parameters: [idParam('message_id')],
      get: op(
        'getMessage',
        'Messages',
        'Get one message.',
        responses(jsonResponse('The message.', 'Message'), { ...NOT_FOUND, ...INVALID }),
      ),
    },
  };
}

function catalogPaths(): Json {
  return {
    '/phone-numbers': {
      get: {
        ...op(
          'listPhoneNumbers',
          'Phone numbers',
          "List the business's phone numbers, newest first, one page at a time.",
          responses(jsonResponse('One page of phone numbers.', 'PhoneNumberList'), INVALID),
        ),
        parameters: cursorListParameters(),
      },
    },
    '/usage': {
      get: op(
        'getUsage',
        'Usage',
        "The business's minutes (remaining and reserved by calls under way), calls holding a concurrency slot, the cap, and calls queued.",
        responses(jsonResponse('Usage now.', 'Usage')),
      ),
    },
    '/openapi.json': {
      get: {
        ...op('getOpenApiDocument', 'Meta', 'This document.', {
          '200': jsonResponse('The OpenAPI 3.1 document.', 'OpenApiDocument', ['X-API-Version', 'RateLimit-Policy']),
          // No key, so no per-key limit: only API Gateway's stage-wide throttle (infra/config.ts) can refuse it.
          '429': { description: "API Gateway's stage-wide throttle (a backstop for the whole API) refused the request; retry later." },
        }),
        security: [],
      },
    },
  };
}

/** Every tag the operations and webhooks use, with what it groups. */
const TAGS: Record<string, string> = {
  Assistants:
    "Voice agents: prompt, voice, model, tools, call handling and analysis. A business's first assistant answers inbound calls by default.",
  Calls:
    'Start outbound calls; read every call, inbound or outbound, with its transcript, analysis, metrics, recording and webhook deliveries.',
  'Phone numbers': "The business's numbers (provisioned by ops) and the assistant each one answers with.",
  Usage: "The plan's minutes and the business's call load, read now.",
  Messages: 'Messages callers left with an assistant, each linked to its call.',
  ...TOOL_TAGS,
  ...KNOWLEDGE_TAGS,
  ...WORKFLOW_TAGS,
  ...BOOKING_TAGS,
  Meta: 'This document.',
  Webhooks: "Signed events POSTed to an assistant's `advanced.server_url` for the kinds in `advanced.server_events`.",
};

export function op(operationId: string, tag: string, summary: string, operationResponses: Json): Json {
  return { operationId, tags: [tag], summary, responses: operationResponses };
}

/**
 * The OpenAPI 3.1 document served at `GET /api/v1/openapi.json`. Bodies, resources and errors
 * are generated from the same valibot schemas the API parses with, so the document cannot
 * drift from the validation (docs/design.md §4: never hand-written).
 */
export function buildOpenApiDocument(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Voice Agent API',
      version: OPENAPI_VERSION,
      description:
        "Build voice agents (assistants), run them on phone numbers, and read each call's transcript, analysis and metrics. " +
        'Conventions every operation shares: errors other than 422 are `ErrorBody` (`code` from one closed list); a path the API has, ' +
        'called with a method it does not take, is a 405 `method_not_allowed` whose `Allow` header lists the methods it takes (an unknown path is a 404); ' +
        'a body not sent as JSON (`application/json` or `application/*+json`) is a 415 `unsupported_media_type`.',
      // No open-source licence: the service is proprietary (docs/decisions.md "OpenAPI document").
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/api/v1' }],
    security: [{ bearerAuth: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths: {
      ...assistantPaths(),
      ...callPaths(),
      ...messagePaths(),
      ...catalogPaths(),
      ...toolPaths(),
      ...knowledgePaths(),
      ...workflowPaths(),
      ...bookingPaths(),
    },
    webhooks: { ...webhookOperations(), ...toolWebhooks() },
    components: {
      schemas: componentSchemas(),
      responses: ERROR_RESPONSES,
      parameters: { ...WEBHOOK_HEADER_PARAMETERS, ...TOOL_CALL_PARAMETERS },
      headers: HEADERS,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer vk_live_…` (or `vk_test_…`).' },
      },
    },
  };
}
