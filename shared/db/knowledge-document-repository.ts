import { ConflictError } from '../errors';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { KnowledgeDocument } from '../domain/knowledge';
import type { Chunk } from '../domain/knowledge';
import type { Db } from './client';
import { cancelledTransactionItem } from './conditions';
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
import { QuotaRepository } from './quotas';
import { fromItem, queryBusinessPrefix } from './items';
import { chunkPages, ChunksTooLargeError, isItemTooLarge, type ChunkPage } from './knowledge-chunk-pages';
import { businessPrefixQuery, readKeyPage, type KeyPage, type KeyPageRequest } from './key-pages';
import { batchWrite, deleteKeys, keysUnder } from './batch-writes';
import { keys, pageKeyAttributes } from './table';

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
 * A knowledge base's documents: each document's item, its source text until it is ingested, and
 * its chunk pages with their embeddings. {@link KnowledgeRepository} adds the bases themselves,
 * and is the one object callers hold.
 */
export class KnowledgeDocumentRepository {
  protected readonly quotas: QuotaRepository;

  constructor(protected readonly db: Db) {
    this.quotas = new QuotaRepository(db);
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
      await batchWrite(this.db, puts);
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
      await deleteKeys(this.db, docKeys);
      return 'deleted';
    }
  }

  /** Removes a document's chunk pages (a document deleted while it was being ingested). */
  async deleteChunks(businessId: number, kbId: number, docId: number): Promise<void> {
    await deleteKeys(this.db, await keysUnder(this.db, businessId, keys.knowledgeDocumentChunksPrefix(kbId, docId)));
  }
}
