import type * as v from 'valibot';
import { BODY_ERRORS, body, idParam, idempotencyKeyParam, jsonResponse, op, responses } from './openapi-operations';
import { cursorListParameters } from './openapi-paging';
import {
  CreateToolBodySchema,
  DeleteToolResultSchema,
  TOOL_REPLY_LIMITS,
  TOOL_TIMEOUT_MS,
  ToolListSchema,
  ToolSchema,
  UpdateToolBodySchema,
} from './tool';
import { ToolCallEventSchema } from './tool-call-event';
import { DEFAULT_QUOTAS } from './quota';

type Json = Record<string, unknown>;

/**
 * The OpenAPI entries of custom tools (/tools): paths, schemas and the 409 a delete can give.
 * Functions only, called while the document is built (the import cycle with `openapi.ts` is harmless).
 */

/** The tag of these operations. */
export const TOOL_TAGS: Record<string, string> = {
  Tools:
    "Custom tools: functions an assistant calls on the business's own server during a call (a signed POST; " +
    'attach them with `config.tool_ids`).',
};

/** Request bodies (input form). */
export function toolRequestSchemas(): Record<string, v.GenericSchema> {
  return { CreateToolBody: CreateToolBodySchema, UpdateToolBody: UpdateToolBodySchema };
}

/** Response bodies, and the body of the request the platform sends to a tool's server (output form). */
export function toolResponseSchemas(): Record<string, v.GenericSchema> {
  return { Tool: ToolSchema, ToolList: ToolListSchema, DeleteToolResult: DeleteToolResultSchema, ToolCallEvent: ToolCallEventSchema };
}

/** The `webhook-id` of a tool call: unlike a webhook's, unique per request, since a tool call is never retried. */
export const TOOL_CALL_PARAMETERS: Record<string, Json> = {
  ToolCallId: {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description:
      "Unique per request (`tool_<call id>_<tool id>_<n>`, n counting this tool's calls on this call): a tool call is never retried.",
    schema: { type: 'string', minLength: 1, maxLength: 255, examples: ['tool_40_57_1'] },
  },
};

/**
 * The document's `webhooks` entry `tool.call`: what the platform POSTs to a custom tool's
 * `server_url` when the model calls it (media-service/src/tools/custom-tools.ts), and what it
 * makes of the answer, so a receiver generates its types from the same document as a client.
 */
export function toolWebhooks(): Json {
  return {
    'tool.call': {
      post: {
        operationId: 'toolCallWebhook',
        tags: ['Tools'],
        summary: "`tool.call`, to a custom tool's `server_url`",
        description:
          "Sent when the assistant's model calls one of its custom tools (`config.tool_ids`), signed per Standard Webhooks with the business's `whsec_…` secret, like webhooks. " +
          `The answer must come within the tool's \`timeout_ms\` (${TOOL_TIMEOUT_MS.min}–${TOOL_TIMEOUT_MS.max} ms, default ${TOOL_TIMEOUT_MS.default}); redirects are never followed; at most ${TOOL_REPLY_LIMITS.bytes / 1024} KiB of it is read.`,
        security: [],
        parameters: [
          { $ref: '#/components/parameters/ToolCallId' },
          { $ref: '#/components/parameters/WebhookTimestamp' },
          { $ref: '#/components/parameters/WebhookSignature' },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ToolCallEvent' } } } },
        responses: {
          '2XX': {
            description:
              "The tool's result, given to the model: a JSON object as it is, any other JSON or plain text under `result`. " +
              `Up to ${TOOL_REPLY_LIMITS.chars.toLocaleString('en-US')} characters reach the model; a longer reply is cut and the model told so.`,
            content: {
              'application/json': { schema: { description: 'Any JSON; an object is what the model reads best.' } },
              'text/plain': { schema: { type: 'string' } },
            },
          },
          default: {
            description:
              'Any other status, a redirect, no answer in time or an unreachable server: the model hears that the tool did not work and tells the caller. Never retried.',
          },
        },
      },
    },
  };
}

/** Responses only these operations give. */
export function toolErrorResponses(): Record<string, Json> {
  return {
    ToolInUse: jsonResponse("Assistants' `tool_ids` still name the tool (`tool_in_use`); the detail lists them.", 'ErrorBody'),
    ToolConflict: jsonResponse('The tool changed meanwhile (`conflict`): read it again and retry.', 'ErrorBody'),
  };
}

const NOT_FOUND = { '404': 'NotFound' };
const INVALID = { '422': 'ValidationFailed' };

/** /tools and /tools/{tool_id}. */
export function toolPaths(): Json {
  return {
    '/tools': {
      get: {
        ...op(
          'listTools',
          'Tools',
          "List the business's custom tools, newest first, one page at a time.",
          responses(jsonResponse('One page of tools.', 'ToolList'), { '422': 'ValidationFailed' }),
        ),
        parameters: cursorListParameters(),
      },
      post: {
        ...op(
          'createTool',
          'Tools',
          'Create a custom tool: `parameters` must be a valid JSON Schema (draft 2020-12) object, `server_url` a public https URL. ' +
            `At most the business's \`tools\` quota (default ${DEFAULT_QUOTAS.tools}).`,
          responses(jsonResponse('The new tool.', 'Tool'), { '409': 'CreateConflict', ...BODY_ERRORS }),
        ),
        parameters: [idempotencyKeyParam()],
        requestBody: body('CreateToolBody'),
      },
    },
    '/tools/{tool_id}': {
      parameters: [idParam('tool_id')],
      get: op('getTool', 'Tools', 'Get one custom tool.', responses(jsonResponse('The tool.', 'Tool'), { ...NOT_FOUND, ...INVALID })),
      patch: {
        ...op(
          'updateTool',
          'Tools',
          'Change a custom tool: the fields given replace theirs; calls starting afterwards use the new version.',
          responses(jsonResponse('The updated tool.', 'Tool'), { ...NOT_FOUND, '409': 'ToolConflict', ...BODY_ERRORS }),
        ),
        requestBody: body('UpdateToolBody'),
      },
      delete: op(
        'deleteTool',
        'Tools',
        "Delete a custom tool; refused (409 `tool_in_use`) while an assistant's `tool_ids` names it.",
        responses(jsonResponse('Deleted.', 'DeleteToolResult'), { ...NOT_FOUND, '409': 'ToolInUse', ...INVALID }),
      ),
    },
  };
}
