import * as assistant from './assistant';
import { COMMON_HEADERS } from './openapi-headers';
import {
  BODY_ERRORS,
  body,
  idParam,
  idempotencyKeyParam,
  INVALID,
  jsonResponse,
  NOT_FOUND,
  op,
  queryParams,
  ref,
  responses,
  type Json,
} from './openapi-operations';
import { BYTE_BUDGET, CURSOR, offsetText } from './openapi-paging';
import { DEFAULT_QUOTAS } from './quota';

/** The OpenAPI paths of assistants (/assistants): versioned with ETag and If-Match; functions only, called while the document is built. */

const ASSISTANT_PAGE_PARAMS = {
  limit: `At most this many assistants (default and maximum ${assistant.MAX_ASSISTANTS_PAGE}). ${BYTE_BUDGET}`,
  offset: offsetText('Assistants to skip, newest first'),
  cursor: CURSOR,
};

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

export function assistantPaths(): Json {
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
