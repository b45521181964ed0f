import { GetCommand, PutCommand, UpdateCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import type { WebhookDeliveryView } from '../domain/call';
import type { Db } from './client';
import { fromItem } from './items';
import { callItemKind, keys } from './table';
import { isConditionFailure } from './conditions';

/** Delivery states: retried on schedule while `pending`; `failed` is the dead-letter record. */
export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** One recorded attempt, as GET /calls/{id} shows it. */
export interface DeliveryAttemptRecord {
  at: string;
  status: number | null;
  latency_ms: number;
  error: string | null;
}

/** One webhook event's delivery to one call's server URL, stored in the call's partition. */
export interface DeliveryRecord {
  business_id: number;
  call_id: number;
  /** The event id: the `webhook-id` header on every attempt, so receivers can de-duplicate. */
  webhook_id: string;
  event_type: WebhookDeliveryView['event_type'];
  /** When the event happened: the payload's `timestamp` on every attempt. */
  occurred_at: string;
  url: string;
  state: DeliveryState;
  attempts: DeliveryAttemptRecord[];
  /** ISO time of the next scheduled attempt while pending; null once settled. */
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
  /** Copied from the call so DynamoDB TTL removes the record with it (advanced.keep_days). */
  expires_at?: number;
}

/** What a new delivery starts with. */
export type NewDelivery = Omit<DeliveryRecord, 'state' | 'attempts' | 'updated_at'>;

/** True for a raw table item that is a delivery record (for callers that already queried the call's items). */
function isDeliveryItem(item: Record<string, unknown>): boolean {
  return callItemKind(item.sk) === 'delivery' && item.entity === 'webhook_delivery';
}

/** The public view of a delivery (GET /calls/{id} `webhook_deliveries[]`). */
export function toDeliveryView(record: DeliveryRecord): WebhookDeliveryView {
  return {
    event_type: record.event_type,
    webhook_id: record.webhook_id,
    attempts: record.attempts.map((a) => ({ at: a.at, status: a.status, latency_ms: a.latency_ms, error: a.error })),
    state: record.state,
  };
}

/**
 * Views of the delivery items among a call's raw items, oldest first. Lets a reader that already
 * ran the `begins_with(sk, CALL#<id>#)` query build `webhook_deliveries` without a second read.
 */
export function deliveryViewsFromItems(items: readonly Record<string, unknown>[]): WebhookDeliveryView[] {
  return items
    .filter(isDeliveryItem)
    .map((item) => fromItem<DeliveryRecord>(item))
    .sort(byCreation)
    .map(toDeliveryView);
}

function byCreation(a: DeliveryRecord, b: DeliveryRecord): number {
  return a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.webhook_id.localeCompare(b.webhook_id);
}

/** Webhook delivery records: created on the first attempt, one conditional update per attempt. */
export class DeliveryRepository {
  constructor(private readonly db: Db) {}

  /** Creates the delivery unless it exists (a redelivered message); returns the stored record either way. */
  async ensureDelivery(input: NewDelivery): Promise<DeliveryRecord> {
    const record: DeliveryRecord = { ...input, state: 'pending', attempts: [], updated_at: input.created_at };
    try {
      await this.db.doc.send(
        new PutCommand({
          TableName: this.db.tableName,
          Item: { ...keys.callDelivery(input.business_id, input.call_id, input.webhook_id), entity: 'webhook_delivery', ...record },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return record;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const existing = await this.findDelivery(input.business_id, input.call_id, input.webhook_id);
      if (!existing) throw error;
      return existing;
    }
  }

  /** One delivery, or undefined. */
  async findDelivery(businessId: number, callId: number, eventId: string): Promise<DeliveryRecord | undefined> {
    const result = await this.db.doc.send(
      new GetCommand({ TableName: this.db.tableName, Key: keys.callDelivery(businessId, callId, eventId), ConsistentRead: true }),
    );
    return result.Item ? fromItem<DeliveryRecord>(result.Item) : undefined;
  }

  /**
   * Appends attempt number `attempts.length + 1` and sets the new state. Guarded by the attempt
   * count and `pending`, so a duplicate queue message can never record the same attempt twice:
   * returns undefined when another worker got there first.
   */
  async recordAttempt(
    previous: DeliveryRecord,
    attempt: DeliveryAttemptRecord,
    next: { state: DeliveryState; nextAttemptAt: string | null; now: string },
  ): Promise<DeliveryRecord | undefined> {
    try {
      const result = await this.db.doc.send(
        new UpdateCommand({
          TableName: this.db.tableName,
          Key: keys.callDelivery(previous.business_id, previous.call_id, previous.webhook_id),
          UpdateExpression: 'SET attempts = list_append(attempts, :attempt), #state = :state, next_attempt_at = :next, updated_at = :now',
          ConditionExpression: 'attribute_exists(pk) AND size(attempts) = :count AND #state = :pending',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':attempt': [attempt],
            ':state': next.state,
            ':next': next.nextAttemptAt,
            ':now': next.now,
            ':count': previous.attempts.length,
            ':pending': 'pending',
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return fromItem<DeliveryRecord>(result.Attributes!);
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  /** Every delivery record of a call, oldest first. */
  async listDeliveryRecords(businessId: number, callId: number): Promise<DeliveryRecord[]> {
    const records: DeliveryRecord[] = [];
    const pages = paginateQuery(
      { client: this.db.doc },
      {
        TableName: this.db.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.business(businessId).pk, ':prefix': keys.callDeliveriesPrefix(callId) },
        ConsistentRead: true,
      },
    );
    for await (const page of pages) records.push(...(page.Items ?? []).map((item) => fromItem<DeliveryRecord>(item)));
    return records.sort(byCreation);
  }

  /** The call's deliveries as GET /calls/{id} shows them (`webhook_deliveries`), oldest first. */
  async listDeliveriesForCall(businessId: number, callId: number): Promise<WebhookDeliveryView[]> {
    return (await this.listDeliveryRecords(businessId, callId)).map(toDeliveryView);
  }

  /** Every delivery of the business (ops listing): the call items of its partition, deliveries only. */
  async listDeliveryRecordsForBusiness(businessId: number): Promise<DeliveryRecord[]> {
    const records: DeliveryRecord[] = [];
    const pages = paginateQuery(
      { client: this.db.doc },
      {
        TableName: this.db.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: 'entity = :entity',
        ExpressionAttributeValues: {
          ':pk': keys.business(businessId).pk,
          ':prefix': keys.allCallItemsPrefix(),
          ':entity': 'webhook_delivery',
        },
      },
    );
    for await (const page of pages)
      records.push(...(page.Items ?? []).filter(isDeliveryItem).map((item) => fromItem<DeliveryRecord>(item)));
    return records;
  }
}
