import { ConflictError } from '../errors';
import { BatchWriteCommand, GetCommand, paginateQuery, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { KnowledgeBase, KnowledgeDocument } from '../domain/knowledge';
import type { Chunk } from '../domain/knowledge';
import type { Db } from './client';
import { cancelledTransactionItem, isCancelledTransaction, isConditionFailure } from './conditions';
import { transactCounted } from './counted-transaction';
import {
  baseItemCounts,
  chunkCountAdd,
  documentCount,
  documentCountAdd,
  documentCountRemove,
  documentFailed,
  LIVE_DOCUMENTS,
} from './knowledge-counts';
import { quotaExceeded } from '../domain/quota';
import { QuotaRepository, quotaCount, quotaGiveBack, quotaTake } from './quotas';
import { namingAssistants, referencesCount, referencesCreate, referencesDelete, ResourceInUseError } from './references';
import { fromItem, queryBusinessPrefix } from './items';
import { chunkPages, ChunksTooLargeError, isItemTooLarge, type ChunkPage } from './knowledge-chunk-pages';
import { businessPrefixQuery, readKeyPage, type KeyPage, type KeyPageRequest } from './key-pages';
import { keys, pageKeyAttributes } from './table';

/**
 * A knowledge base as stored: `version` grows whenever its searchable content changes;
 * `live_documents` counts its documents that are not failed and `chunks` the passages of its ready
 * documents (each absent on a base from before the count, until first needed).
 */
export type KnowledgeBaseRecord = KnowledgeBase & { version: number; live_documents?: number; chunks?: number };

/**
 * How recording a document's outcome went: `finished`; `gone` (the document or its base was
 * deleted meanwhile: its chunks are the caller's to remove); `already-finished` (another delivery
 * of the same job recorded an outcome first); `over-limit` (ready would take the base past
 * `chunksPerBase`; nothing was written, `held` is what the base has).
 */
export type FinishResult = { kind: 'finished' } | { kind: 'gone' } | { kind: 'already-finished' } | { kind: 'over-limit'; held: number };

/**
 * A document item as read back. Items stored before `truncated` existed lack it: they read as
 * `false` (nothing of theirs was known to be cut), so they need no migration.
 */
function documentOf(item: Record<string, unknown>): KnowledgeDocument {
  return { ...fromItem<KnowledgeDocument>(item), truncated: item.truncated === true };
}

/** A delete reads the document first, then deletes only what it read: a few tries cover its status changing meanwhile. */
const DELETE_TRIES = 5;

/** A document's chunks and vectors as loaded for search. */
export interface StoredChunks {
  documentId: number;
  chunks: Chunk[];
  /** `chunks.length × dimensions` float32 values. */
  vectors: Uint8Array;
}

interface ChunkPageItem extends ChunkPage {
  document_id: number;
}

/**
 * Knowledge bases, their documents, and the documents' chunks with their embeddings, all in the
 * business's partition (docs/decisions.md "Knowledge bases": DynamoDB, not S3, because a base is
 * at most 10,000 chunks in at most 100 documents, loaded with one paged query).
 */
export class KnowledgeRepository {
  private readonly quotas: QuotaRepository;

  constructor(private readonly db: Db) {
    this.quotas = new QuotaRepository(db);
  }

  /**
   * Adds a base with no documents, takes one of the business's `knowledge_bases` quota and creates
   * its references item, in one transaction: past the quota the count refuses it, however many
   * creates run at once.
   * @throws QuotaExceededError
   */
  async insertBase(businessId: number, base: KnowledgeBaseRecord): Promise<void> {
    const quota = await this.quotas.quotaOf(businessId, 'knowledge_bases');
    const put = {
      Put: {
        TableName: this.db.tableName,
        Item: { ...keys.knowledgeBase(businessId, base.id), entity: 'knowledge_base', ...base, [LIVE_DOCUMENTS]: 0, chunks: 0 },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
    try {
      await transactCounted(
        this.db,
        [
          put,
          quotaTake(this.db, businessId, 'knowledge_bases', quota),
          referencesCreate(this.db, businessId, { kind: 'knowledge_base', id: base.id }),
        ],
        quotaCount(this.db, businessId, 'knowledge_bases', 1),
      );
    } catch (error) {
      if (isCancelledTransaction(error, 1)) throw quotaExceeded('knowledge_bases', quota);
      throw error;
    }
  }

  async findBase(businessId: number, kbId: number): Promise<KnowledgeBaseRecord | undefined> {
    const result = await this.db.doc.send(new GetCommand({ TableName: this.db.tableName, Key: keys.knowledgeBase(businessId, kbId) }));
    return result.Item ? fromItem<KnowledgeBaseRecord>(result.Item) : undefined;
  }

  /** The business's bases (at most `KNOWLEDGE_LIMITS.basesPerBusiness`). */
  /** GET /knowledge-bases: one page, newest (highest id) first, read by key. */
  async pageBases(businessId: number, request: KeyPageRequest): Promise<KeyPage<KnowledgeBaseRecord>> {
    return readKeyPage(this.db, businessPrefixQuery(businessId, keys.knowledgeBasePrefix(), 'newest-first'), pageKeyAttributes(), request);
  }

  /** GET /knowledge-bases/{id}/documents: one page, oldest first, read by key. */
  async pageDocuments(businessId: number, kbId: number, request: KeyPageRequest): Promise<KeyPage<KnowledgeDocument>> {
    const page = await readKeyPage<Record<string, unknown>>(
      this.db,
      businessPrefixQuery(businessId, keys.knowledgeDocumentPrefix(kbId), 'oldest-first'),
      pageKeyAttributes(),
      request,
    );
    return { ...page, entries: page.entries.map((entry) => ({ ...entry, record: documentOf(entry.record) })) };
  }

  async listBases(businessId: number): Promise<KnowledgeBaseRecord[]> {
    return queryBusinessPrefix<KnowledgeBaseRecord>(this.db, businessId, keys.knowledgeBasePrefix());
  }

  /** Sets a base's name and description; false when it is gone. */
  async updateBase(businessId: number, kbId: number, fields: { name: string; description: string; updated_at: string }): Promise<boolean> {
    try {
      await this.db.doc.send(
        new UpdateCommand({
          TableName: this.db.tableName,
          Key: keys.knowledgeBase(businessId, kbId),
          UpdateExpression: 'SET #name = :name, description = :description, updated_at = :updated',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#name': 'name' },
          ExpressionAttributeValues: { ':name': fields.name, ':description': fields.description, ':updated': fields.updated_at },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /**
   * Deletes a base no assistant names and gives back its quota, in one transaction (once, however
   * many deletes race: the base must exist; its references item is the in-use check), then
   * everything under it (documents, sources, chunks). The sweep comes after, because a document can
   * only be added to a base that exists (so it misses none), and its document count went with the
   * base item.
   * @returns false when a concurrent delete had already removed it (the sweep runs anyway).
   * @throws ResourceInUseError (nothing is deleted)
   */
  async deleteBase(businessId: number, kbId: number): Promise<boolean> {
    const remove = {
      Delete: { TableName: this.db.tableName, Key: keys.knowledgeBase(businessId, kbId), ConditionExpression: 'attribute_exists(pk)' },
    };
    const ref = { kind: 'knowledge_base' as const, id: kbId };
    const deleted = await transactCounted(
      this.db,
      [remove, quotaGiveBack(this.db, businessId, 'knowledge_bases'), referencesDelete(this.db, businessId, ref)],
      [quotaCount(this.db, businessId, 'knowledge_bases', 1), referencesCount(this.db, businessId, ref, 2)],
    ).then(
      () => true,
      (error: unknown) => {
        if (isCancelledTransaction(error, 0)) return false;
        const refs = cancelledTransactionItem(error, 2);
        if (refs?.item) throw new ResourceInUseError(ref, namingAssistants(refs.item));
        throw error;
      },
    );
    const under = await Promise.all([
      this.keysUnder(businessId, keys.knowledgeDocumentPrefix(kbId)),
      this.keysUnder(businessId, keys.knowledgeChunksPrefix(kbId)),
      this.keysUnder(businessId, keys.knowledgeSourcePrefix(kbId)),
    ]);
    await this.deleteKeys(under.flat());
    return deleted;
  }

  /**
   * Adds a document (and a text document's source) to a base that exists, counting it on the base
   * in the same transaction: past the business's `documents` quota (per base) the count refuses it.
   * @returns false when the base is gone. @throws QuotaExceededError
   */
  async insertDocument(businessId: number, doc: KnowledgeDocument, sourceText: string | undefined): Promise<boolean> {
    const kbId = doc.knowledge_base_id;
    const quota = await this.quotas.quotaOf(businessId, 'documents');
    const items: object[] = [
      documentCountAdd(this.db, businessId, kbId, quota),
      {
        Put: {
          TableName: this.db.tableName,
          Item: { ...keys.knowledgeDocument(businessId, kbId, doc.id), entity: 'knowledge_document', ...doc },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ];
    if (sourceText !== undefined)
      items.push({
        Put: {
          TableName: this.db.tableName,
          Item: { ...keys.knowledgeSource(businessId, doc.knowledge_base_id, doc.id), entity: 'knowledge_source', text: sourceText },
        },
      });
    try {
      await transactCounted(this.db, items, documentCount(this.db, businessId, kbId, 0));
      return true;
    } catch (error) {
      const base = cancelledTransactionItem(error, 0);
      if (base === undefined) throw error;
      if (base.item === undefined) return false;
      throw quotaExceeded('documents', quota);
    }
  }

  async findDocument(businessId: number, kbId: number, docId: number, consistent = false): Promise<KnowledgeDocument | undefined> {
    const result = await this.db.doc.send(
      new GetCommand({ TableName: this.db.tableName, Key: keys.knowledgeDocument(businessId, kbId, docId), ConsistentRead: consistent }),
    );
    return result.Item ? documentOf(result.Item) : undefined;
  }

  /** A base's documents (at most `KNOWLEDGE_LIMITS.documentsPerBase`), oldest first. */
  async listDocuments(businessId: number, kbId: number): Promise<KnowledgeDocument[]> {
    const items = await queryBusinessPrefix<Record<string, unknown>>(this.db, businessId, keys.knowledgeDocumentPrefix(kbId));
    return items.map(documentOf);
  }

  async readSource(businessId: number, kbId: number, docId: number): Promise<string | undefined> {
    const result = await this.db.doc.send(
      new GetCommand({ TableName: this.db.tableName, Key: keys.knowledgeSource(businessId, kbId, docId) }),
    );
    return typeof result.Item?.text === 'string' ? result.Item.text : undefined;
  }

  /**
   * Writes a document's chunks and vectors (replacing none: a document is ingested once), in pages
   * sized by count and bytes (knowledge-chunk-pages.ts). Pages already written stay when one is
   * refused: the caller removes them with {@link deleteChunks}.
   * @throws ChunksTooLargeError when DynamoDB refuses a page as too large.
   */
  async putChunks(
    businessId: number,
    kbId: number,
    docId: number,
    chunks: Chunk[],
    vectors: Float32Array[],
    dimensions: number,
  ): Promise<void> {
    const puts = chunkPages(chunks, vectors, dimensions).map((page, index) => ({
      PutRequest: {
        Item: { ...keys.knowledgeChunks(businessId, kbId, docId, index), entity: 'knowledge_chunks', document_id: docId, ...page },
      },
    }));
    try {
      await this.batchWrite(puts);
    } catch (error) {
      if (isItemTooLarge(error)) throw new ChunksTooLargeError({ cause: error });
      throw error;
    }
  }

  /** Every stored chunk page of a base, grouped by document. */
  async loadChunks(businessId: number, kbId: number): Promise<StoredChunks[]> {
    const pages = await queryBusinessPrefix<ChunkPageItem>(this.db, businessId, keys.knowledgeChunksPrefix(kbId));
    const byDoc = new Map<number, { chunks: Chunk[]; parts: Uint8Array[] }>();
    for (const page of pages) {
      const entry = byDoc.get(page.document_id) ?? { chunks: [], parts: [] };
      entry.chunks.push(...page.chunks.map((chunk) => ({ heading: chunk.h, text: chunk.t })));
      entry.parts.push(page.vectors);
      byDoc.set(page.document_id, entry);
    }
    return [...byDoc.entries()].map(([documentId, entry]) => ({ documentId, chunks: entry.chunks, vectors: Buffer.concat(entry.parts) }));
  }

  /**
   * Records how a document's ingestion ended, once (the document must still be `processing`). A
   * document made ready counts its passages on its base and bumps the base's version in the same
   * transaction, only while the base stays within `chunksPerBase`, however many finish at once.
   * `truncated` absent is false: only ingestion cuts a document, and it always says.
   */
  async finishDocument(
    businessId: number,
    doc: KnowledgeDocument,
    outcome: Pick<KnowledgeDocument, 'status' | 'failure_reason' | 'chunk_count' | 'characters' | 'updated_at'> &
      Partial<Pick<KnowledgeDocument, 'truncated'>>,
  ): Promise<FinishResult> {
    const kbId = doc.knowledge_base_id;
    const items: object[] = [
      {
        Update: {
          TableName: this.db.tableName,
          Key: keys.knowledgeDocument(businessId, kbId, doc.id),
          UpdateExpression:
            'SET #status = :status, failure_reason = :reason, chunk_count = :chunks, characters = :chars, truncated = :truncated, updated_at = :updated',
          ConditionExpression: 'attribute_exists(pk) AND #status = :processing',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':status': outcome.status,
            ':processing': 'processing',
            ':reason': outcome.failure_reason,
            ':chunks': outcome.chunk_count,
            ':chars': outcome.characters,
            ':truncated': outcome.truncated ?? false,
            ':updated': outcome.updated_at,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      { Delete: { TableName: this.db.tableName, Key: keys.knowledgeSource(businessId, kbId, doc.id) } },
    ];
    const ready = outcome.status === 'ready';
    // A ready document counts its passages; a failed one gives its place under the quota back.
    items.push(ready ? chunkCountAdd(this.db, businessId, kbId, outcome.chunk_count) : documentFailed(this.db, businessId, kbId));
    try {
      // With conflict retries: creates, deletes and finishes of the base's other documents write its item too.
      await transactCounted(this.db, items, baseItemCounts(this.db, businessId, kbId, 2, [ready ? 'chunks' : LIVE_DOCUMENTS]));
      return { kind: 'finished' };
    } catch (error) {
      const document = cancelledTransactionItem(error, 0);
      if (document) return document.item === undefined ? { kind: 'gone' } : { kind: 'already-finished' };
      const base = cancelledTransactionItem(error, 2);
      if (!base) throw error;
      return base.item === undefined ? { kind: 'gone' } : { kind: 'over-limit', held: Number(base.item.chunks) };
    }
  }

  /**
   * Deletes a document and its source, uncounting it (and its passages, when it was ready) and
   * bumping the base's version in the same transaction, then its chunks. The delete is conditioned
   * on the document as it was read (its status and passages), so it gives back exactly what was
   * counted, once, however many deletes and finishes race; a status changed meanwhile is read again.
   * Chunks go last: an ingestion that wrote them before the delete is cleaned here, one after it
   * cleans its own (`finishDocument` finds the document gone); until then search skips them, as
   * it skips every chunk of a document not listed `ready`.
   * @returns false when it was already gone (a concurrent delete won). @throws ConflictError when it kept changing
   */
  async deleteDocument(businessId: number, kbId: number, docId: number): Promise<boolean> {
    let outcome: 'deleted' | 'gone' | 'changed' = 'changed';
    for (let attempt = 1; outcome === 'changed' && attempt <= DELETE_TRIES; attempt++) {
      const doc = await this.findDocument(businessId, kbId, docId, true);
      outcome = doc ? await this.deleteDocumentAsRead(businessId, doc) : 'gone';
    }
    await this.deleteChunks(businessId, kbId, docId);
    if (outcome === 'changed') throw new ConflictError('conflict', `Document ${docId} kept changing; retry the delete.`);
    return outcome === 'deleted';
  }

  /** One try of {@link deleteDocument}: `changed` when the document's status changed since it was read. */
  private async deleteDocumentAsRead(businessId: number, doc: KnowledgeDocument): Promise<'deleted' | 'gone' | 'changed'> {
    const kbId = doc.knowledge_base_id;
    const passages = doc.status === 'ready' ? doc.chunk_count : 0;
    const docKeys = [keys.knowledgeDocument(businessId, kbId, doc.id), keys.knowledgeSource(businessId, kbId, doc.id)];
    const items: object[] = [
      {
        Delete: {
          TableName: this.db.tableName,
          Key: docKeys[0],
          ConditionExpression: 'attribute_exists(pk) AND #status = :status AND chunk_count = :chunks',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': doc.status, ':chunks': doc.chunk_count },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      { Delete: { TableName: this.db.tableName, Key: docKeys[1] } },
    ];
    // A failed document gave its place back when it failed, and had nothing searchable.
    if (doc.status !== 'failed') items.push(documentCountRemove(this.db, businessId, kbId, passages));
    const counts = baseItemCounts(this.db, businessId, kbId, 2, passages > 0 ? [LIVE_DOCUMENTS, 'chunks'] : [LIVE_DOCUMENTS]);
    try {
      await transactCounted(this.db, items, counts);
      return 'deleted';
    } catch (error) {
      const document = cancelledTransactionItem(error, 0);
      // Deleted by a concurrent delete, which uncounted it: done. Finished meanwhile: read it again.
      if (document) return document.item === undefined ? 'gone' : 'changed';
      // The base is gone and took its counts with it; its delete sweeps the document, this does it sooner.
      const base = cancelledTransactionItem(error, 2);
      if (!base || base.item !== undefined) throw error;
      await this.deleteKeys(docKeys);
      return 'deleted';
    }
  }

  /** Removes a document's chunk pages (a document deleted while it was being ingested). */
  async deleteChunks(businessId: number, kbId: number, docId: number): Promise<void> {
    await this.deleteKeys(await this.keysUnder(businessId, keys.knowledgeDocumentChunksPrefix(kbId, docId)));
  }

  private async keysUnder(businessId: number, prefix: string): Promise<{ pk: string; sk: string }[]> {
    const found: { pk: string; sk: string }[] = [];
    const pages = paginateQuery(
      { client: this.db.doc },
      {
        TableName: this.db.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.business(businessId).pk, ':prefix': prefix },
        ProjectionExpression: 'pk, sk',
      },
    );
    for await (const page of pages) for (const item of page.Items ?? []) found.push({ pk: String(item.pk), sk: String(item.sk) });
    return found;
  }

  private async deleteKeys(keyList: { pk: string; sk: string }[]): Promise<void> {
    await this.batchWrite(keyList.map((Key) => ({ DeleteRequest: { Key } })));
  }

  private async batchWrite(requests: object[]): Promise<void> {
    for (let i = 0; i < requests.length; i += 25) {
      let pending: object[] = requests.slice(i, i + 25);
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
        const result = await this.db.doc.send(new BatchWriteCommand({ RequestItems: { [this.db.tableName]: pending as never } }));
        pending = (result.UnprocessedItems?.[this.db.tableName] as object[] | undefined) ?? [];
        if (attempt > 8 && pending.length > 0) throw new Error('knowledge: DynamoDB kept writes unprocessed');
      }
    }
  }
}
