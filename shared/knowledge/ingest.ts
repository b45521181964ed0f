import type { KnowledgeRepository } from '../db/knowledge-repository';
import type { FinishResult } from '../db/knowledge-document-repository';
import { KNOWLEDGE_LIMITS, parseIngestJob, overPassageLimitReason, type KnowledgeDocument } from '../domain/knowledge';
import type { Logger } from '../log';
import { guardedFetch, RequestTimeoutError } from '../security/guarded-fetch';
import { BlockedUrlError, type LookupAll, type UrlPolicy } from '../security/ssrf';
import { ChunksTooLargeError } from '../db/knowledge-chunk-pages';
import { chunkSearchText } from './chunker';
import type { Embedder } from './embeddings';
import { documentKind, UnsupportedDocumentError } from './document-kind';
import type { DocumentSource, ParsedDocument } from './extract';
import { documentNoun, fetchFailureReason, unreadableReason } from './failure-reasons';
import { ParseLimitError, UnreadableDocumentError, WorkerDocumentParser, type DocumentParser } from './worker-parser';

/** What the ingestion handler needs (the Lambda and the local stack build the same). */
export interface IngestDeps {
  knowledge: KnowledgeRepository;
  embedder: Embedder;
  urlPolicy: UrlPolicy;
  now: () => Date;
  log: Logger;
  /** Resolver for the SSRF guard (tests). */
  lookup?: LookupAll;
  /**
   * Where documents are read and chunked, away from this thread; default: the process's one
   * {@link WorkerDocumentParser} with `PARSE_LIMITS` (tests pass a short deadline or a hostile reader).
   */
  parser?: DocumentParser;
}

let processParser: DocumentParser | undefined;

/** A reason a document failed that the business can act on (shown as `failure_reason`). */
class DocumentFailure extends Error {}

/** Fetches a URL document once through the SSRF guard: bounded bytes and time, no redirects. */
async function fetchDocument(url: string, deps: IngestDeps): Promise<DocumentSource> {
  let response;
  try {
    response = await guardedFetch(
      url,
      {
        method: 'GET',
        headers: { accept: 'text/html, application/pdf, text/plain;q=0.9, */*;q=0.1', 'user-agent': 'voice-agent-knowledge/1' },
      },
      {
        allowPrivate: deps.urlPolicy.allowPrivate,
        requireHttps: deps.urlPolicy.requireHttps,
        timeoutMs: KNOWLEDGE_LIMITS.fetchTimeoutMs,
        maxBodyBytes: KNOWLEDGE_LIMITS.fetchBytes + 1,
        ...(deps.lookup && { lookup: deps.lookup }),
      },
    );
  } catch (error) {
    if (error instanceof BlockedUrlError) throw new DocumentFailure(`the URL was refused: ${error.shownReason}`);
    if (error instanceof RequestTimeoutError)
      throw new DocumentFailure(`the URL did not answer within ${KNOWLEDGE_LIMITS.fetchTimeoutMs / 1000} s`);
    deps.log.info('knowledge ingestion: the URL could not be fetched', { error: String(error) });
    throw new DocumentFailure(fetchFailureReason(error));
  }
  if (response.status >= 300 && response.status < 400)
    throw new DocumentFailure(`the URL answered with a redirect (${response.status}); give the final URL`);
  if (response.status !== 200) throw new DocumentFailure(`the URL answered ${response.status}`);
  const bytes = response.bodyBytes ?? Buffer.from(response.bodyText, 'utf8');
  if (response.bodyTruncated || bytes.length > KNOWLEDGE_LIMITS.fetchBytes)
    throw new DocumentFailure(`the document is larger than ${KNOWLEDGE_LIMITS.fetchBytes / 1024 / 1024} MiB`);
  try {
    return { kind: documentKind(response.headers['content-type'] ?? '', bytes), bytes };
  } catch (error) {
    if (error instanceof UnsupportedDocumentError) throw new DocumentFailure(error.message);
    throw error;
  }
}

/**
 * Reads a document into chunks in the parse worker. A parse past its deadline or memory cap, or
 * one that kills its worker, fails the document alone ("the page took longer than 20 s to read");
 * a worker that cannot start is ours to retry.
 */
async function parseDocument(source: DocumentSource, deps: IngestDeps): Promise<ParsedDocument> {
  try {
    return await (deps.parser ?? (processParser ??= new WorkerDocumentParser())).parse(source);
  } catch (error) {
    if (error instanceof ParseLimitError) throw new DocumentFailure(stoppedReason(documentNoun(source.kind), error));
    if (error instanceof UnreadableDocumentError) {
      deps.log.info('knowledge ingestion: the reader threw', { kind: source.kind, error: error.message.slice(0, 500) });
      throw new DocumentFailure(unreadableReason(source.kind, error.message));
    }
    throw error;
  }
}

/** The `failure_reason` of a parse stopped from outside ("the PDF needed more than 256 MB to read"). */
function stoppedReason(noun: string, error: ParseLimitError): string {
  if (error.limit === 'time') return `the ${noun} took ${error.message} to read`;
  if (error.limit === 'memory') return `the ${noun} needed ${error.message} to read`;
  // A crash's message is the worker's own error (it may name our files): not shown.
  return `the ${noun} could not be read (the reader stopped)`;
}

/**
 * Ingests one document (the queue's consumer; docs/design.md "Knowledge bases"): reads its text (the stored source,
 * or the URL fetched once) and chunks it by structure, both in the parse worker; embeds the chunks,
 * stores chunks and vectors, and marks it ready (the base's version grows, so loaded indexes reload) or failed with a reason.
 * Idempotent: a document no longer `processing` is left alone, so a redelivered message is harmless.
 * Throws only for our own failures (DynamoDB, the embeddings API), so the queue retries them.
 */
export async function ingestDocument(body: string, deps: IngestDeps): Promise<void> {
  const job = parseIngestJob(body);
  if (!job) return deps.log.error('knowledge ingestion: a malformed message was dropped');
  const { business_id: businessId, knowledge_base_id: kbId, document_id: docId } = job;
  const doc = await deps.knowledge.findDocument(businessId, kbId, docId);
  if (!doc || doc.status !== 'processing') return;
  const log = deps.log.child({ business_id: businessId, knowledge_base_id: kbId, document_id: docId });
  let parsed: ParsedDocument;
  try {
    const source: DocumentSource =
      doc.url !== null
        ? await fetchDocument(doc.url, deps)
        : { kind: 'text', text: (await deps.knowledge.readSource(businessId, kbId, docId)) ?? '' };
    parsed = await parseDocument(source, deps);
  } catch (error) {
    if (!(error instanceof DocumentFailure)) throw error;
    log.info(`knowledge ingestion: document failed: ${error.message}`);
    await finish(businessId, doc, failed(error.message), deps);
    return;
  }
  const { chunks, characters, truncated } = parsed;
  if (chunks.length === 0) {
    await finish(businessId, doc, failed('the document has no text to search'), deps);
    return;
  }
  // A base already too full is told so before the embeddings are paid for; the count at the finish
  // stays the exact check (documents finishing at once).
  const held = (await deps.knowledge.findBase(businessId, kbId))?.chunks;
  if (held !== undefined && held + chunks.length > KNOWLEDGE_LIMITS.chunksPerBase) {
    await finish(businessId, doc, failed(overPassageLimitReason(held, chunks.length)), deps);
    return;
  }
  const started = performance.now();
  const vectors = await deps.embedder.embed(chunks.map(chunkSearchText));
  await deps.knowledge.deleteChunks(businessId, kbId, docId);
  try {
    await deps.knowledge.putChunks(businessId, kbId, docId, chunks, vectors, deps.embedder.dimensions);
  } catch (error) {
    if (!(error instanceof ChunksTooLargeError)) throw error;
    // Not ours to retry: the same chunks would be refused again (knowledge-chunk-pages.ts).
    log.error('knowledge ingestion: DynamoDB refused a chunk page as too large', { chunks: chunks.length });
    await deps.knowledge.deleteChunks(businessId, kbId, docId);
    await finish(businessId, doc, failed('the document could not be stored (a passage is too large)'), deps);
    return;
  }
  const result = await finishReady(businessId, doc, { chunk_count: chunks.length, characters, truncated }, deps);
  log.info(`knowledge ingestion: document ${result}`, {
    chunks: chunks.length,
    characters,
    truncated,
    ms: Math.round(performance.now() - started),
  });
}

/**
 * Marks a document whose chunks are stored ready, within its base's passage limit. Past it, the
 * document ends `failed` with how full the base is, and its chunks go (search never saw them: it
 * reads only documents listed `ready`). Chunks of a document deleted meanwhile go too; those of
 * a document another delivery finished go unless that one made it ready (same chunks, same keys).
 */
async function finishReady(
  businessId: number,
  doc: KnowledgeDocument,
  read: Pick<KnowledgeDocument, 'chunk_count' | 'characters' | 'truncated'>,
  deps: IngestDeps,
): Promise<'ready' | 'failed' | 'gone' | 'already finished'> {
  const kbId = doc.knowledge_base_id;
  const result = await finish(businessId, doc, { status: 'ready', failure_reason: null, ...read }, deps);
  if (result.kind === 'finished') return 'ready';
  if (result.kind === 'already-finished') {
    const now = await deps.knowledge.findDocument(businessId, kbId, doc.id, true);
    if (now?.status !== 'ready') await deps.knowledge.deleteChunks(businessId, kbId, doc.id);
    return 'already finished';
  }
  if (result.kind === 'over-limit') await finish(businessId, doc, failed(overPassageLimitReason(result.held, read.chunk_count)), deps);
  await deps.knowledge.deleteChunks(businessId, kbId, doc.id);
  return result.kind === 'over-limit' ? 'failed' : 'gone';
}

/** How a document's ingestion ends, but the time. */
type Ending = Pick<KnowledgeDocument, 'failure_reason' | 'chunk_count' | 'characters' | 'truncated'> & { status: 'ready' | 'failed' };

/** A failed ending: nothing of the document is kept, so nothing of it is cut either. */
function failed(reason: string): Ending {
  return { status: 'failed', failure_reason: reason, chunk_count: 0, characters: 0, truncated: false };
}

async function finish(businessId: number, doc: KnowledgeDocument, ending: Ending, deps: IngestDeps): Promise<FinishResult> {
  return deps.knowledge.finishDocument(businessId, doc, { ...ending, updated_at: deps.now().toISOString() });
}
