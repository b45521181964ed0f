import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '../errors';
import type { Db } from './client';
import { isCancelledTransaction } from './conditions';
import { keys } from './table';

/**
 * A business's secret calendar feed: a global lookup from the token's SHA-256 to the business
 * (calendar apps cannot send an API key, so the token in the URL is the credential), and the hash
 * on the business item. Only hashes are stored; the token is shown once.
 */
export class CalendarFeedRepository {
  constructor(private readonly db: Db) {}

  /**
   * Points the business's feed at `newHash`, dropping the lookup of `oldHash` (the hash the
   * business item holds now, or undefined) in the same transaction, so a rotated token stops
   * working the moment the new one starts. A concurrent rotation makes this one fail (409-free:
   * the caller retries with the fresh business).
   */
  async replaceFeed(businessId: number, newHash: string, oldHash: string | undefined): Promise<boolean> {
    const table = this.db.tableName;
    try {
      await this.db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: table,
                Key: keys.business(businessId),
                UpdateExpression: 'SET calendar_feed_hash = :new',
                ConditionExpression:
                  oldHash === undefined
                    ? 'attribute_exists(pk) AND attribute_not_exists(calendar_feed_hash)'
                    : 'attribute_exists(pk) AND calendar_feed_hash = :old',
                ExpressionAttributeValues: { ':new': newHash, ...(oldHash === undefined ? {} : { ':old': oldHash }) },
              },
            },
            {
              Put: {
                TableName: table,
                Item: { ...keys.calendarFeedLookup(newHash), entity: 'calendar_feed', business_id: businessId },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            ...(oldHash === undefined ? [] : [{ Delete: { TableName: table, Key: keys.calendarFeedLookup(oldHash) } }]),
          ],
        }),
      );
      return true;
    } catch (error) {
      if (isCancelledTransaction(error)) return false;
      throw error;
    }
  }

  /** Revokes the feed whose hash the business holds; NotFoundError when it has none. */
  async removeFeed(businessId: number, oldHash: string | undefined): Promise<void> {
    if (oldHash === undefined) throw new NotFoundError('The business has no calendar feed.');
    try {
      await this.db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.db.tableName,
                Key: keys.business(businessId),
                UpdateExpression: 'REMOVE calendar_feed_hash',
                ConditionExpression: 'calendar_feed_hash = :old',
                ExpressionAttributeValues: { ':old': oldHash },
              },
            },
            { Delete: { TableName: this.db.tableName, Key: keys.calendarFeedLookup(oldHash) } },
          ],
        }),
      );
    } catch (error) {
      if (isCancelledTransaction(error)) throw new NotFoundError('The business has no calendar feed.');
      throw error;
    }
  }

  /** The business a feed token hash belongs to, or undefined (unknown or revoked). */
  async findFeed(tokenHash: string): Promise<number | undefined> {
    const result = await this.db.doc.send(new GetCommand({ TableName: this.db.tableName, Key: keys.calendarFeedLookup(tokenHash) }));
    return result.Item ? Number(result.Item.business_id) : undefined;
  }
}
