import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { WebhookDeliveryView } from '../domain/call';
import type { CallDetailRecord, CallRecord, ListCallsOptions } from './call-record';
import type { Db } from './client';
import { deliveryViewsFromItems } from './delivery-repository';
import { firstItems, fromItem } from './items';
import { GSI1, GSI2, callItemKind, keys } from './table';

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
 * One page of calls, newest first. DynamoDB has no offset, so the query walks the index until
 * offset + limit + 1 matching items are seen: cost grows with the offset (bounded by the API's
 * limit of 200 per page); the extra item tells `has_more`.
 */
export async function listCalls(db: Db, businessId: number, options: ListCallsOptions): Promise<{ calls: CallRecord[]; hasMore: boolean }> {
  const wanted = options.offset + options.limit + 1;
  const byAssistant = options.assistantId !== undefined;
  const filters = ['(attribute_not_exists(expires_at) OR expires_at > :now)'];
  const values: Record<string, unknown> = {
    ':pk': byAssistant ? keys.callByAssistantPartition(businessId, options.assistantId!) : keys.callByBusinessPartition(businessId),
    ':now': options.nowEpochSeconds,
  };
  if (options.direction) {
    filters.push('direction = :direction');
    values[':direction'] = options.direction;
  }
  const found = await firstItems(
    db,
    {
      IndexName: byAssistant ? GSI2 : GSI1,
      KeyConditionExpression: byAssistant ? 'gsi2pk = :pk' : 'gsi1pk = :pk',
      FilterExpression: filters.join(' AND '),
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
    },
    wanted,
  );
  const pageItems = found.slice(options.offset, options.offset + options.limit);
  return { calls: pageItems.map((item) => fromItem<CallRecord>(item)), hasMore: found.length > options.offset + options.limit };
}

function isExpired(item: Record<string, unknown>, nowEpochSeconds: number): boolean {
  return typeof item.expires_at === 'number' && item.expires_at <= nowEpochSeconds;
}
