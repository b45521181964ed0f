import * as v from 'valibot';
import { ValidationError } from '../errors';
import { cursorPageSchema } from './paging';
import { idField, intField, numberField, readOnlyEcho, strictDict, stringField, timestampField } from './validation';
import { boundedInput, parseWith } from './validation-errors';

/**
 * Bounds of knowledge bases (docs/design.md "Knowledge bases"). A text document's source is kept in one
 * DynamoDB item until it is ingested, so its cap (60,000 characters, at most 180 KB of UTF-8)
 * stays well under the 400 KB item limit and the API's 256 KiB body.
 */
export const KNOWLEDGE_LIMITS = {
  nameChars: 100,
  descriptionChars: 1000,
  basesPerBusiness: 50,
  documentsPerBase: 100,
  textChars: 60_000,
  urlChars: 2000,
  /** A fetched page or PDF: bytes read at most, and the whole fetch's time budget. */
  fetchBytes: 5 * 1024 * 1024,
  fetchTimeoutMs: 15_000,
  /**
   * How long reading one PDF's text may take before what was read so far is kept (the rest is
   * cut; shared/knowledge/extract.ts `PDF_READ_BUDGET_MS`).
   */
  pdfReadMs: 15_000,
  /** Text kept from one document after extraction (the rest is cut, the document says so). */
  extractedChars: 500_000,
  chunksPerDocument: 2000,
  /**
   * Passages (chunks) a base holds across its ready documents, since every process that searches
   * a base holds all of it: ~60 MiB loaded and search p95 ~21 ms at the cap (docs/performance.md
   * "Knowledge bases"); 100 documents of a 20-page PDF (~75 passages each) fit.
   */
  chunksPerBase: 10_000,
  queryChars: 500,
  topK: { default: 3, max: 10 },
} as const;

export const DOCUMENT_STATUSES = ['processing', 'ready', 'failed'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

const nameField = () => stringField({ min: 1, max: KNOWLEDGE_LIMITS.nameChars });
const descriptionField = () => stringField({ max: KNOWLEDGE_LIMITS.descriptionChars, lines: true });

/** A knowledge base: a named set of the business's documents an assistant answers from. */
export const KnowledgeBaseSchema = strictDict({
  id: idField(),
  name: v.string(),
  description: v.string(),
  created_at: timestampField(),
  updated_at: timestampField(),
});
export type KnowledgeBase = v.InferOutput<typeof KnowledgeBaseSchema>;

export const KnowledgeBaseListSchema = cursorPageSchema(KnowledgeBaseSchema);
export const DeleteKnowledgeResultSchema = strictDict({ id: idField(), deleted: v.literal(true) });

/** A document of a knowledge base, with where its ingestion is. */
export const KnowledgeDocumentSchema = strictDict({
  id: idField(),
  knowledge_base_id: idField(),
  name: v.string(),
  source: v.picklist(['text', 'url']),
  url: v.pipe(v.nullable(v.string()), v.metadata({ description: 'The page or PDF fetched once (source `url`); null for text.' })),
  status: v.pipe(
    v.picklist(DOCUMENT_STATUSES),
    v.metadata({ description: 'processing: queued or being ingested; ready: searchable; failed: see failure_reason.' }),
  ),
  failure_reason: v.nullable(v.string()),
  chunk_count: intField({ ge: 0 }),
  characters: v.pipe(
    intField({ ge: 0 }),
    v.metadata({
      description:
        `Characters of text read from the document, at most ${KNOWLEDGE_LIMITS.extractedChars.toLocaleString('en-US')} (0 until ready); ` +
        `past ${KNOWLEDGE_LIMITS.chunksPerDocument.toLocaleString('en-US')} passages it counts text that is not searchable (see truncated).`,
    }),
  ),
  truncated: v.pipe(
    v.boolean(),
    v.metadata({
      description:
        `true when the document is ready but only its beginning is searchable: its text passed ${KNOWLEDGE_LIMITS.extractedChars.toLocaleString('en-US')} ` +
        `characters or its passages passed ${KNOWLEDGE_LIMITS.chunksPerDocument.toLocaleString('en-US')} (or a PDF was still being read at ${KNOWLEDGE_LIMITS.pdfReadMs / 1000} s), ` +
        'and the rest was left out; split such a document. false otherwise (processing, failed, or whole).',
    }),
  ),
  created_at: timestampField(),
  updated_at: timestampField(),
});
export type KnowledgeDocument = v.InferOutput<typeof KnowledgeDocumentSchema>;

/**
 * The `failure_reason` of a document whose passages would take its base past `chunksPerBase`
 * (it has `held` already; the document has `adding`).
 */
export function overPassageLimitReason(held: number, adding: number): string {
  const n = (value: number) => value.toLocaleString('en-US');
  return (
    `the knowledge base would hold more than ${n(KNOWLEDGE_LIMITS.chunksPerBase)} passages (it has ${n(held)}; ` +
    `this document has ${n(adding)}); split the document across knowledge bases or remove documents`
  );
}

/** A document as saved before ingestion: `processing`, no chunks yet. */
export function processingDocument(fields: {
  id: number;
  knowledgeBaseId: number;
  name: string;
  url: string | null;
  now: string;
}): KnowledgeDocument {
  return {
    id: fields.id,
    knowledge_base_id: fields.knowledgeBaseId,
    name: fields.name,
    source: fields.url !== null ? 'url' : 'text',
    url: fields.url,
    status: 'processing',
    failure_reason: null,
    chunk_count: 0,
    characters: 0,
    truncated: false,
    created_at: fields.now,
    updated_at: fields.now,
  };
}

export const KnowledgeDocumentListSchema = cursorPageSchema(KnowledgeDocumentSchema);

/** One passage found, as the assistant would get it. */
export const KnowledgeHitSchema = strictDict({
  document_id: idField(),
  document_name: v.string(),
  text: v.string(),
  score: v.pipe(numberField({ ge: 0, le: 1 }), v.metadata({ description: 'Relevance, 0-1 (keyword and vector combined).' })),
});
export type KnowledgeHit = v.InferOutput<typeof KnowledgeHitSchema>;

export const KnowledgeSearchResultSchema = strictDict({ data: v.array(KnowledgeHitSchema) });

const echoed = { id: readOnlyEcho(), created_at: readOnlyEcho(), updated_at: readOnlyEcho() };

export const CreateKnowledgeBaseBodySchema = strictDict({
  ...echoed,
  name: nameField(),
  description: v.optional(descriptionField(), ''),
});

export const UpdateKnowledgeBaseBodySchema = strictDict({
  ...echoed,
  name: v.optional(nameField()),
  description: v.optional(
    v.pipe(v.nullable(descriptionField()), v.metadata({ description: 'The new description; `null` (or `""`) clears it.' })),
  ),
});

/** POST /knowledge-bases/{id}/documents: exactly one of `text` and `url` (checked in `parseCreateDocumentBody`). */
export const CreateDocumentBodySchema = strictDict({
  name: nameField(),
  text: v.optional(
    v.pipe(
      stringField({ min: 1, max: KNOWLEDGE_LIMITS.textChars, lines: true }),
      v.metadata({ description: `Plain text or Markdown, up to ${KNOWLEDGE_LIMITS.textChars} characters.` }),
    ),
  ),
  url: v.optional(
    v.pipe(
      stringField({ min: 1, max: KNOWLEDGE_LIMITS.urlChars }),
      v.metadata({
        description: `A public web page (HTML) or PDF, fetched once (at most ${KNOWLEDGE_LIMITS.fetchBytes / 1024 / 1024} MiB, ${KNOWLEDGE_LIMITS.fetchTimeoutMs / 1000} s).`,
      }),
    ),
  ),
});

export const SearchKnowledgeBodySchema = strictDict({
  query: stringField({ min: 1, max: KNOWLEDGE_LIMITS.queryChars, lines: true }),
  top_k: v.optional(intField({ ge: 1, le: KNOWLEDGE_LIMITS.topK.max }), KNOWLEDGE_LIMITS.topK.default),
});

export type CreateKnowledgeBaseInput = { name: string; description: string };
export type UpdateKnowledgeBaseInput = Partial<CreateKnowledgeBaseInput>;
export type CreateDocumentInput = { name: string; text?: string; url?: string };
export type SearchKnowledgeInput = v.InferOutput<typeof SearchKnowledgeBodySchema>;

export function parseCreateKnowledgeBaseBody(input: unknown): CreateKnowledgeBaseInput {
  const { name, description } = parseWith(CreateKnowledgeBaseBodySchema, input, ['body']);
  return { name, description };
}

export function parseUpdateKnowledgeBaseBody(input: unknown): UpdateKnowledgeBaseInput {
  const { name, description } = parseWith(UpdateKnowledgeBaseBodySchema, input, ['body']);
  return { ...(name !== undefined && { name }), ...(description !== undefined && { description: description ?? '' }) };
}

export function parseCreateDocumentBody(input: unknown): CreateDocumentInput {
  const { name, text, url } = parseWith(CreateDocumentBodySchema, input, ['body']);
  if ((text === undefined) === (url === undefined))
    throw new ValidationError([
      { loc: ['body'], msg: 'Value error, give exactly one of text and url', type: 'value_error', input: boundedInput(input) },
    ]);
  return { name, ...(text !== undefined && { text }), ...(url !== undefined && { url }) };
}

export function parseSearchKnowledgeBody(input: unknown): SearchKnowledgeInput {
  return parseWith(SearchKnowledgeBodySchema, input, ['body']);
}

/** The SQS message that asks the ingestion function to process one document. */
export const IngestJobSchema = v.strictObject({
  business_id: idField(),
  knowledge_base_id: idField(),
  document_id: idField(),
});
export type IngestJob = v.InferOutput<typeof IngestJobSchema>;

/** An ingestion message's job, or undefined when the body is not one (not JSON, or another shape). */
export function parseIngestJob(body: string): IngestJob | undefined {
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return undefined;
  }
  const job = v.safeParse(IngestJobSchema, message);
  return job.success ? job.output : undefined;
}

/**
 * One passage of a document, with the heading it sits under: what the chunker makes, the
 * repository stores and search returns (here so shared/db need not import the knowledge pipeline).
 */
export interface Chunk {
  heading: string;
  text: string;
}
