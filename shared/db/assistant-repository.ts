import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AssistantConfig } from '../domain/assistant-config';
import { NotFoundError, PreconditionFailedError } from '../errors';
import type { Db } from './client';
import { fromItem, queryBusinessPrefix } from './items';
import { keys } from './table';
import { conditionFailureItem, isCancelledTransaction, isConditionFailure } from './conditions';

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
  constructor(private readonly db: Db) {}

  /** All assistants of the business (at most a few hundred; sorted newest first by the caller). */
  async listAssistants(businessId: number): Promise<AssistantRecord[]> {
    return queryBusinessPrefix<AssistantRecord>(this.db, businessId, keys.assistantPrefix());
  }

  /** One assistant, or undefined when missing (another business's id is simply missing here). */
  async findAssistant(businessId: number, assistantId: number): Promise<AssistantRecord | undefined> {
    const result = await this.db.doc.send(new GetCommand({ TableName: this.db.tableName, Key: keys.assistant(businessId, assistantId) }));
    return result.Item ? fromItem<AssistantRecord>(result.Item) : undefined;
  }

  /** One assistant, or NotFoundError. */
  async getAssistant(businessId: number, assistantId: number): Promise<AssistantRecord> {
    const found = await this.findAssistant(businessId, assistantId);
    if (!found) throw new NotFoundError(`Assistant ${assistantId} not found.`);
    return found;
  }

  /** Inserts a new assistant; it becomes the default when the business has none. Returns the stored record. */
  async insertAssistant(businessId: number, record: Omit<AssistantRecord, 'is_default' | 'version'>): Promise<AssistantRecord> {
    const asDefault = { ...record, is_default: true, version: 1 };
    try {
      await this.db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: this.putNew(businessId, asDefault) },
            {
              Update: {
                TableName: this.db.tableName,
                Key: keys.business(businessId),
                UpdateExpression: 'SET default_assistant_id = :id',
                ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(default_assistant_id)',
                ExpressionAttributeValues: { ':id': record.id },
              },
            },
          ],
        }),
      );
      return asDefault;
    } catch (error) {
      if (!lost(error)) throw error;
    }
    const plain = { ...record, is_default: false, version: 1 };
    await this.db.doc.send(new PutCommand(this.putNew(businessId, plain)));
    return plain;
  }

  /**
   * Replaces an assistant that is still at `expectedVersion` (the version read), writing it as the
   * next version: 'moved' when another write came first, NotFoundError when it is gone.
   */
  async replaceAssistant(businessId: number, record: AssistantRecord, expectedVersion: number): Promise<'replaced' | 'moved'> {
    try {
      await this.db.doc.send(
        new PutCommand({
          TableName: this.db.tableName,
          Item: { ...keys.assistant(businessId, record.id), entity: 'assistant', ...record, version: expectedVersion + 1 },
          ...atVersion(expectedVersion),
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return 'replaced';
    } catch (error) {
      const failed = conditionFailureItem(error);
      if (!failed) throw error;
      if (!failed.item) throw new NotFoundError(`Assistant ${record.id} not found.`);
      return 'moved';
    }
  }

  /**
   * Deletes an assistant; deleting the default promotes the oldest remaining assistant. With
   * `expectedVersion` (If-Match), only that version is deleted: a newer one is a 412.
   */
  async deleteAssistant(businessId: number, assistant: AssistantRecord, expectedVersion?: number): Promise<void> {
    if (!assistant.is_default) {
      try {
        await this.db.doc.send(
          new DeleteCommand({
            TableName: this.db.tableName,
            Key: keys.assistant(businessId, assistant.id),
            ...atVersion(expectedVersion, { expression: 'is_default = :false', values: { ':false': false } }),
          }),
        );
        return;
      } catch (error) {
        if (!lost(error)) throw error;
        const current = await this.currentAt(businessId, assistant.id, expectedVersion);
        if (!current.is_default) throw error;
      }
    }
    await this.deleteDefault(businessId, assistant.id, expectedVersion);
    await this.promoteOldest(businessId);
  }

  /** The assistant after a lost conditional write: 404 when gone, 412 when past `expectedVersion`. */
  private async currentAt(businessId: number, assistantId: number, expectedVersion: number | undefined): Promise<AssistantRecord> {
    const current = await this.getAssistant(businessId, assistantId);
    if (expectedVersion !== undefined && assistantVersion(current) !== expectedVersion) throw new PreconditionFailedError();
    return current;
  }

  private async deleteDefault(businessId: number, assistantId: number, expectedVersion: number | undefined): Promise<void> {
    try {
      await this.db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: this.db.tableName,
                Key: keys.assistant(businessId, assistantId),
                ...atVersion(expectedVersion),
              },
            },
            {
              Update: {
                TableName: this.db.tableName,
                Key: keys.business(businessId),
                UpdateExpression: 'REMOVE default_assistant_id',
                ConditionExpression: 'default_assistant_id = :id',
                ExpressionAttributeValues: { ':id': assistantId },
              },
            },
          ],
        }),
      );
    } catch (error) {
      if (!lost(error)) throw error;
      if (expectedVersion !== undefined) await this.currentAt(businessId, assistantId, expectedVersion);
      throw new NotFoundError(`Assistant ${assistantId} not found.`);
    }
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
                  // A new default is a new version: its ETag must change with is_default.
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
