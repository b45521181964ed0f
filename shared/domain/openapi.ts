import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig } from '@valibot/to-json-schema';
import * as v from 'valibot';
import * as assistant from './assistant';
import * as cfg from './assistant-config';
import * as call from './call';
import { PhoneNumberListSchema, PhoneNumberSchema } from './phone-number';
import { ToolListSchema, ToolSchema } from './tool';
import { HttpValidationErrorSchema, ValidationItemSchema, strictDict, stringField } from './validation';

type Json = Record<string, unknown>;

/** The public API version (spec Versioning); also sent as `X-API-Version`. */
export const OPENAPI_VERSION = '1.0.0';

/** Machine codes of non-422 error bodies (docs/design.md §4). */
export const ERROR_CODES = [
  'unauthorized',
  'insufficient_minutes',
  'not_found',
  'idempotency_conflict',
  'rate_limited',
  'internal',
] as const;

/** The body of 401, 402, 404, 409, 429 and 500 replies (docs/design.md §4). */
export const ErrorBodySchema = strictDict({ code: v.picklist(ERROR_CODES), detail: v.string() });

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const CONVERSION: ConversionConfig = {
  target: 'draft-2020-12',
  overrideRef: (context) => `#/components/schemas/${context.referenceId}`,
};

/** The config parts whose request and response forms differ only in what is required. */
const CONFIG_PARTS = {
  SimpleSetup: cfg.SimpleSetupSchema,
  TranscriberCfg: cfg.TranscriberCfgSchema,
  VoiceCfg: cfg.VoiceCfgSchema,
  Pronounce: cfg.PronounceSchema,
  BuiltinTools: cfg.BuiltinToolsSchema,
  AnalysisCfg: cfg.AnalysisCfgSchema,
  StructuredField: cfg.StructuredFieldSchema,
  AdvancedCfg: cfg.AdvancedCfgSchema,
};

/**
 * Request schemas, in input form. Config parts are suffixed `Input` because their response
 * form differs (defaults make every field required there, and `custom_key` is write-only).
 */
function requestSchemas(): Record<string, Json> {
  const parts = Object.entries(CONFIG_PARTS).map(([name, schema]) => [`${name}Input`, schema] as const);
  const defs = toJsonSchemaDefs(
    {
      CreateAssistantBody: assistant.CreateAssistantBodySchema,
      UpdateAssistantBody: assistant.UpdateAssistantBodySchema,
      CreateCallBody: call.CreateCallBodySchema,
      AssistantConfigInput: cfg.AssistantConfigSchema,
      ModelCfgInput: cfg.ModelCfgSchema,
      ...Object.fromEntries(parts),
    },
    { ...CONVERSION, typeMode: 'input' },
  );
  return defs as unknown as Record<string, Json>;
}

/** A response always carries a defaulted field, so it is required there and its default moot. */
function requireDefaulted(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(requireDefaulted);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = requireDefaulted(value);
  const properties = (node as Json).properties as Record<string, Json> | undefined;
  if ((node as Json).type === 'object' && properties) {
    const required = new Set((node as { required?: string[] }).required ?? []);
    const outProps = out.properties as Record<string, Json>;
    for (const [name, property] of Object.entries(properties)) {
      if (!('default' in property)) continue;
      required.add(name);
      delete outProps[name]!.default;
    }
    out.required = Object.keys(properties).filter((name) => required.has(name));
  }
  return out;
}

/** Response and error schemas, in output form. */
function responseSchemas(): Record<string, Json> {
  const defs = toJsonSchemaDefs(
    {
      Assistant: assistant.AssistantSchema,
      AssistantConfig: cfg.AssistantConfigViewSchema,
      ModelCfg: cfg.ModelCfgViewSchema,
      ...CONFIG_PARTS,
      Call: call.CallSchema,
      CallAnalysis: call.CallAnalysisSchema,
      CallDetail: call.CallDetailSchema,
      TranscriptEntry: call.TranscriptEntrySchema,
      CallMetrics: call.CallMetricsSchema,
      TurnMetrics: call.TurnMetricsSchema,
      WebhookDelivery: call.WebhookDeliveryViewSchema,
      PhoneNumber: PhoneNumberSchema,
      Tool: ToolSchema,
      AssistantList: assistant.AssistantListSchema,
      DeleteResult: assistant.DeleteAssistantResultSchema,
      CallsPage: call.CallsPageSchema,
      PhoneNumberList: PhoneNumberListSchema,
      ToolList: ToolListSchema,
      OpenApiDocument: v.record(v.string(), v.unknown()),
      ValidationItem: ValidationItemSchema,
      HTTPValidationError: HttpValidationErrorSchema,
      ErrorBody: ErrorBodySchema,
    },
    { ...CONVERSION, typeMode: 'output' },
  );
  return requireDefaulted(defs) as Record<string, Json>;
}

/** One valibot schema as an inline JSON Schema (parameters and headers). */
function inline(schema: v.GenericSchema): Json {
  const { $schema: _dialect, ...json } = toJsonSchema(schema, { target: 'draft-2020-12', typeMode: 'input' }) as Json;
  return json;
}

const HEADERS: Record<string, Json> = {
  'X-API-Version': { description: 'Version of the API that answered.', schema: { type: 'string', examples: [OPENAPI_VERSION] } },
  'RateLimit-Policy': {
    description: 'IETF draft rate-limit policy: 240 requests per rolling 60 s per API key.',
    schema: { type: 'string', examples: ['"default";q=240;w=60'] },
  },
  RateLimit: {
    description: 'Requests remaining (r) and seconds until the window frees one (t).',
    schema: { type: 'string', examples: ['"default";r=239;t=60'] },
  },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
  'WWW-Authenticate': {
    description: 'RFC 6750 challenge: `Bearer realm="api"`, with `error="invalid_token"` when a key was sent but refused.',
    schema: { type: 'string', examples: ['Bearer realm="api", error="invalid_token"'] },
  },
};

const headerRefs = (...names: string[]) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
const COMMON_HEADERS = ['X-API-Version', 'RateLimit-Policy', 'RateLimit'];

function jsonResponse(description: string, schema: string, headers = COMMON_HEADERS): Json {
  return { description, headers: headerRefs(...headers), content: { 'application/json': { schema: ref(schema) } } };
}

const ERROR_RESPONSES: Record<string, Json> = {
  Unauthorized: jsonResponse('Missing or invalid API key (`unauthorized`).', 'ErrorBody', [
    'X-API-Version',
    'RateLimit-Policy',
    'WWW-Authenticate',
  ]),
  PayloadTooLarge: jsonResponse('The body is over 256 KiB (`payload_too_large`).', 'ErrorBody'),
  InsufficientMinutes: jsonResponse('The plan has no minutes left (`insufficient_minutes`).', 'ErrorBody'),
  NotFound: jsonResponse('Missing, or owned by another business (`not_found`).', 'ErrorBody'),
  IdempotencyConflict: jsonResponse('Idempotency-Key reused with a different body (`idempotency_conflict`).', 'ErrorBody'),
  ValidationFailed: jsonResponse('A parameter or field is invalid; `detail` lists each one.', 'HTTPValidationError'),
  RateLimited: jsonResponse(
    'More than 240 requests a minute on this key, or more than 20 failed authentications a minute from this address (`rate_limited`).',
    'ErrorBody',
    [...COMMON_HEADERS, 'Retry-After'],
  ),
  Internal: jsonResponse('Unexpected error (`internal`), with a request id to quote.', 'ErrorBody'),
};

/** The responses of one operation: its success, the errors it lists, and 401/429/500 always. */
function responses(success: Json, errors: Record<string, string> = {}): Json {
  const errorRefs = (statuses: Record<string, string>) =>
    Object.fromEntries(Object.entries(statuses).map(([status, name]) => [status, { $ref: `#/components/responses/${name}` }]));
  return { '200': success, ...errorRefs({ '401': 'Unauthorized', ...errors, '429': 'RateLimited', '500': 'Internal' }) };
}

function body(schema: string): Json {
  return { required: true, content: { 'application/json': { schema: ref(schema) } } };
}

function idParam(name: string): Json {
  return {
    name,
    in: 'path',
    required: true,
    description: 'Canonical decimal: digits only, no sign, spaces or leading zeros.',
    schema: inline(call.IdParamSchema),
  };
}

function queryParams(): Json[] {
  return Object.entries(call.ListCallsQuerySchema.entries).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    schema: inline(schema),
  }));
}

const NOT_FOUND = { '404': 'NotFound' };
const INVALID = { '422': 'ValidationFailed' };
/** Operations that read a JSON body also refuse one over 256 KiB. */
const BODY_ERRORS = { '413': 'PayloadTooLarge', ...INVALID };

function assistantPaths(): Json {
  const id = idParam('assistant_id');
  return {
    '/assistants': {
      get: op(
        'listAssistants',
        'Assistants',
        'List assistants, newest first.',
        responses(jsonResponse('The assistants.', 'AssistantList')),
      ),
      post: {
        ...op(
          'createAssistant',
          'Assistants',
          'Create an assistant from a template or a full config.',
          responses(jsonResponse('The new assistant.', 'Assistant'), BODY_ERRORS),
        ),
        requestBody: body('CreateAssistantBody'),
      },
    },
    '/assistants/{assistant_id}': {
      parameters: [id],
      get: op(
        'getAssistant',
        'Assistants',
        'Get one assistant.',
        responses(jsonResponse('The assistant.', 'Assistant'), { ...NOT_FOUND, ...INVALID }),
      ),
      patch: {
        ...op(
          'updateAssistant',
          'Assistants',
          'Rename an assistant and/or replace its whole config (omitted settings return to their defaults).',
          responses(jsonResponse('The updated assistant.', 'Assistant'), { ...NOT_FOUND, ...BODY_ERRORS }),
        ),
        requestBody: body('UpdateAssistantBody'),
      },
      delete: op(
        'deleteAssistant',
        'Assistants',
        'Delete an assistant; the oldest remaining one becomes the default.',
        responses(jsonResponse('Deleted.', 'DeleteResult'), { ...NOT_FOUND, ...INVALID }),
      ),
    },
  };
}

function callPaths(): Json {
  const idempotencyKey = {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description: 'Kept 24 h: the same key and body return the same call; a different body is a 409.',
    schema: inline(stringField({ min: 1, max: 255 })),
  };
  return {
    '/calls': {
      get: {
        ...op(
          'listCalls',
          'Calls',
          'List calls, newest first, one page at a time.',
          responses(jsonResponse('One page of calls.', 'CallsPage'), INVALID),
        ),
        parameters: queryParams(),
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
        parameters: [idempotencyKey],
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

function catalogPaths(): Json {
  return {
    '/phone-numbers': {
      get: op(
        'listPhoneNumbers',
        'Phone numbers',
        "List the business's phone numbers, newest first.",
        responses(jsonResponse('The phone numbers.', 'PhoneNumberList')),
      ),
    },
    '/tools': {
      get: op('listTools', 'Tools', "List the business's custom tools, newest first.", responses(jsonResponse('The tools.', 'ToolList'))),
    },
    '/openapi.json': {
      get: {
        ...op('getOpenApiDocument', 'Meta', 'This document.', {
          '200': jsonResponse('The OpenAPI 3.1 document.', 'OpenApiDocument', ['X-API-Version', 'RateLimit-Policy']),
        }),
        security: [],
      },
    },
  };
}

function op(operationId: string, tag: string, summary: string, operationResponses: Json): Json {
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
      description: "Build voice agents (assistants), run them on phone numbers, and read each call's transcript, analysis and metrics.",
    },
    servers: [{ url: '/api/v1' }],
    security: [{ bearerAuth: [] }],
    tags: ['Assistants', 'Calls', 'Phone numbers', 'Tools', 'Meta'].map((name) => ({ name })),
    paths: { ...assistantPaths(), ...callPaths(), ...catalogPaths() },
    components: {
      schemas: { ...requestSchemas(), ...responseSchemas() },
      responses: ERROR_RESPONSES,
      headers: HEADERS,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer vk_live_…` (or `vk_test_…`).' },
      },
    },
  };
}
