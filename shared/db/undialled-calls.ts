import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { CONFLICT_BACKOFF, fullJitterMs } from '../domain/backoff';
import type { CallRecord } from './call-record';
import type { Db } from './client';
import { cancelledTransactionItem, isCancelledTransaction, isTransactionConflict } from './conditions';
import { fromItem } from './items';
import { keys } from './table';

const MAX_TRIES = 12;

/** Who gives a claimed call back, when, and whether the attempt counts against the call's dial limit. */
export interface UndialledRequeue {
  /** The consumer holding the claim: only its claim is given back. */
  owner: string;
  at: string;
  /** Adds one to the call's `dial_failures` (a carrier that refused to queue it; our own failures do not count). */
  countFailure: boolean;
}

/**
 * Puts a claimed call that was never dialled back to waiting, in one transaction: its claim, its
 * concurrency slot and its minutes reservation (whichever it holds: an admission that failed
 * ambiguously may have landed or not) are all given back, so the call stands as before its claim
 * and can be claimed and admitted again. Unlike an ending, the slot is given back by removing
 * `slot_held` (not setting `slot_released`), and the reservation by removing `reserved_minutes`
 * (not settling it): that is what lets the next admission take them again, and the transaction's
 * conditions (this owner's claim, the slot and reservation as read, no carrier sid) make it happen
 * at most once per admission, so neither counter is ever given back twice.
 *
 * True when the call is still queued and undialled, so it needs a job to come back (a duplicate
 * is harmless: claims are conditional): given back now, or by an earlier attempt whose answer was
 * lost (nobody gives back another's claim, so a claim no longer `owner`'s was given back, or is
 * another job's to dial). False when it has ended, was dialled or is gone.
 */
export async function requeueUndialled(
  db: Db,
  businessId: number,
  callId: number,
  requeue: UndialledRequeue,
  backoffMs: (attempt: number) => number = (attempt) => fullJitterMs(attempt, CONFLICT_BACKOFF, Math.random),
): Promise<boolean> {
  let call = await readCall(db, businessId, callId);
  let keepCounter = false;
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    if (!call || call.status !== 'queued' || call.carrier_call_sid !== undefined) return false;
    if (call.claimed_by !== requeue.owner) return true;
    try {
      await db.doc.send(new TransactWriteCommand({ TransactItems: requeueItems(db, call, requeue, keepCounter) }));
      return true;
    } catch (error) {
      const changed = cancelledTransactionItem(error, 0);
      // The call moved since it was read (ended, dialled, an admission landing late): look again.
      if (changed) call = changed.item && fromItem<CallRecord>(changed.item);
      else if (isTransactionConflict(error)) await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt)));
      // live_calls is already 0 (ops reset it while calls were live): give back without taking it below zero.
      else if (isCancelledTransaction(error, 1)) keepCounter = true;
      else throw error;
    }
  }
  throw new Error(`Could not give back the claim of call ${callId}: its item kept changing.`);
}

function requeueItems(db: Db, call: CallRecord, requeue: UndialledRequeue, keepCounter: boolean) {
  const holdsSlot = call.slot_held === true && call.slot_released !== true;
  const reserved = call.reserved_minutes;
  const removes = [...(holdsSlot ? ['slot_held'] : []), ...(reserved !== undefined ? ['reserved_minutes'] : [])];
  const decrement = holdsSlot && !keepCounter;
  const callItem = {
    Update: {
      TableName: db.tableName,
      Key: keys.call(call.business_id, call.id),
      UpdateExpression: [
        `SET claimed_by = :null, claimed_at = :null, claim_job = :null, updated_at = :at`,
        requeue.countFailure ? ', dial_failures = if_not_exists(dial_failures, :zero) + :one' : '',
        removes.length ? ` REMOVE ${removes.join(', ')}` : '',
      ].join(''),
      ConditionExpression: [
        'attribute_exists(pk) AND #status = :queued AND claimed_by = :owner AND attribute_not_exists(carrier_call_sid)',
        holdsSlot
          ? 'slot_held = :true AND attribute_not_exists(slot_released)'
          : '(attribute_not_exists(slot_held) OR slot_released = :true)',
        reserved === undefined
          ? 'attribute_not_exists(reserved_minutes)'
          : 'reserved_minutes = :reserved AND attribute_not_exists(settled)',
      ].join(' AND '),
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':null': null,
        ':at': requeue.at,
        ':queued': 'queued',
        ':owner': requeue.owner,
        ':true': true,
        ...(requeue.countFailure && { ':zero': 0, ':one': 1 }),
        ...(reserved !== undefined && { ':reserved': reserved }),
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
  if (!holdsSlot && reserved === undefined) return [callItem];
  const businessItem = {
    Update: {
      TableName: db.tableName,
      Key: keys.business(call.business_id),
      UpdateExpression: `SET minutes_reserved = minutes_reserved - :reserved${decrement ? ', live_calls = if_not_exists(live_calls, :one) - :one' : ''}`,
      ...(decrement && { ConditionExpression: 'live_calls > :zero' }),
      ExpressionAttributeValues: { ':reserved': reserved ?? 0, ...(decrement && { ':one': 1, ':zero': 0 }) },
    },
  };
  return [callItem, businessItem];
}

async function readCall(db: Db, businessId: number, callId: number): Promise<CallRecord | undefined> {
  const result = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keys.call(businessId, callId), ConsistentRead: true }));
  return result.Item ? fromItem<CallRecord>(result.Item) : undefined;
}
