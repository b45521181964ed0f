import { GetCommand, TransactWriteCommand, UpdateCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { readProfile, type BusinessProfile } from '../domain/business-profile';
import { NotFoundError } from '../errors';
import type { Db } from './client';
import { isConditionFailure } from './conditions';
import { fromItem, queryBusinessPrefix } from './items';
import { GSI1, keys } from './table';

/** A business (tenant): plan minutes, concurrency cap, profile and its sealed webhook secret. */
export interface Business {
  id: number;
  name: string;
  created_at: string;
  minutes_balance: number;
  minutes_reserved: number;
  max_concurrent_calls: number;
  /** Calls holding a concurrency slot (ringing or in progress); absent until the first call takes one. */
  live_calls?: number;
  profile: BusinessProfile;
  webhook_secret_sealed: string;
  /** The assistant answering inbound calls on numbers with none assigned (kept by AssistantRepository). */
  default_assistant_id?: number;
  /** The business's payment provider key, sealed (write-only through PATCH /business). */
  payment_key_sealed?: string;
  /** SHA-256 of the calendar feed token, when a feed exists (the token itself is never stored). */
  calendar_feed_hash?: string;
}

/** A stored business item as a Business, its profile read with every field present. */
function toBusiness(item: Record<string, unknown>): Business {
  const business = fromItem<Business>(item);
  return { ...business, profile: readProfile(business.profile) };
}

/** What the auth layer learns from an API key hash. */
export interface ApiKeyRecord {
  business_id: number;
  key_hash: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

/** Businesses and their API keys (ops command line and authentication). */
export class BusinessRepository {
  constructor(private readonly db: Db) {}

  /**
   * Creates the business record and its entry in the all-businesses listing, together; the id must
   * be fresh (conditional puts). The listing entry is written once and never again, so the
   * business item's frequent rewrites never touch the listing's single partition.
   */
  async putBusiness(business: Business): Promise<void> {
    const put = (item: Record<string, unknown>) => ({
      Put: { TableName: this.db.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
    });
    await this.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          put({ ...keys.business(business.id), entity: 'business', ...business }),
          put({
            ...keys.businessDirectory(business.id),
            ...keys.businessIndex(business.id),
            entity: 'business_directory',
            id: business.id,
          }),
        ],
      }),
    );
  }

  /**
   * Every business id, in id order (GSI1 `SYS#BUSINESSES`): the call sweeper walks each business's
   * calls. Ids only, so a page holds thousands of businesses.
   */
  async listBusinessIds(): Promise<number[]> {
    const ids: number[] = [];
    const pages = paginateQuery(
      { client: this.db.doc },
      {
        TableName: this.db.tableName,
        IndexName: GSI1,
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.businessIndexPartition() },
        ProjectionExpression: 'id',
      },
    );
    for await (const page of pages) ids.push(...(page.Items ?? []).map((item) => Number(item.id)));
    // A business created before the listing had its own items appears twice (its old business item
    // still carries the index keys): once is enough.
    return [...new Set(ids)];
  }

  /** The business, or NotFoundError. */
  async getBusiness(businessId: number): Promise<Business> {
    const result = await this.db.doc.send(new GetCommand({ TableName: this.db.tableName, Key: keys.business(businessId) }));
    const business = result.Item ? toBusiness(result.Item) : undefined;
    if (!business) throw new NotFoundError(`Business ${businessId} does not exist.`);
    return business;
  }

  /** Sets one or more top-level attributes of an existing business; a field given as undefined is removed. */
  async updateBusiness(businessId: number, fields: Partial<Omit<Business, 'id' | 'created_at'>>): Promise<Business> {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const removes: string[] = [];
    const sets = Object.entries(fields).flatMap(([field, value], i) => {
      names[`#f${i}`] = field;
      if (value === undefined) {
        removes.push(`#f${i}`);
        return [];
      }
      values[`:v${i}`] = value;
      return [`#f${i} = :v${i}`];
    });
    try {
      const result = await this.db.doc.send(
        new UpdateCommand({
          TableName: this.db.tableName,
          Key: keys.business(businessId),
          UpdateExpression: [sets.length > 0 ? `SET ${sets.join(', ')}` : '', removes.length > 0 ? `REMOVE ${removes.join(', ')}` : '']
            .join(' ')
            .trim(),
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
          ...(sets.length > 0 ? { ExpressionAttributeValues: values } : {}),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toBusiness(result.Attributes!);
    } catch (error) {
      if (isConditionFailure(error)) throw new NotFoundError(`Business ${businessId} does not exist.`);
      throw error;
    }
  }

  /** Stores a new key hash: the global lookup and the business's own record, together. */
  async putApiKey(record: ApiKeyRecord): Promise<void> {
    const item = { entity: 'api_key', ...record };
    await this.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            ConditionCheck: {
              TableName: this.db.tableName,
              Key: keys.business(record.business_id),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          {
            Put: {
              TableName: this.db.tableName,
              Item: { ...keys.apiKeyLookup(record.key_hash), ...item },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          { Put: { TableName: this.db.tableName, Item: { ...keys.apiKey(record.business_id, record.key_hash), ...item } } },
        ],
      }),
    );
  }

  /** The key record for a hash, or undefined (unknown key). */
  async findApiKey(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const result = await this.db.doc.send(new GetCommand({ TableName: this.db.tableName, Key: keys.apiKeyLookup(keyHash) }));
    return result.Item ? fromItem<ApiKeyRecord>(result.Item) : undefined;
  }

  /** The business's keys (hashes and display prefixes only). */
  async listApiKeys(businessId: number): Promise<ApiKeyRecord[]> {
    return queryBusinessPrefix<ApiKeyRecord>(this.db, businessId, keys.apiKeyPrefix());
  }

  /** Marks a key revoked in both places at once. */
  async revokeApiKey(businessId: number, keyHash: string, revokedAt: string): Promise<void> {
    const update = (key: Record<string, string>) => ({
      Update: {
        TableName: this.db.tableName,
        Key: key,
        UpdateExpression: 'SET revoked_at = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': revokedAt },
      },
    });
    await this.db.doc.send(
      new TransactWriteCommand({
        TransactItems: [update(keys.apiKeyLookup(keyHash)), update(keys.apiKey(businessId, keyHash))],
      }),
    );
  }
}
