import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ListMessagesOptions, Message } from '../domain/message';
import type { Db } from './client';
import { fromItem } from './items';
import { readKeyPage, type KeyPage, type KeyPageRequest } from './key-pages';
import { GSI1, keys, pageKeyAttributes } from './table';

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
   * One page of messages, newest first, read by key: `from`/`to` narrow the index's key range,
   * `call_id` and `urgent` filter (at most `MAX_EXAMINED_PER_PAGE` examined per page).
   */
  async listMessages(businessId: number, options: Omit<ListMessagesOptions, 'cursor'> & KeyPageRequest): Promise<KeyPage<Message>> {
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
    const query = {
      IndexName: GSI1,
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
      ...(filters.length > 0 && { FilterExpression: filters.join(' AND ') }),
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
    };
    return readKeyPage<Message>(this.db, query, pageKeyAttributes(GSI1), options);
  }
}
