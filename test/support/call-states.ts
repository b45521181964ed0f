import type { CallRepository } from '../../shared/db/call-repository';
import type { IdAllocator } from '../../shared/db/ids';
import type { EndedReason } from '../../shared/domain/call';
import { initialCallRecord } from '../../shared/services/call-views';

/** A new outbound call's record (queued, assistant 1, fixed numbers), as the API would create it. */
export function outboundCallRecord(id: number, businessId: number, now: string) {
  return initialCallRecord({
    id,
    business_id: businessId,
    assistant_id: 1,
    direction: 'outbound',
    from_number: '+15550100001',
    to_number: '+14155550123',
    phone_number_id: null,
    variables: {},
    now,
  });
}

/** A queued outbound call (no slot, no minutes) of `businessId`, or of a fresh business, through the repository's own insert. */
export async function seedQueuedCall(
  calls: CallRepository,
  ids: IdAllocator,
  businessId?: number,
): Promise<{ businessId: number; callId: number }> {
  businessId ??= await ids.nextId();
  const record = outboundCallRecord(await ids.nextId(), businessId, new Date().toISOString());
  await calls.insertCall(record);
  return { businessId, callId: record.id };
}

/**
 * Ends a stored call through the repository's ending write (empty detail, no charge), for tests that
 * need an ended call; the slot and reservation it must match are read from the call first.
 */
export async function endStoredCall(
  calls: CallRepository,
  businessId: number,
  callId: number,
  endedReason: EndedReason = 'caller_hung_up',
  at = new Date().toISOString(),
): Promise<void> {
  const call = await calls.getCallRecord(businessId, callId);
  if (!call) throw new Error(`No call ${callId} to end.`);
  const fields = {
    ended_at: at,
    ended_reason: endedReason,
    duration_s: 0,
    outcome: null,
    updated_at: at,
    ended_event_id: `evt_end_${callId}`,
  };
  const seen = { slotHeld: call.slot_held === true, reservedMinutes: call.reserved_minutes };
  const written = await calls.endCall(businessId, callId, fields, { transcript: [], metrics: {}, recording_key: null }, seen);
  if (written !== 'ended') throw new Error(`Call ${callId} could not be ended: it had ended already or changed.`);
}
