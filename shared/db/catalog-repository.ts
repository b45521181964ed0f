import { BatchGetCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { PhoneNumber } from '../domain/phone-number';
import { quotaExceeded } from '../domain/quota';
import { ConflictError } from '../errors';
import type { Db } from './client';
import { isCancelledTransaction } from './conditions';
import { transactCounted } from './counted-transaction';
import { QuotaRepository, quotaCount, quotaTake } from './quotas';
import { fromItem, queryBusinessPrefix } from './items';
import { businessPrefixQuery, readKeyPage, type KeyPage, type KeyPageRequest } from './key-pages';
import { keys, pageKeyAttributes } from './table';

/** Where an inbound number leads: the owning business and the number record. */
export interface NumberLookup {
  business_id: number;
  phone_number_id: number;
}

/**
 * Phone numbers of a business (provisioned by ops, listed by the API, referenced by calls'
 * `phone_number_id`), and which tool ids exist (assistant configs' `tool_ids`; the tools
 * themselves live in tool-repository.ts).
 */
export class CatalogRepository {
  private readonly quotas: QuotaRepository;

  constructor(private readonly db: Db) {
    this.quotas = new QuotaRepository(db);
  }

  /**
   * Adds a number, taking one of the business's `phone_numbers` quota; a number belongs to one
   * business service-wide (global lookup written together).
   * @throws QuotaExceededError, ConflictError `number_taken`
   */
  async insertPhoneNumber(businessId: number, number: PhoneNumber): Promise<void> {
    const quota = await this.quotas.quotaOf(businessId, 'phone_numbers');
    const items = [
      {
        Put: {
          TableName: this.db.tableName,
          Item: { ...keys.phoneNumber(businessId, number.id), entity: 'phone_number', ...number },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: this.db.tableName,
          Item: { ...keys.numberLookup(number.number), entity: 'number_lookup', business_id: businessId, phone_number_id: number.id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      quotaTake(this.db, businessId, 'phone_numbers', quota),
    ];
    try {
      await transactCounted(this.db, items, quotaCount(this.db, businessId, 'phone_numbers', 2));
    } catch (error) {
      if (isCancelledTransaction(error, 2)) throw quotaExceeded('phone_numbers', quota);
      if (isCancelledTransaction(error)) {
        throw new ConflictError('number_taken', `${number.number} is already assigned.`, { cause: error });
      }
      throw error;
    }
  }

  /** GET /phone-numbers: one page, newest (highest id) first, read by key. */
  async pagePhoneNumbers(businessId: number, request: KeyPageRequest): Promise<KeyPage<PhoneNumber>> {
    return readKeyPage(this.db, businessPrefixQuery(businessId, keys.phoneNumberPrefix(), 'newest-first'), pageKeyAttributes(), request);
  }

  /** The business's numbers, lowest id first (the first is the default caller id). */
  async listPhoneNumbers(businessId: number): Promise<PhoneNumber[]> {
    return queryBusinessPrefix<PhoneNumber>(this.db, businessId, keys.phoneNumberPrefix());
  }

  /** The business's lowest-id number, one read. */
  async firstPhoneNumber(businessId: number): Promise<PhoneNumber | undefined> {
    const result = await this.db.doc.send(
      new QueryCommand({
        TableName: this.db.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.business(businessId).pk, ':prefix': keys.phoneNumberPrefix() },
        Limit: 1,
      }),
    );
    const item = result.Items?.[0];
    return item ? fromItem<PhoneNumber>(item) : undefined;
  }

  /** One number of this business, or undefined. */
  async findPhoneNumber(businessId: number, numberId: number): Promise<PhoneNumber | undefined> {
    const result = await this.db.doc.send(new GetCommand({ TableName: this.db.tableName, Key: keys.phoneNumber(businessId, numberId) }));
    return result.Item ? fromItem<PhoneNumber>(result.Item) : undefined;
  }

  /** Which business owns an E.164 number (inbound calls), or undefined. */
  async lookupNumber(e164: string): Promise<NumberLookup | undefined> {
    const result = await this.db.doc.send(new GetCommand({ TableName: this.db.tableName, Key: keys.numberLookup(e164) }));
    return result.Item ? fromItem<NumberLookup>(result.Item) : undefined;
  }

  /** Which of these tool ids exist for this business (one batch read; ids of others are missing). */
  async existingToolIds(businessId: number, toolIds: number[]): Promise<Set<number>> {
    return this.existingIds(toolIds, (id) => keys.tool(businessId, id));
  }

  /** Which of these knowledge base ids exist for this business (assistant configs' `knowledge_ids`). */
  async existingKnowledgeBaseIds(businessId: number, kbIds: number[]): Promise<Set<number>> {
    return this.existingIds(kbIds, (id) => keys.knowledgeBase(businessId, id));
  }

  private async existingIds(ids: number[], keyOf: (id: number) => Record<string, string>): Promise<Set<number>> {
    const unique = [...new Set(ids)];
    const found = new Set<number>();
    for (let i = 0; i < unique.length; i += 100) {
      let request: Record<string, { Keys: Record<string, string>[]; ProjectionExpression: string }> | undefined = {
        [this.db.tableName]: {
          Keys: unique.slice(i, i + 100).map(keyOf),
          ProjectionExpression: 'id',
        },
      };
      while (request && Object.keys(request).length > 0) {
        const result = await this.db.doc.send(new BatchGetCommand({ RequestItems: request }));
        for (const item of result.Responses?.[this.db.tableName] ?? []) found.add(Number(item.id));
        request = result.UnprocessedKeys as typeof request;
      }
    }
    return found;
  }
}
