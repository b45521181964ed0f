import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { KnowledgeBase } from '../domain/knowledge';
import { cancelledTransactionItem, isCancelledTransaction, isConditionFailure } from './conditions';
import { transactCounted } from './counted-transaction';
import { LIVE_DOCUMENTS } from './knowledge-counts';
import { quotaExceeded } from '../domain/quota';
import { quotaCount, quotaGiveBack, quotaTake } from './quotas';
import { namingAssistants, referencesCount, referencesCreate, referencesDelete, ResourceInUseError } from './references';
import { fromItem, queryBusinessPrefix } from './items';
import { KnowledgeDocumentRepository } from './knowledge-document-repository';
import { businessPrefixQuery, readKeyPage, type KeyPage, type KeyPageRequest } from './key-pages';
import { deleteKeys, keysUnder } from './batch-writes';
import { keys, pageKeyAttributes } from './table';

/**
 * A knowledge base as stored: `version` grows whenever its searchable content changes;
 * `live_documents` counts its documents that are not failed and `chunks` the passages of its ready
 * documents (each absent on a base from before the count, until first needed).
 */
export type KnowledgeBaseRecord = KnowledgeBase & { version: number; live_documents?: number; chunks?: number };

/**
 * Knowledge bases, their documents, and the documents' chunks with their embeddings, all in the
 * business's partition (docs/decisions.md "Knowledge bases": DynamoDB, not S3, because a base is
 * at most 10,000 chunks in at most 100 documents, loaded with one paged query). The bases are
 * here; the documents and their chunks are {@link KnowledgeDocumentRepository}'s.
 */
export class KnowledgeRepository extends KnowledgeDocumentRepository {
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
      keysUnder(this.db, businessId, keys.knowledgeDocumentPrefix(kbId)),
      keysUnder(this.db, businessId, keys.knowledgeChunksPrefix(kbId)),
      keysUnder(this.db, businessId, keys.knowledgeSourcePrefix(kbId)),
    ]);
    await deleteKeys(this.db, under.flat());
    return deleted;
  }
}
