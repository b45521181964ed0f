import { isDeepStrictEqual } from 'node:util';
import type { IdAllocator } from '../db/ids';
import { ResourceInUseError } from '../db/references';
import type { KnowledgeBaseRecord, KnowledgeRepository } from '../db/knowledge-repository';
import {
  parseCreateDocumentBody,
  parseCreateKnowledgeBaseBody,
  parseSearchKnowledgeBody,
  parseUpdateKnowledgeBaseBody,
  type KnowledgeBase,
  processingDocument,
  type KnowledgeDocument,
  type KnowledgeHit,
} from '../domain/knowledge';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../errors';
import type { IngestQueue } from '../queue/knowledge-ingest';
import type { KnowledgeSearcher } from '../knowledge/index-cache';
import { checkUrlSyntax, urlValidationItem, type UrlPolicy } from '../security/ssrf';
import type { PageCursors } from '../db/page-cursor';
import { parseCursorListQuery } from '../domain/paging';
import { listPage, openCursor, type ListPage } from './list-page';

/** What the knowledge-base use cases need; built once per process by the composition root. */
export interface KnowledgeServiceDeps {
  knowledge: KnowledgeRepository;
  ids: Pick<IdAllocator, 'nextId'>;
  urlPolicy: UrlPolicy;
  queue: IngestQueue;
  searcher: KnowledgeSearcher;
  now: () => Date;
  /** Signs and opens the list's cursors. */
  cursors: PageCursors;
}

/** A knowledge base still named by assistants' `knowledge_ids`: deleting it is refused (docs/decisions.md). */
export class KnowledgeBaseInUseError extends ConflictError {
  constructor(
    kbId: number,
    readonly assistantIds: number[],
  ) {
    super(
      'knowledge_base_in_use',
      `Knowledge base ${kbId} is in the knowledge_ids of assistant${assistantIds.length === 1 ? '' : 's'} ${assistantIds.join(', ')}; ` +
        'remove it from their config first.',
    );
    this.name = 'KnowledgeBaseInUseError';
  }
}

const toView = (record: KnowledgeBaseRecord): KnowledgeBase => ({
  id: record.id,
  name: record.name,
  description: record.description,
  created_at: record.created_at,
  updated_at: record.updated_at,
});

const toDocumentView = (doc: KnowledgeDocument): KnowledgeDocument => ({
  id: doc.id,
  knowledge_base_id: doc.knowledge_base_id,
  name: doc.name,
  source: doc.source,
  url: doc.url,
  status: doc.status,
  failure_reason: doc.failure_reason,
  chunk_count: doc.chunk_count,
  characters: doc.characters,
  truncated: doc.truncated,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
});

/**
 * Knowledge bases (docs/design.md "Knowledge bases"): the API's /knowledge-bases routes. Documents are stored as
 * `processing` and handed to the ingestion queue; search goes through the process's shared
 * {@link KnowledgeSearcher}, the same one the call engine uses.
 */
export class KnowledgeService {
  constructor(private readonly deps: KnowledgeServiceDeps) {}

  /** GET /knowledge-bases: one page of the business's bases, newest (highest id) first. */
  async list(businessId: number, query: Record<string, string | undefined>): Promise<ListPage<KnowledgeBase>> {
    const { limit, cursor } = parseCursorListQuery(query);
    const scope = { businessId, route: 'knowledge-bases' };
    const after = await openCursor(this.deps.cursors, scope, cursor);
    return listPage(await this.deps.knowledge.pageBases(businessId, { limit, after }), toView, this.deps.cursors, scope);
  }

  async get(businessId: number, kbId: number): Promise<KnowledgeBase> {
    return toView(await this.find(businessId, kbId));
  }

  /** Creates a base; the count in its transaction refuses one past the quota, however many race (409 `quota_exceeded`). */
  async create(businessId: number, body: unknown): Promise<KnowledgeBase> {
    const input = parseCreateKnowledgeBaseBody(body);
    const now = this.deps.now().toISOString();
    const record: KnowledgeBaseRecord = { id: await this.deps.ids.nextId(), ...input, created_at: now, updated_at: now, version: 0 };
    await this.deps.knowledge.insertBase(businessId, record);
    return toView(record);
  }

  async update(businessId: number, kbId: number, body: unknown): Promise<KnowledgeBase> {
    const patch = parseUpdateKnowledgeBaseBody(body);
    const current = toView(await this.find(businessId, kbId));
    // A PATCH that changes nothing writes nothing, so `updated_at` keeps saying when it last changed.
    if (isDeepStrictEqual({ ...current, ...patch }, current)) return current;
    const next = { ...current, ...patch, updated_at: this.later(current.updated_at) };
    if (!(await this.deps.knowledge.updateBase(businessId, kbId, next))) throw new NotFoundError(`Knowledge base ${kbId} not found.`);
    return next;
  }

  /**
   * Deletes a base no assistant names, with its documents and chunks; one still named is refused
   * (409; its references item, in the delete's own transaction: no assistant is read).
   */
  async delete(businessId: number, kbId: number): Promise<{ id: number; deleted: true }> {
    await this.find(businessId, kbId);
    let deleted: boolean;
    try {
      deleted = await this.deps.knowledge.deleteBase(businessId, kbId);
    } catch (error) {
      if (error instanceof ResourceInUseError) throw new KnowledgeBaseInUseError(kbId, error.assistantIds);
      throw error;
    }
    // The loser of two deletes at once is a 404, as for every resource.
    if (!deleted) throw new NotFoundError(`Knowledge base ${kbId} not found.`);
    return { id: kbId, deleted: true };
  }

  /** GET /knowledge-bases/{id}/documents: one page of the base's documents, oldest first (a cursor is bound to its base). */
  async listDocuments(businessId: number, kbId: number, query: Record<string, string | undefined>): Promise<ListPage<KnowledgeDocument>> {
    const { limit, cursor } = parseCursorListQuery(query);
    await this.find(businessId, kbId);
    const scope = { businessId, route: 'knowledge-documents', query: { knowledge_base_id: kbId } };
    const after = await openCursor(this.deps.cursors, scope, cursor);
    return listPage(await this.deps.knowledge.pageDocuments(businessId, kbId, { limit, after }), toDocumentView, this.deps.cursors, scope);
  }

  async getDocument(businessId: number, kbId: number, docId: number): Promise<KnowledgeDocument> {
    return toDocumentView(await this.findDocument(businessId, kbId, docId));
  }

  /**
   * Stores a document as `processing` (counted on its base until it fails: past the `documents`
   * quota a 409 `quota_exceeded`, however many race) and queues its ingestion; the response does
   * not wait for it.
   */
  async addDocument(businessId: number, kbId: number, body: unknown): Promise<KnowledgeDocument> {
    const input = parseCreateDocumentBody(body);
    if (input.url !== undefined) {
      const checked = checkUrlSyntax(input.url, this.deps.urlPolicy);
      if (!checked.ok) throw new ValidationError([urlValidationItem(['body', 'url'], checked.reason, input.url)]);
    }
    await this.find(businessId, kbId);
    const now = this.deps.now().toISOString();
    const doc = processingDocument({
      id: await this.deps.ids.nextId(),
      knowledgeBaseId: kbId,
      name: input.name,
      url: input.url ?? null,
      now,
    });
    if (!(await this.deps.knowledge.insertDocument(businessId, doc, input.text)))
      throw new NotFoundError(`Knowledge base ${kbId} not found.`);
    try {
      await this.deps.queue.enqueue({ business_id: businessId, knowledge_base_id: kbId, document_id: doc.id });
    } catch (error) {
      // Never queued, so never ingested: take the document back rather than leave it processing for good.
      await this.deps.knowledge.deleteDocument(businessId, kbId, doc.id);
      throw new AppError(
        'ingestion_unavailable',
        503,
        'The document could not be queued for ingestion, so it was not kept; retry shortly.',
        { cause: error },
      );
    }
    return doc;
  }

  async deleteDocument(businessId: number, kbId: number, docId: number): Promise<{ id: number; deleted: true }> {
    await this.findDocument(businessId, kbId, docId);
    if (!(await this.deps.knowledge.deleteDocument(businessId, kbId, docId))) throw new NotFoundError(`Document ${docId} not found.`);
    return { id: docId, deleted: true };
  }

  /** The passages the assistant would get for this query, best first. */
  async search(businessId: number, kbId: number, body: unknown): Promise<{ data: KnowledgeHit[] }> {
    const input = parseSearchKnowledgeBody(body);
    await this.find(businessId, kbId);
    try {
      return { data: await this.deps.searcher.search(businessId, [kbId], input.query, input.top_k) };
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError(
        'search_unavailable',
        503,
        'Search is unavailable right now (the embeddings service did not answer); retry shortly.',
        {
          cause: error,
        },
      );
    }
  }

  private async find(businessId: number, kbId: number): Promise<KnowledgeBaseRecord> {
    const base = await this.deps.knowledge.findBase(businessId, kbId);
    if (!base) throw new NotFoundError(`Knowledge base ${kbId} not found.`);
    return base;
  }

  private async findDocument(businessId: number, kbId: number, docId: number): Promise<KnowledgeDocument> {
    const doc = await this.deps.knowledge.findDocument(businessId, kbId, docId);
    if (!doc) throw new NotFoundError(`Document ${docId} not found.`);
    return doc;
  }

  private later(previous: string): string {
    return new Date(Math.max(this.deps.now().getTime(), Date.parse(previous) + 1)).toISOString();
  }
}
