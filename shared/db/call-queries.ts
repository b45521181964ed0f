import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { WebhookDeliveryView } from '../domain/call';
import type { CallDetailRecord, CallRecord, ListCallsOptions } from './call-record';
import type { Db } from './client';
import { deliveryViewsFromItems } from './delivery-repository';
import { fromItem } from './items';
import { readKeyPage, type KeyPage } from './key-pages';
import { GSI1, GSI2, callItemKind, keys, pageKeyAttributes } from './table';

/** A call as GET /calls/{id} reads it: the record, its detail and its webhook deliveries. */
export interface FoundCall {
  call: CallRecord;
  detail: CallDetailRecord;
  deliveries: WebhookDeliveryView[];
}

/** The call and its detail in one query, or undefined (missing, another business's, or expired). */
export async function findCall(db: Db, businessId: number, callId: number, nowEpochSeconds: number): Promise<FoundCall | undefined> {
  const result = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.business(businessId).pk, ':prefix': keys.callItemsPrefix(callId) },
      ConsistentRead: true,
    }),
  );
  const main = result.Items?.find((item) => callItemKind(item.sk) === 'main');
  const detail = result.Items?.find((item) => callItemKind(item.sk) === 'detail');
  if (!main || isExpired(main, nowEpochSeconds)) return undefined;
  return {
    call: fromItem<CallRecord>(main),
    detail: detail ? fromItem<CallDetailRecord>(detail) : { transcript: [], metrics: {}, recording_key: null },
    // Delivery records live under the same call prefix, so this one query returns them too.
    deliveries: deliveryViewsFromItems(result.Items ?? []),
  };
}

/**
 * One page of calls, newest first by creation, read by key: the creation window is the index's
 * key range; `direction`, `channel`, `status`, `outcome` and the expiry (`keep_days`) are filters, so a page
 * examines at most `MAX_EXAMINED_PER_PAGE` calls. An `offset` skips that many matching calls first,
 * reading their keys: the one cost that grows with the request (docs/api-tour.md "Paging").
 */
export async function listCalls(db: Db, businessId: number, options: ListCallsOptions): Promise<KeyPage<CallRecord>> {
  const byAssistant = options.assistantId !== undefined;
  const filters = ['(attribute_not_exists(expires_at) OR expires_at > :now)'];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {
    ':pk': byAssistant ? keys.callByAssistantPartition(businessId, options.assistantId!) : keys.callByBusinessPartition(businessId),
    ':now': options.nowEpochSeconds,
    // Keys are `<created_at>#<id>`: `after` itself sorts before `after#id` (inclusive), `before`
    // before `before#id` (exclusive); '0' and '~' sort before and after every timestamp.
    ':after': options.createdAfter ?? '0',
    ':before': options.createdBefore ?? '~',
  };
  for (const [field, value] of [
    ['direction', options.direction],
    ['channel', options.channel],
    ['status', options.status],
    ['outcome', options.outcome],
  ] as const) {
    if (value === undefined) continue;
    filters.push(`#${field} = :${field}`);
    names[`#${field}`] = field;
    values[`:${field}`] = value;
  }
  const index = byAssistant ? GSI2 : GSI1;
  return readKeyPage<CallRecord>(
    db,
    {
      IndexName: index,
      KeyConditionExpression: `${index}pk = :pk AND ${index}sk BETWEEN :after AND :before`,
      FilterExpression: filters.join(' AND '),
      ...(Object.keys(names).length > 0 && { ExpressionAttributeNames: names }),
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
    },
    pageKeyAttributes(index),
    options,
  );
}

function isExpired(item: Record<string, unknown>, nowEpochSeconds: number): boolean {
  return typeof item.expires_at === 'number' && item.expires_at <= nowEpochSeconds;
}
