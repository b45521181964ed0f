import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AssistantConfig } from '../domain/assistant-config';
import { quotaExceeded } from '../domain/quota';
import { ConflictError, NotFoundError, PreconditionFailedError } from '../errors';
import type { Db } from './client';
import { businessPrefixQuery, readKeyPage, type KeyPage, type KeyPageRequest } from './key-pages';
import { isCancelledTransaction, isConditionFailure } from './conditions';
import { transactCounted } from './counted-transaction';
import { fromItem, queryBusinessPrefix } from './items';
import { QuotaRepository, quotaCount, quotaGiveBack, quotaTake } from './quotas';
import {
  configReferences,
  ReferenceMissingError,
  referenceAdd,
  referenceRemove,
  referencesCount,
  referencesLeft,
  type Reference,
} from './references';
import { keys, pageKeyAttributes } from './table';

/** DynamoDB's most items in one transaction. */
const MAX_TRANSACTION_ITEMS = 100;

/** Writes of an assistant that keeps changing under them before one is a 409. */
const WRITE_ATTEMPTS = 5;

/** An assistant as stored: the config without its write-only key, which is kept sealed beside it. */
export interface AssistantRecord {
  id: number;
  name: string;
  is_default: boolean;
  created_at: string;
  updated_at: string;
  config: AssistantConfig;
  custom_key_sealed?: string;
  /**
   * Grows by one with every write of the item (the ETag is made from it); absent on items written
   * before versions existed, which read as version 0.
   */
  version?: number;
}

/** The stored version of an assistant (0 for an item written before versions existed). */
export function assistantVersion(record: AssistantRecord): number {
  return record.version ?? 0;
}

/**
 * The condition that the item exists (and, when `also` is given, meets it too) at `version`, so a
 * write made from one read never overwrites a write that came between (`undefined`: any version).
 */
function atVersion(version: number | undefined, also?: { expression: string; values: Record<string, unknown> }) {
  const clauses = ['attribute_exists(pk)', ...(also ? [also.expression] : [])];
  const values: Record<string, unknown> = { ...also?.values };
  if (version === 0) clauses.push('attribute_not_exists(version)');
  else if (version !== undefined) {
    clauses.push('version = :version');
    values[':version'] = version;
  }
  return { ConditionExpression: clauses.join(' AND '), ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}) };
}

/** A conditional write or a conditional transaction lost (the assistant or the default moved). */
const lost = (error: unknown) => isConditionFailure(error) || isCancelledTransaction(error);

/**
 * Assistants of one business. The business item holds `default_assistant_id`, so "exactly one
 * default" is kept by conditional writes on that one attribute, never by a read-then-write.
 */
export class AssistantRepository {
  private readonly quotas: QuotaRepository;

  constructor(private readonly db: Db) {
    this.quotas = new QuotaRepository(db);
  }

  /** All assistants of the business (at most a few hundred; sorted newest first by the caller). */
  async listAssistants(businessId: number): Promise<AssistantRecord[]> {
    return queryBusinessPrefix<AssistantRecord>(this.db, businessId, keys.assistantPrefix());
  }

  /** GET /assistants: one page, newest (highest id) first, read by key (O(limit) items, never the partition). */
  async pageAssistants(businessId: number, request: KeyPageRequest): Promise<KeyPage<AssistantRecord>> {
    return readKeyPage(this.db, businessPrefixQuery(businessId, keys.assistantPrefix(), 'newest-first'), pageKeyAttributes(), request);
  }

  /** One assistant, or undefined when missing (another business's id is simply missing here). */
  async findAssistant(businessId: number, assistantId: number, consistent = false): Promise<AssistantRecord | undefined> {
    const result = await this.db.doc.send(
      new GetCommand({ TableName: this.db.tableName, Key: keys.assistant(businessId, assistantId), ConsistentRead: consistent }),
    );
    return result.Item ? fromItem<AssistantRecord>(result.Item) : undefined;
  }

  /** One assistant, or NotFoundError. */
  async getAssistant(businessId: number, assistantId: number): Promise<AssistantRecord> {
    const found = await this.findAssistant(businessId, assistantId);
    if (!found) throw new NotFoundError(`Assistant ${assistantId} not found.`);
    return found;
  }

  /**
   * Inserts a new assistant, taking one of the business's assistant quota and recording the
   * resources its config names, in one transaction; it becomes the default when the business has
   * none. Returns the stored record.
   * @throws QuotaExceededError, ReferenceMissingError
   */
  async insertAssistant(businessId: number, record: Omit<AssistantRecord, 'is_default' | 'version'>): Promise<AssistantRecord> {
    const quota = await this.quotas.quotaOf(businessId, 'assistants');
    const refs = configReferences(record.config);
    for (const isDefault of [true, false]) {
      const stored = { ...record, is_default: isDefault, version: 1 };
      const items = [
        { Put: this.putNew(businessId, stored) },
        quotaTake(this.db, businessId, 'assistants', quota),
        ...refs.map((ref) => referenceAdd(this.db, businessId, ref, record.id)),
      ];
      if (isDefault) items.push(this.claimDefault(businessId, record.id));
      const counts = [
        quotaCount(this.db, businessId, 'assistants', 1),
        ...refs.map((ref, i) => referencesCount(this.db, businessId, ref, 2 + i)),
      ];
      try {
        await transactCounted(this.db, items, counts);
        return stored;
      } catch (error) {
        if (isCancelledTransaction(error, 1)) throw quotaExceeded('assistants', quota);
        const missing = refs.find((_, i) => isCancelledTransaction(error, 2 + i));
        if (missing) throw new ReferenceMissingError(missing);
        if (!isDefault || !isCancelledTransaction(error, items.length - 1)) throw error;
      }
    }
    throw new Error('unreachable: an assistant that is not the default claims nothing');
  }

  /**
   * Replaces name/config of an assistant that is still at the version read (`before`), writing it
   * as the next version, with the references its config gains and loses, in one transaction (the
   * removals in a second one when together they pass DynamoDB's 100 items): 'moved' when another
   * write came first (the caller reads again and re-applies its change), NotFoundError when gone.
   * @throws NotFoundError, ReferenceMissingError
   */
  async replaceAssistant(businessId: number, record: AssistantRecord, before: AssistantRecord): Promise<'replaced' | 'moved'> {
    const version = assistantVersion(before);
    const after = configReferences(record.config);
    const added = referencesLeft(after, configReferences(before.config));
    const removed = referencesLeft(configReferences(before.config), after);
    const put = {
      Put: {
        TableName: this.db.tableName,
        Item: {
          ...keys.assistant(businessId, record.id),
          entity: 'assistant',
          ...record,
          is_default: before.is_default,
          version: version + 1,
        },
        ...atVersion(version),
      },
    };
    const adds = added.map((ref) => referenceAdd(this.db, businessId, ref, record.id));
    const removals = removed.map((ref) => referenceRemove(this.db, businessId, ref, record.id));
    const together = 1 + adds.length + removals.length <= MAX_TRANSACTION_ITEMS;
    const first = together ? [put, ...adds, ...removals] : [put, ...adds];
    const refs = together ? [...added, ...removed] : added;
    try {
      await transactCounted(
        this.db,
        first,
        refs.map((ref, i) => referencesCount(this.db, businessId, ref, 1 + i)),
      );
    } catch (error) {
      const missing = added.find((_, i) => isCancelledTransaction(error, 1 + i));
      if (missing) throw new ReferenceMissingError(missing);
      if (!isCancelledTransaction(error, 0)) throw error;
      if (!(await this.findAssistant(businessId, record.id, true))) throw new NotFoundError(`Assistant ${record.id} not found.`);
      return 'moved';
    }
    if (!together) await this.removeReferences(businessId, record.id, removed);
    return 'replaced';
  }

  /**
   * Deletes an assistant, giving back its quota and its references, in one transaction; deleting
   * the default promotes the oldest remaining assistant. The assistant is deleted as it now is (read
   * again consistently), so the references given back are those of the config deleted. With
   * `expectedVersion` (If-Match), only that version is deleted: a newer one is a 412.
   * @throws NotFoundError, PreconditionFailedError
   */
  async deleteAssistant(businessId: number, assistant: AssistantRecord, expectedVersion?: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.findAssistant(businessId, assistant.id, true);
      if (!current) throw new NotFoundError(`Assistant ${assistant.id} not found.`);
      if (expectedVersion !== undefined && assistantVersion(current) !== expectedVersion) throw new PreconditionFailedError();
      const refs = configReferences(current.config);
      const items = [
        { Delete: { TableName: this.db.tableName, Key: keys.assistant(businessId, current.id), ...atVersion(assistantVersion(current)) } },
        quotaGiveBack(this.db, businessId, 'assistants'),
        ...refs.map((ref) => referenceRemove(this.db, businessId, ref, current.id)),
      ];
      if (current.is_default) items.push(this.releaseDefault(businessId, current.id));
      const counts = [
        quotaCount(this.db, businessId, 'assistants', 1),
        ...refs.map((ref, i) => referencesCount(this.db, businessId, ref, 2 + i)),
      ];
      try {
        await transactCounted(this.db, items, counts);
        if (current.is_default) await this.promoteOldest(businessId);
        return;
      } catch (error) {
        if (!lost(error)) throw error;
        if (attempt === WRITE_ATTEMPTS) throw new ConflictError('conflict', `Assistant ${assistant.id} kept changing; retry the delete.`);
      }
    }
  }

  /** The second transaction of a replace too large for one: the references the config lost. */
  private async removeReferences(businessId: number, assistantId: number, removed: readonly Reference[]): Promise<void> {
    for (let i = 0; i < removed.length; i += MAX_TRANSACTION_ITEMS) {
      const part = removed.slice(i, i + MAX_TRANSACTION_ITEMS);
      await transactCounted(
        this.db,
        part.map((ref) => referenceRemove(this.db, businessId, ref, assistantId)),
        part.map((ref, index) => referencesCount(this.db, businessId, ref, index)),
      );
    }
  }

  private claimDefault(businessId: number, assistantId: number) {
    return {
      Update: {
        TableName: this.db.tableName,
        Key: keys.business(businessId),
        UpdateExpression: 'SET default_assistant_id = :id',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(default_assistant_id)',
        ExpressionAttributeValues: { ':id': assistantId },
      },
    };
  }

  private releaseDefault(businessId: number, assistantId: number) {
    return {
      Update: {
        TableName: this.db.tableName,
        Key: keys.business(businessId),
        UpdateExpression: 'REMOVE default_assistant_id',
        ConditionExpression: 'default_assistant_id = :id',
        ExpressionAttributeValues: { ':id': assistantId },
      },
    };
  }

  private async promoteOldest(businessId: number): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const remaining = await this.listAssistants(businessId);
      if (remaining.length === 0) return;
      const oldest = remaining.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id)[0]!;
      try {
        await this.db.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: this.db.tableName,
                  Key: keys.assistant(businessId, oldest.id),
                  UpdateExpression: 'SET is_default = :true ADD version :one',
                  ConditionExpression: 'attribute_exists(pk)',
                  ExpressionAttributeValues: { ':true': true, ':one': 1 },
                },
              },
              {
                Update: {
                  TableName: this.db.tableName,
                  Key: keys.business(businessId),
                  UpdateExpression: 'SET default_assistant_id = :id',
                  ConditionExpression: 'attribute_not_exists(default_assistant_id)',
                  ExpressionAttributeValues: { ':id': oldest.id },
                },
              },
            ],
          }),
        );
        return;
      } catch (error) {
        if (!lost(error)) throw error;
      }
    }
  }

  private putNew(businessId: number, record: AssistantRecord) {
    return {
      TableName: this.db.tableName,
      Item: { ...keys.assistant(businessId, record.id), entity: 'assistant', ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    };
  }
}
