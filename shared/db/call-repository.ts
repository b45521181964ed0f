import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Call, CallMetrics, TranscriptEntry, WebhookDeliveryView } from '../domain/call';
import { deliveryViewsFromItems } from './delivery-repository';
import type { Db, TransactionItem } from './client';
import { isCancelledTransaction } from './conditions';
import { fromItem } from './items';
import { GSI1, GSI2, keys } from './table';

/** The stored call: the public Call fields plus what the engine and analysis need. */
export interface CallRecord extends Call {
  business_id: number;
  created_at: string;
  updated_at: string;
  phone_number_id: number | null;
  variables: Record<string, string>;
  /** Epoch seconds after which the call is gone (advanced.keep_days); hidden on read past it. */
  expires_at?: number;
  [engineField: string]: unknown;
}

/** The heavy part of a call, kept out of list reads. */
export interface CallDetailRecord {
  transcript: TranscriptEntry[];
  metrics: CallMetrics | Record<string, never>;
  recording_key: string | null;
  expires_at?: number;
}

/** A condition on the call item (an expression over its attributes, with its names and values). */
export interface CallCondition {
  expression: string;
  values?: Record<string, unknown>;
  names?: Record<string, string>;
}

/** What {@link CallRepository.updateCallIf} did, and the call as it now stands. */
export type ConditionalUpdate = { written: true; call: CallRecord } | { written: false; call: CallRecord | undefined };

/** Why a media stream may not attach to a call (see {@link CallRepository.attachStream}). */
export type StreamRefusal = 'unknown_call' | 'already_ended' | 'wrong_call' | 'already_attached';

/** Filters and page of GET /calls. */
export interface ListCallsOptions {
  limit: number;
  offset: number;
  assistantId?: number;
  direction?: 'inbound' | 'outbound';
  nowEpochSeconds: number;
}

/** Calls of one business: created by the API, moved through their states by the call engine. */
export class CallRepository {
  constructor(private readonly db: Db) {}

  /**
   * The put items of a new call (main + detail) for a transaction, so callers can write them
   * together with other records (idempotency, reservations) in one round trip.
   */
  newCallItems(record: CallRecord) {
    const businessId = record.business_id;
    const main = {
      ...keys.call(businessId, record.id),
      ...keys.callByBusiness(businessId, record.created_at, record.id),
      ...keys.callByAssistant(businessId, record.assistant_id, record.created_at, record.id),
      entity: 'call',
      ...record,
    };
    const detail: CallDetailRecord & Record<string, unknown> = {
      ...keys.callDetail(businessId, record.id),
      entity: 'call_detail',
      transcript: [],
      metrics: {},
      recording_key: null,
    };
    const put = (item: Record<string, unknown>) => ({
      Put: { TableName: this.db.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
    });
    return [put(main), put(detail)];
  }

  /**
   * Inserts a new call (main and detail items) in one transaction, together with `alongside`:
   * writes another repository prepared that must land with the call or not at all (POST /calls:
   * the idempotency record's completion).
   */
  async insertCall(record: CallRecord, alongside: TransactionItem[] = []): Promise<void> {
    await this.db.doc.send(new TransactWriteCommand({ TransactItems: [...this.newCallItems(record), ...alongside] }));
  }

  /**
   * Inserts an inbound call together with a marker keyed by the carrier's CallSid, in one
   * transaction conditioned on the marker not existing: however often (or however concurrently)
   * the carrier's voice webhook is replayed, one call is created. Returns 'inserted', or the id of
   * the call the CallSid already made. The marker expires with `markerExpiresAt` (epoch seconds).
   */
  async insertInboundCall(
    record: CallRecord,
    carrierCallSid: string,
    markerExpiresAt: number,
  ): Promise<'inserted' | { existingCallId: number }> {
    const marker = {
      Put: {
        TableName: this.db.tableName,
        Item: {
          ...keys.inboundCallSid(record.business_id, carrierCallSid),
          entity: 'inbound_call_sid',
          call_id: record.id,
          expires_at: markerExpiresAt,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
    try {
      await this.db.doc.send(new TransactWriteCommand({ TransactItems: [marker, ...this.newCallItems(record)] }));
      return 'inserted';
    } catch (error) {
      if (!isCancelledTransaction(error, 0)) throw error;
      const existing = await this.findInboundCallId(record.business_id, carrierCallSid);
      if (existing === undefined) throw error;
      return { existingCallId: existing };
    }
  }

  /** The id of the call an inbound CallSid made, if any. */
  async findInboundCallId(businessId: number, carrierCallSid: string): Promise<number | undefined> {
    const result = await this.db.doc.send(
      new GetCommand({ TableName: this.db.tableName, Key: keys.inboundCallSid(businessId, carrierCallSid), ConsistentRead: true }),
    );
    return typeof result.Item?.call_id === 'number' ? result.Item.call_id : undefined;
  }

  /** The call and its detail in one query, or undefined (missing, another business's, or expired). */
  async findCall(
    businessId: number,
    callId: number,
    nowEpochSeconds: number,
  ): Promise<{ call: CallRecord; detail: CallDetailRecord; deliveries: WebhookDeliveryView[] } | undefined> {
    const result = await this.db.doc.send(
      new QueryCommand({
        TableName: this.db.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.business(businessId).pk, ':prefix': keys.callItemsPrefix(callId) },
        ConsistentRead: true,
      }),
    );
    const main = result.Items?.find((item) => String(item.sk).endsWith('#MAIN'));
    const detail = result.Items?.find((item) => String(item.sk).endsWith('#DETAIL'));
    if (!main || isExpired(main, nowEpochSeconds)) return undefined;
    return {
      call: fromItem<CallRecord>(main),
      detail: detail ? fromItem<CallDetailRecord>(detail) : { transcript: [], metrics: {}, recording_key: null },
      // Delivery records live under the same call prefix, so this one query returns them too.
      deliveries: deliveryViewsFromItems(result.Items ?? []),
    };
  }

  /** The call record alone (engine reads), strongly consistent. */
  async getCallRecord(businessId: number, callId: number): Promise<CallRecord | undefined> {
    const result = await this.db.doc.send(
      new GetCommand({ TableName: this.db.tableName, Key: keys.call(businessId, callId), ConsistentRead: true }),
    );
    return result.Item ? fromItem<CallRecord>(result.Item) : undefined;
  }

  /**
   * One page of calls, newest first. DynamoDB has no offset, so the query walks the index until
   * offset + limit + 1 matching items are seen: cost grows with the offset (bounded by the API's
   * limit of 200 per page); the extra item tells `has_more`.
   */
  async listCalls(businessId: number, options: ListCallsOptions): Promise<{ calls: CallRecord[]; hasMore: boolean }> {
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
    const found: Record<string, unknown>[] = [];
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await this.db.doc.send(
        new QueryCommand({
          TableName: this.db.tableName,
          IndexName: byAssistant ? GSI2 : GSI1,
          KeyConditionExpression: byAssistant ? 'gsi2pk = :pk' : 'gsi1pk = :pk',
          FilterExpression: filters.join(' AND '),
          ExpressionAttributeValues: values,
          ScanIndexForward: false,
          Limit: Math.min(wanted - found.length + 20, 1000),
          ExclusiveStartKey: cursor,
        }),
      );
      found.push(...(page.Items ?? []));
      cursor = page.LastEvaluatedKey;
    } while (cursor && found.length < wanted);
    const pageItems = found.slice(options.offset, options.offset + options.limit);
    return { calls: pageItems.map((item) => fromItem<CallRecord>(item)), hasMore: found.length > options.offset + options.limit };
  }

  /** Sets fields of the call record (engine/analysis), optionally guarded by a condition. */
  async updateCall(businessId: number, callId: number, fields: Record<string, unknown>, condition?: CallCondition): Promise<CallRecord> {
    const result = await this.db.doc.send(this.#update(businessId, callId, fields, condition));
    return fromItem<CallRecord>(result.Attributes!);
  }

  /**
   * Sets fields of the call record if `condition` holds, and returns the call either way: as
   * written, or as it stood when the condition failed (undefined when there is no such call).
   * DynamoDB returns that item with the failure (ReturnValuesOnConditionCheckFailure), so a lost
   * race costs no read to learn where the call is now.
   */
  async updateCallIf(
    businessId: number,
    callId: number,
    fields: Record<string, unknown>,
    condition: CallCondition,
  ): Promise<ConditionalUpdate> {
    try {
      const result = await this.db.doc.send(this.#update(businessId, callId, fields, condition, 'ALL_OLD'));
      return { written: true, call: fromItem<CallRecord>(result.Attributes!) };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const item = error.Item ? unmarshall(error.Item as Parameters<typeof unmarshall>[0]) : undefined;
      return { written: false, call: item ? fromItem<CallRecord>(item) : undefined };
    }
  }

  /**
   * Attaches a media stream to the call in one conditional write, and returns the call as written:
   * sets `media_started_at` and the first `heartbeat_at` to `at`, and the carrier's call sid. Writes
   * nothing and says why for a call that does not exist, has ended, was placed as another carrier
   * call (a replayed stream token), or already has a stream: attaching is a one-time claim, so a
   * second stream with the same token and call sid never hears or speaks on a live call. This
   * replaces a read before the write: the session learns the call's state from the write itself,
   * one DynamoDB round trip before the greeting.
   */
  async attachStream(businessId: number, callId: number, callSid: string, at: string): Promise<CallRecord | StreamRefusal> {
    const { written, call } = await this.updateCallIf(
      businessId,
      callId,
      { media_started_at: at, heartbeat_at: at, carrier_call_sid: callSid },
      {
        expression:
          '#status <> :ended AND attribute_not_exists(media_started_at) AND (attribute_not_exists(carrier_call_sid) OR carrier_call_sid = :sid)',
        names: { '#status': 'status' },
        values: { ':ended': 'ended', ':sid': callSid },
      },
    );
    if (written) return call;
    if (!call) return 'unknown_call';
    if (call.status === 'ended') return 'already_ended';
    return call.carrier_call_sid === callSid ? 'already_attached' : 'wrong_call';
  }

  #update(businessId: number, callId: number, fields: Record<string, unknown>, condition?: CallCondition, onFailure?: 'ALL_OLD') {
    const names: Record<string, string> = { ...condition?.names };
    const values: Record<string, unknown> = { ...condition?.values };
    const sets = Object.entries(fields).map(([field, value], i) => {
      names[`#u${i}`] = field;
      values[`:u${i}`] = value;
      return `#u${i} = :u${i}`;
    });
    return new UpdateCommand({
      TableName: this.db.tableName,
      Key: keys.call(businessId, callId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: condition ? `attribute_exists(pk) AND (${condition.expression})` : 'attribute_exists(pk)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
      ...(onFailure && { ReturnValuesOnConditionCheckFailure: onFailure }),
    });
  }

  /**
   * Ends the call and stores its detail (transcript, metrics, recording key) in one transaction,
   * so an ending never lands without what the call said. The write holds only while the call has
   * not ended and still has the slot and reservation the caller saw (`seen`): the steps that follow
   * (give the slot back, settle the minutes) act on exactly that. It also sets `finish_pending`,
   * which the follow-up clears once every step has run. `lost` (with the call as it now stands,
   * from the failed condition: no read) when the call ended meanwhile, or its slot or reservation
   * changed.
   */
  async endCall(
    businessId: number,
    callId: number,
    fields: Record<string, unknown>,
    detail: CallDetailRecord,
    seen: { slotHeld: boolean; reservedMinutes: number | undefined },
  ): Promise<'ended' | { lost: CallRecord | undefined }> {
    const update = this.#update(
      businessId,
      callId,
      { ...fields, finish_pending: true },
      {
        expression: [
          '#status <> :ended',
          seen.slotHeld ? 'slot_held = :true' : '(attribute_not_exists(slot_held) OR slot_held <> :true)',
          seen.reservedMinutes === undefined ? 'attribute_not_exists(reserved_minutes)' : 'reserved_minutes = :reserved',
        ].join(' AND '),
        names: { '#status': 'status' },
        values: { ':ended': 'ended', ':true': true, ...(seen.reservedMinutes !== undefined && { ':reserved': seen.reservedMinutes }) },
      },
    ).input;
    const updateItem = {
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
      TableName: update.TableName!,
      Key: update.Key!,
      UpdateExpression: update.UpdateExpression!,
      ...(update.ConditionExpression !== undefined && { ConditionExpression: update.ConditionExpression }),
      ...(update.ExpressionAttributeNames !== undefined && { ExpressionAttributeNames: update.ExpressionAttributeNames }),
      ...(update.ExpressionAttributeValues !== undefined && { ExpressionAttributeValues: update.ExpressionAttributeValues }),
    };
    const detailItem = {
      Put: { TableName: this.db.tableName, Item: { ...keys.callDetail(businessId, callId), entity: 'call_detail', ...detail } },
    };
    try {
      await this.db.doc.send(new TransactWriteCommand({ TransactItems: [{ Update: updateItem }, detailItem] }));
      return 'ended';
    } catch (error) {
      if (!isCancelledTransaction(error, 0)) throw error;
      const item = (error as { CancellationReasons?: { Item?: Record<string, unknown> }[] }).CancellationReasons?.[0]?.Item;
      return { lost: item ? fromItem<CallRecord>(unmarshall(item as Parameters<typeof unmarshall>[0])) : undefined };
    }
  }

  /** Replaces the call's detail item (transcript, metrics, recording key). */
  async putCallDetail(businessId: number, callId: number, detail: CallDetailRecord): Promise<void> {
    await this.db.doc.send(
      new PutCommand({
        TableName: this.db.tableName,
        Item: { ...keys.callDetail(businessId, callId), entity: 'call_detail', ...detail },
      }),
    );
  }
}

function isExpired(item: Record<string, unknown>, nowEpochSeconds: number): boolean {
  return typeof item.expires_at === 'number' && item.expires_at <= nowEpochSeconds;
}
