import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AssistantConfig } from '../domain/assistant-config';
import { NotFoundError } from '../errors';
import type { Db } from './client';
import { fromItem, queryBusinessPrefix } from './items';
import { businessPrefixQuery, readKeyPage, type KeyPage, type KeyPageRequest } from './key-pages';
import { keys, pageKeyAttributes } from './table';
import { isCancelledTransaction, isConditionFailure } from './conditions';

/** An assistant as stored: the config without its write-only key, which is kept sealed beside it. */
export interface AssistantRecord {
  id: number;
  name: string;
  is_default: boolean;
  created_at: string;
  updated_at: string;
  config: AssistantConfig;
  custom_key_sealed?: string;
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

  /** GET /assistants: one page, newest (highest id) first, read by key (O(limit) items, never the partition). */
  async pageAssistants(businessId: number, request: KeyPageRequest): Promise<KeyPage<AssistantRecord>> {
    return readKeyPage(this.db, businessPrefixQuery(businessId, keys.assistantPrefix(), 'newest-first'), pageKeyAttributes(), request);
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
  async insertAssistant(businessId: number, record: Omit<AssistantRecord, 'is_default'>): Promise<AssistantRecord> {
    const asDefault = { ...record, is_default: true };
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
    const plain = { ...record, is_default: false };
    await this.db.doc.send(new PutCommand(this.putNew(businessId, plain)));
    return plain;
  }

  /** Replaces name/config of an existing assistant (conditional: it must still exist). */
  async replaceAssistant(businessId: number, record: AssistantRecord): Promise<void> {
    try {
      await this.db.doc.send(
        new PutCommand({
          TableName: this.db.tableName,
          Item: { ...keys.assistant(businessId, record.id), entity: 'assistant', ...record },
          ConditionExpression: 'attribute_exists(pk)',
        }),
      );
    } catch (error) {
      if (lost(error)) throw new NotFoundError(`Assistant ${record.id} not found.`);
      throw error;
    }
  }

  /** Deletes an assistant; deleting the default promotes the oldest remaining assistant. */
  async deleteAssistant(businessId: number, assistant: AssistantRecord): Promise<void> {
    if (!assistant.is_default) {
      try {
        await this.db.doc.send(
          new DeleteCommand({
            TableName: this.db.tableName,
            Key: keys.assistant(businessId, assistant.id),
            ConditionExpression: 'attribute_exists(pk) AND is_default = :false',
            ExpressionAttributeValues: { ':false': false },
          }),
        );
        return;
      } catch (error) {
        if (!lost(error)) throw error;
        const current = await this.getAssistant(businessId, assistant.id);
        if (!current.is_default) throw error;
      }
    }
    await this.deleteDefault(businessId, assistant.id);
    await this.promoteOldest(businessId);
  }

  private async deleteDefault(businessId: number, assistantId: number): Promise<void> {
    try {
      await this.db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: this.db.tableName,
                Key: keys.assistant(businessId, assistantId),
                ConditionExpression: 'attribute_exists(pk)',
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
      if (lost(error)) throw new NotFoundError(`Assistant ${assistantId} not found.`);
      throw error;
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
                  UpdateExpression: 'SET is_default = :true',
                  ConditionExpression: 'attribute_exists(pk)',
                  ExpressionAttributeValues: { ':true': true },
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
