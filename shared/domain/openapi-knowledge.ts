import type * as v from 'valibot';
import {
  CreateDocumentBodySchema,
  CreateKnowledgeBaseBodySchema,
  DeleteKnowledgeResultSchema,
  KNOWLEDGE_LIMITS,
  KnowledgeBaseListSchema,
  KnowledgeBaseSchema,
  KnowledgeDocumentListSchema,
  KnowledgeDocumentSchema,
  KnowledgeSearchResultSchema,
  SearchKnowledgeBodySchema,
  UpdateKnowledgeBaseBodySchema,
} from './knowledge';
import { BODY_ERRORS, body, idParam, idempotencyKeyParam, jsonResponse, op, responses } from './openapi-operations';
import { cursorListParameters } from './openapi-paging';
import { DEFAULT_QUOTAS } from './quota';

type Json = Record<string, unknown>;

/** The OpenAPI entries of knowledge bases (/knowledge-bases); functions only, called while the document is built. */

export const KNOWLEDGE_TAGS: Record<string, string> = {
  KnowledgeBases:
    "Knowledge bases: the business's documents (text, Markdown, web pages, PDFs) an assistant answers from during a call " +
    '(attach them with `config.knowledge_ids`; `builtin.knowledge` offers the `search_knowledge` tool).',
};

export function knowledgeRequestSchemas(): Record<string, v.GenericSchema> {
  return {
    CreateKnowledgeBaseBody: CreateKnowledgeBaseBodySchema,
    UpdateKnowledgeBaseBody: UpdateKnowledgeBaseBodySchema,
    CreateDocumentBody: CreateDocumentBodySchema,
    SearchKnowledgeBody: SearchKnowledgeBodySchema,
  };
}

export function knowledgeResponseSchemas(): Record<string, v.GenericSchema> {
  return {
    KnowledgeBase: KnowledgeBaseSchema,
    KnowledgeBaseList: KnowledgeBaseListSchema,
    KnowledgeDocument: KnowledgeDocumentSchema,
    KnowledgeDocumentList: KnowledgeDocumentListSchema,
    KnowledgeSearchResult: KnowledgeSearchResultSchema,
    DeleteKnowledgeResult: DeleteKnowledgeResultSchema,
  };
}

export function knowledgeErrorResponses(): Record<string, Json> {
  return {
    KnowledgeBaseInUse: jsonResponse(
      "Assistants' `knowledge_ids` still name the knowledge base (`knowledge_base_in_use`); the detail lists them.",
      'ErrorBody',
    ),
    SearchUnavailable: jsonResponse('The embeddings service did not answer (`search_unavailable`); retry shortly.', 'ErrorBody'),
    IngestionUnavailable: jsonResponse(
      'The document could not be queued for ingestion (`ingestion_unavailable`); nothing was kept; retry shortly.',
      'ErrorBody',
    ),
  };
}

const NOT_FOUND = { '404': 'NotFound' };
const INVALID = { '422': 'ValidationFailed' };
const TAG = 'KnowledgeBases';

export function knowledgePaths(): Json {
  const kbParam = idParam('knowledge_base_id');
  const docParam = idParam('document_id');
  return {
    '/knowledge-bases': {
      get: {
        ...op(
          'listKnowledgeBases',
          TAG,
          "List the business's knowledge bases, newest first, one page at a time.",
          responses(jsonResponse('One page of bases.', 'KnowledgeBaseList'), { '422': 'ValidationFailed' }),
        ),
        parameters: cursorListParameters(),
      },
      post: {
        ...op(
          'createKnowledgeBase',
          TAG,
          `Create a knowledge base (at most the business's \`knowledge_bases\` quota, default ${DEFAULT_QUOTAS.knowledge_bases}).`,
          responses(jsonResponse('The new base.', 'KnowledgeBase'), { '409': 'CreateConflict', ...BODY_ERRORS }),
        ),
        parameters: [idempotencyKeyParam()],
        requestBody: body('CreateKnowledgeBaseBody'),
      },
    },
    '/knowledge-bases/{knowledge_base_id}': {
      parameters: [kbParam],
      get: op(
        'getKnowledgeBase',
        TAG,
        'Get one knowledge base.',
        responses(jsonResponse('The base.', 'KnowledgeBase'), { ...NOT_FOUND, ...INVALID }),
      ),
      patch: {
        ...op(
          'updateKnowledgeBase',
          TAG,
          'Rename or redescribe a knowledge base.',
          responses(jsonResponse('The updated base.', 'KnowledgeBase'), { ...NOT_FOUND, ...BODY_ERRORS }),
        ),
        requestBody: body('UpdateKnowledgeBaseBody'),
      },
      delete: op(
        'deleteKnowledgeBase',
        TAG,
        "Delete a knowledge base with its documents; refused (409 `knowledge_base_in_use`) while an assistant's `knowledge_ids` names it.",
        responses(jsonResponse('Deleted.', 'DeleteKnowledgeResult'), { ...NOT_FOUND, '409': 'KnowledgeBaseInUse', ...INVALID }),
      ),
    },
    '/knowledge-bases/{knowledge_base_id}/documents': {
      parameters: [kbParam],
      get: {
        ...op(
          'listKnowledgeDocuments',
          TAG,
          'List the documents of a knowledge base, oldest first, with their status, one page at a time.',
          responses(jsonResponse('One page of documents.', 'KnowledgeDocumentList'), { ...NOT_FOUND, ...INVALID }),
        ),
        parameters: cursorListParameters(),
      },
      post: {
        ...op(
          'addKnowledgeDocument',
          TAG,
          'Add a document: `text` (plain text or Markdown) or `url` (a public web page or PDF, fetched once). ' +
            'It is returned `processing`; ingestion runs in the background and ends `ready` or `failed` with a reason. ' +
            `At most the business's \`documents\` quota of documents per base (default ${DEFAULT_QUOTAS.documents}; a failed one does not count), and ${KNOWLEDGE_LIMITS.chunksPerBase.toLocaleString('en-US')} passages ` +
            '(`chunk_count`) across its ready documents: a document that would pass that ends `failed`, its reason saying how full the base is. ' +
            `A document keeps its first ${KNOWLEDGE_LIMITS.extractedChars.toLocaleString('en-US')} characters and ${KNOWLEDGE_LIMITS.chunksPerDocument.toLocaleString('en-US')} passages: ` +
            'past those it still ends `ready`, with `truncated` true, and the rest is not searchable.',
          responses(jsonResponse('The document, processing.', 'KnowledgeDocument'), {
            ...NOT_FOUND,
            '409': 'CreateConflict',
            ...BODY_ERRORS,
            '503': 'IngestionUnavailable',
          }),
        ),
        parameters: [idempotencyKeyParam()],
        requestBody: body('CreateDocumentBody'),
      },
    },
    '/knowledge-bases/{knowledge_base_id}/documents/{document_id}': {
      parameters: [kbParam, docParam],
      get: op(
        'getKnowledgeDocument',
        TAG,
        'Get one document and its ingestion status.',
        responses(jsonResponse('The document.', 'KnowledgeDocument'), { ...NOT_FOUND, ...INVALID }),
      ),
      delete: op(
        'deleteKnowledgeDocument',
        TAG,
        'Delete a document and its passages; calls starting afterwards no longer find them.',
        responses(jsonResponse('Deleted.', 'DeleteKnowledgeResult'), { ...NOT_FOUND, ...INVALID }),
      ),
    },
    '/knowledge-bases/{knowledge_base_id}/search': {
      parameters: [kbParam],
      post: {
        ...op(
          'searchKnowledgeBase',
          TAG,
          'Search a knowledge base as the assistant would (keyword and vector, combined): the passages found, best first.',
          responses(jsonResponse('The passages.', 'KnowledgeSearchResult'), { ...NOT_FOUND, ...BODY_ERRORS, '503': 'SearchUnavailable' }),
        ),
        requestBody: body('SearchKnowledgeBody'),
      },
    },
  };
}
