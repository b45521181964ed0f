import type * as v from 'valibot';
import { body, cursorListParameters, idParam, jsonResponse, op, responses } from './openapi';
import { CreateToolBodySchema, DeleteToolResultSchema, ToolListSchema, ToolSchema, UpdateToolBodySchema } from './tool';

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

/** Response bodies (output form). */
export function toolResponseSchemas(): Record<string, v.GenericSchema> {
  return { Tool: ToolSchema, ToolList: ToolListSchema, DeleteToolResult: DeleteToolResultSchema };
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
const BODY_ERRORS = { '413': 'PayloadTooLarge', ...INVALID };

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
          'Create a custom tool: `parameters` must be a valid JSON Schema (draft 2020-12) object, `server_url` a public https URL.',
          responses(jsonResponse('The new tool.', 'Tool'), BODY_ERRORS),
        ),
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
