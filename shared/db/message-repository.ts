import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ListMessagesOptions, Message } from '../domain/message';
import type { Db } from './client';
import { firstItems, fromItem } from './items';
import { GSI1, keys } from './table';

/**
 * Messages callers left with an assistant (take_message, notify_team). Each lives in its business's
 * partition (`keys.message`) and in the business's newest-first index (`keys.messageByBusiness`),
 * so no read can reach another business's messages. Messages are the business's records: they
 * outlive the call's `keep_days`.
 */
export class MessageRepository {
  constructor(private readonly db: Db) {}

  /** Stores a new message (ids are unique, so the write never overwrites). */
  async putMessage(businessId: number, message: Message): Promise<void> {
    await this.db.doc.send(
      new PutCommand({
        TableName: this.db.tableName,
        Item: {
          ...keys.message(businessId, message.id),
          ...keys.messageByBusiness(businessId, message.created_at, message.id),
          entity: 'message',
          ...message,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  /** One message, or undefined when it is missing or another business's. */
  async getMessage(businessId: number, messageId: number): Promise<Message | undefined> {
    const { Item } = await this.db.doc.send(new GetCommand({ TableName: this.db.tableName, Key: keys.message(businessId, messageId) }));
    return Item ? fromItem<Message>(Item) : undefined;
  }

  /**
   * One page of messages, newest first: `from`/`to` narrow the index's key range, `call_id` and
   * `urgent` filter. As for calls, the query walks until offset + limit + 1 matches are seen (the
   * offset is bounded by the API), and the extra one tells `has_more`.
   */
  async listMessages(businessId: number, options: ListMessagesOptions): Promise<{ messages: Message[]; hasMore: boolean }> {
    const wanted = options.offset + options.limit + 1;
    const values: Record<string, unknown> = {
      ':pk': keys.messageByBusinessPartition(businessId),
      // Keys are `<created_at>#<id>`: `from` itself sorts before `from#id` (inclusive) and `to` before
      // `to#id` (exclusive); '0' and '~' sort before and after every timestamp.
      ':from': options.from ?? '0',
      ':to': options.to ?? '~',
    };
    const filters: string[] = [];
    if (options.callId !== undefined) {
      filters.push('call_id = :call');
      values[':call'] = options.callId;
    }
    if (options.urgent !== undefined) {
      filters.push('urgent = :urgent');
      values[':urgent'] = options.urgent;
    }
    const found = await firstItems(
      this.db,
      {
        IndexName: GSI1,
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
        ...(filters.length > 0 && { FilterExpression: filters.join(' AND ') }),
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
      },
      wanted,
    );
    const page = found.slice(options.offset, options.offset + options.limit);
    return { messages: page.map((item) => fromItem<Message>(item)), hasMore: found.length > options.offset + options.limit };
  }
}
