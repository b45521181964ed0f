import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { CallDetailRecord, CallRecord } from './call-record';
import type { Db } from './client';
import { isCancelledTransaction } from './conditions';
import { keys } from './table';

/**
 * A call's first write: its main and detail items, and for an inbound call the marker that makes
 * the carrier's CallSid create one call however often its webhook is replayed.
 */

/**
 * The put items of a new call (main + detail) for a transaction, so callers can write them
 * together with other records (idempotency, reservations) in one round trip.
 */
export function newCallItems(db: Db, record: CallRecord) {
  const businessId = record.business_id;
  // A call is open (in GSI3) from its creation until its ending is complete.
  const open = record.status !== 'ended' || record.finish_pending === true;
  const main = {
    ...keys.call(businessId, record.id),
    ...keys.callByBusiness(businessId, record.created_at, record.id),
    ...keys.callByAssistant(businessId, record.assistant_id, record.created_at, record.id),
    ...(open && keys.openCall(businessId, record.status, record.id)),
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
    Put: { TableName: db.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
  });
  return [put(main), put(detail)];
}

/**
 * Inserts an inbound call together with a marker keyed by the carrier's CallSid, in one
 * transaction conditioned on the marker not existing: however often (or however concurrently)
 * the carrier's voice webhook is replayed, one call is created. Returns 'inserted', or the id of
 * the call the CallSid already made. The marker expires with `markerExpiresAt` (epoch seconds).
 */
export async function insertInboundCall(
  db: Db,
  record: CallRecord,
  carrierCallSid: string,
  markerExpiresAt: number,
): Promise<'inserted' | { existingCallId: number }> {
  const marker = {
    Put: {
      TableName: db.tableName,
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
    await db.doc.send(new TransactWriteCommand({ TransactItems: [marker, ...newCallItems(db, record)] }));
    return 'inserted';
  } catch (error) {
    if (!isCancelledTransaction(error, 0)) throw error;
    const existing = await findInboundCallId(db, record.business_id, carrierCallSid);
    if (existing === undefined) throw error;
    return { existingCallId: existing };
  }
}

/** The id of the call an inbound CallSid made, if any. */
export async function findInboundCallId(db: Db, businessId: number, carrierCallSid: string): Promise<number | undefined> {
  const result = await db.doc.send(
    new GetCommand({ TableName: db.tableName, Key: keys.inboundCallSid(businessId, carrierCallSid), ConsistentRead: true }),
  );
  return typeof result.Item?.call_id === 'number' ? result.Item.call_id : undefined;
}
