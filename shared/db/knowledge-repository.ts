import { BatchWriteCommand, GetCommand, paginateQuery, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { KnowledgeBase, KnowledgeDocument } from '../domain/knowledge';
import type { Chunk } from '../knowledge/chunker';
import type { Db } from './client';
import { isCancelledTransaction, isConditionFailure } from './conditions';
import { fromItem, queryBusinessPrefix } from './items';
import { keys } from './table';

/** A knowledge base as stored: `version` grows whenever its searchable content changes. */
export type KnowledgeBaseRecord = KnowledgeBase & { version: number };

/** A document's chunks and vectors as loaded for search. */
export interface StoredChunks {
  documentId: number;
  chunks: Chunk[];
  /** `chunks.length × dimensions` float32 values. */
  vectors: Uint8Array;
}

/** Chunks per stored item: 25 × (≤1.4 k characters + a 1 KiB vector) stays far under DynamoDB's 400 KB. */
export const CHUNKS_PER_ITEM = 25;

interface ChunkPageItem {
  document_id: number;
  chunks: { h: string; t: string }[];
  vectors: Uint8Array;
}

/**
 * Knowledge bases, their documents, and the documents' chunks with their embeddings, all in the
 * business's partition (docs/decisions.md "Knowledge bases": DynamoDB, not S3, because a base is
 * at most 100 documents of at most 2,000 chunks, loaded with one paged query).
 */
export class KnowledgeRepository {
  constructor(private readonly db: Db) {}

  async insertBase(businessId: number, base: KnowledgeBaseRecord): Promise<void> {
    await this.db.doc.send(
      new PutCommand({
        TableName: this.db.tableName,
        Item: { ...keys.knowledgeBase(businessId, base.id), entity: 'knowledge_base', ...base },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async findBase(businessId: number, kbId: number): Promise<KnowledgeBaseRecord | undefined> {
    const result = await this.db.doc.send(new GetCommand({ TableName: this.db.tableName, Key: keys.knowledgeBase(businessId, kbId) }));
    return result.Item ? fromItem<KnowledgeBaseRecord>(result.Item) : undefined;
  }

  /** The business's bases (at most `KNOWLEDGE_LIMITS.basesPerBusiness`). */
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

  /** Deletes a base and everything under it (documents, sources, chunks). */
  async deleteBase(businessId: number, kbId: number): Promise<void> {
    const under = await Promise.all([
      this.keysUnder(businessId, keys.knowledgeDocumentPrefix(kbId)),
      this.keysUnder(businessId, keys.knowledgeChunksPrefix(kbId)),
      this.keysUnder(businessId, keys.knowledgeSourcePrefix(kbId)),
    ]);
    await this.deleteKeys([keys.knowledgeBase(businessId, kbId), ...under.flat()]);
  }

  /** Adds a document (and a text document's source) to a base that exists. @returns false when the base is gone. */
  async insertDocument(businessId: number, doc: KnowledgeDocument, sourceText: string | undefined): Promise<boolean> {
    const items: object[] = [
      {
        ConditionCheck: {
          TableName: this.db.tableName,
          Key: keys.knowledgeBase(businessId, doc.knowledge_base_id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      {
        Put: {
          TableName: this.db.tableName,
          Item: { ...keys.knowledgeDocument(businessId, doc.knowledge_base_id, doc.id), entity: 'knowledge_document', ...doc },
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
      await this.db.doc.send(new TransactWriteCommand({ TransactItems: items as never }));
      return true;
    } catch (error) {
      if (isCancelledTransaction(error, 0)) return false;
      throw error;
    }
  }

  async findDocument(businessId: number, kbId: number, docId: number): Promise<KnowledgeDocument | undefined> {
    const result = await this.db.doc.send(
      new GetCommand({ TableName: this.db.tableName, Key: keys.knowledgeDocument(businessId, kbId, docId) }),
    );
    return result.Item ? fromItem<KnowledgeDocument>(result.Item) : undefined;
  }

  /** A base's documents (at most `KNOWLEDGE_LIMITS.documentsPerBase`), oldest first. */
  async listDocuments(businessId: number, kbId: number): Promise<KnowledgeDocument[]> {
    return queryBusinessPrefix<KnowledgeDocument>(this.db, businessId, keys.knowledgeDocumentPrefix(kbId));
  }

  async readSource(businessId: number, kbId: number, docId: number): Promise<string | undefined> {
    const result = await this.db.doc.send(
      new GetCommand({ TableName: this.db.tableName, Key: keys.knowledgeSource(businessId, kbId, docId) }),
    );
    return typeof result.Item?.text === 'string' ? result.Item.text : undefined;
  }

  /** Writes a document's chunks and vectors (replacing none: a document is ingested once). */
  async putChunks(
    businessId: number,
    kbId: number,
    docId: number,
    chunks: Chunk[],
    vectors: Float32Array[],
    dimensions: number,
  ): Promise<void> {
    const puts: Record<string, unknown>[] = [];
    for (let start = 0, page = 0; start < chunks.length; start += CHUNKS_PER_ITEM, page++) {
      const slice = chunks.slice(start, start + CHUNKS_PER_ITEM);
      const packed = new Float32Array(slice.length * dimensions);
      slice.forEach((_, i) => packed.set(vectors[start + i]!, i * dimensions));
      const item: ChunkPageItem = {
        document_id: docId,
        chunks: slice.map((chunk) => ({ h: chunk.heading, t: chunk.text })),
        vectors: new Uint8Array(packed.buffer),
      };
      puts.push({ ...keys.knowledgeChunks(businessId, kbId, docId, page), entity: 'knowledge_chunks', ...item });
    }
    await this.batchWrite(puts.map((Item) => ({ PutRequest: { Item } })));
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
   * Records how a document's ingestion ended and bumps its base's version when it became ready.
   * @returns false when the document was deleted meanwhile (its chunks are then the caller's to remove).
   */
  async finishDocument(
    businessId: number,
    doc: KnowledgeDocument,
    outcome: Pick<KnowledgeDocument, 'status' | 'failure_reason' | 'chunk_count' | 'characters' | 'updated_at'>,
  ): Promise<boolean> {
    const items: object[] = [
      {
        Update: {
          TableName: this.db.tableName,
          Key: keys.knowledgeDocument(businessId, doc.knowledge_base_id, doc.id),
          UpdateExpression:
            'SET #status = :status, failure_reason = :reason, chunk_count = :chunks, characters = :chars, updated_at = :updated',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':status': outcome.status,
            ':reason': outcome.failure_reason,
            ':chunks': outcome.chunk_count,
            ':chars': outcome.characters,
            ':updated': outcome.updated_at,
          },
        },
      },
      { Delete: { TableName: this.db.tableName, Key: keys.knowledgeSource(businessId, doc.knowledge_base_id, doc.id) } },
    ];
    if (outcome.status === 'ready') items.push(this.bumpVersion(businessId, doc.knowledge_base_id));
    try {
      await this.db.doc.send(new TransactWriteCommand({ TransactItems: items as never }));
      return true;
    } catch (error) {
      if (isCancelledTransaction(error)) return false;
      throw error;
    }
  }

  /** Deletes a document, its source and its chunks, and bumps the base's version. */
  async deleteDocument(businessId: number, kbId: number, docId: number): Promise<void> {
    await this.db.doc
      .send(new TransactWriteCommand({ TransactItems: [this.bumpVersion(businessId, kbId)] as never }))
      .catch((error: unknown) => {
        if (!isCancelledTransaction(error)) throw error;
      });
    await this.deleteChunks(businessId, kbId, docId);
    await this.deleteKeys([keys.knowledgeDocument(businessId, kbId, docId), keys.knowledgeSource(businessId, kbId, docId)]);
  }

  /** Removes a document's chunk pages (a document deleted while it was being ingested). */
  async deleteChunks(businessId: number, kbId: number, docId: number): Promise<void> {
    await this.deleteKeys(await this.keysUnder(businessId, keys.knowledgeDocumentChunksPrefix(kbId, docId)));
  }

  private bumpVersion(businessId: number, kbId: number): object {
    return {
      Update: {
        TableName: this.db.tableName,
        Key: keys.knowledgeBase(businessId, kbId),
        UpdateExpression: 'ADD version :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1 },
      },
    };
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
