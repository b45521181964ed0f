import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { CONFLICT_BACKOFF, fullJitterMs } from '../domain/backoff';
import type { CallRecord } from './call-record';
import type { Db } from './client';
import { isCancelledTransaction, isTransactionConflict } from './conditions';
import { keys } from './table';

/** Whole minutes charged for a call of this length (rounded up; a 0 s call costs nothing). */
export function billableMinutes(durationSeconds: number): number {
  return Math.max(0, Math.ceil(durationSeconds / 60));
}

const MAX_TRIES = 12;

/** The fields of a call item that settling reads. */
export type SettleState = Pick<CallRecord, 'reserved_minutes' | 'settled'>;

/**
 * The plan's minutes ledger (docs/design.md "Other rules"). Before dialling, the engine reserves the call's possible
 * length from what is left, with a write conditioned on there still being room for it, so two
 * calls can never reserve the same minute and calls dialled together do not fail each other. When
 * the call ends, one transaction guarded by the call's `settled` flag charges the real minutes and
 * releases the reservation: a retried or concurrent ending charges once. Unlike the rate limiter
 * this fails closed: money is involved.
 */
export class MinutesRepository {
  /** Transactions retried after a backoff because they lost to a concurrent write on the business item. */
  readonly stats = { conflicts: 0 };

  constructor(
    private readonly db: Db,
    /** Pause before retrying a lost transaction (ms): full jitter, so racers spread out. */
    private readonly backoffMs: (attempt: number) => number = (attempt) => fullJitterMs(attempt, CONFLICT_BACKOFF, Math.random),
  ) {}

  /**
   * Reserves up to `wantedMinutes` for the call; returns what was reserved (0: nothing left). With
   * `maxDurationS`, the same write stores the call's `time_limit_s`: the lesser of that and the
   * minutes reserved, the length the engine lets the call run (inbound calls use this: they have
   * no other write before the stream starts).
   *
   * The balance is read plainly (eventually consistent) first; the write's condition keeps it
   * exact. Only a refusal is confirmed with a consistent read, since a stale "nothing left" would
   * fail a call the plan can pay for. A write that lost to a concurrent one backs off (full jitter).
   */
  async reserve(businessId: number, callId: number, wantedMinutes: number, maxDurationS?: number): Promise<number> {
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      let { balance, reserved } = await this.readLedger(businessId, false);
      if (Math.min(wantedMinutes, balance - reserved) <= 0) ({ balance, reserved } = await this.readLedger(businessId, true));
      const granted = Math.min(wantedMinutes, balance - reserved);
      if (granted <= 0) return 0;
      try {
        await this.db.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: this.db.tableName,
                  Key: keys.business(businessId),
                  UpdateExpression: 'SET minutes_reserved = minutes_reserved + :granted',
                  // Not "unchanged since the read": calls dialled together would fail each other's
                  // reservations and retry in a storm. Enough room is enough: reserved ≤ balance − granted
                  // with the balance not below what was read keeps reserved + granted ≤ balance.
                  ConditionExpression: 'minutes_balance >= :balance AND minutes_reserved <= :room',
                  ExpressionAttributeValues: { ':granted': granted, ':balance': balance, ':room': balance - granted },
                },
              },
              {
                Update: {
                  TableName: this.db.tableName,
                  Key: keys.call(businessId, callId),
                  UpdateExpression:
                    maxDurationS === undefined
                      ? 'SET reserved_minutes = :granted'
                      : 'SET reserved_minutes = :granted, time_limit_s = :limit',
                  ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(reserved_minutes)',
                  ExpressionAttributeValues: {
                    ':granted': granted,
                    ...(maxDurationS !== undefined && { ':limit': Math.min(maxDurationS, granted * 60) }),
                  },
                },
              },
            ],
          }),
        );
        return granted;
      } catch (error) {
        if (!isCancelledTransaction(error)) throw error;
        if (isCancelledTransaction(error, 1)) return this.alreadyReserved(businessId, callId);
        // The business moved since the read (another reservation, or a conflicting transaction).
        await this.backOff(attempt);
      }
    }
    throw new Error(`Could not reserve minutes for call ${callId}: the balance kept changing.`);
  }

  /**
   * Charges the call's real length and releases its reservation, once. Returns the minutes charged,
   * or null when the call was already settled. A call is never charged more than it reserved: the
   * engine ends a call at its reservation, and the seconds past it (the end-call message, the
   * carrier's 15 s backstop) must not take the balance below zero; a call that reserved nothing
   * (it never connected) is charged nothing.
   *
   * `known`: the call item as the caller just read or wrote it (a call's ending has it from its own
   * conditional write), which saves reading it again. Either way the transaction also checks that
   * the call still holds the reservation it saw, so a reservation landing in between is released,
   * not leaked; on that rare miss the item is read again and the settlement retried.
   */
  async settle(businessId: number, callId: number, durationSeconds: number, known?: SettleState): Promise<number | null> {
    let call = known ?? (await this.readCall(businessId, callId));
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      if (!call || call.settled === true) return null;
      const reserved = call.reserved_minutes;
      const used = Math.min(billableMinutes(durationSeconds), reserved ?? 0);
      try {
        await this.db.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: this.db.tableName,
                  Key: keys.call(businessId, callId),
                  UpdateExpression: 'SET settled = :true, charged_minutes = :used',
                  ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(settled) AND ${reserved === undefined ? 'attribute_not_exists(reserved_minutes)' : 'reserved_minutes = :reserved'}`,
                  ExpressionAttributeValues: { ':true': true, ':used': used, ...(reserved !== undefined && { ':reserved': reserved }) },
                },
              },
              {
                Update: {
                  TableName: this.db.tableName,
                  Key: keys.business(businessId),
                  UpdateExpression: 'SET minutes_balance = minutes_balance - :used, minutes_reserved = minutes_reserved - :reserved',
                  ExpressionAttributeValues: { ':used': used, ':reserved': reserved ?? 0 },
                },
              },
            ],
          }),
        );
        return used;
      } catch (error) {
        if (!isCancelledTransaction(error)) throw error;
        if (isTransactionConflict(error)) {
          await this.backOff(attempt);
          continue;
        }
        // Settled by a concurrent ending, or reserved since we looked: the next read tells which.
        call = await this.readCall(businessId, callId);
      }
    }
    throw new Error(`Could not settle the minutes of call ${callId}: its item kept changing.`);
  }

  /** The business's balance and reserved minutes; `consistent` for a strongly consistent read. */
  private async readLedger(businessId: number, consistent: boolean): Promise<{ balance: number; reserved: number }> {
    const business = await this.db.doc.send(
      new GetCommand({ TableName: this.db.tableName, Key: keys.business(businessId), ConsistentRead: consistent }),
    );
    return { balance: Number(business.Item?.minutes_balance ?? 0), reserved: Number(business.Item?.minutes_reserved ?? 0) };
  }

  private async backOff(attempt: number): Promise<void> {
    this.stats.conflicts++;
    await new Promise((resolve) => setTimeout(resolve, this.backoffMs(attempt)));
  }

  private async readCall(businessId: number, callId: number): Promise<SettleState | undefined> {
    const call = await this.db.doc.send(
      new GetCommand({ TableName: this.db.tableName, Key: keys.call(businessId, callId), ConsistentRead: true }),
    );
    return call.Item;
  }

  private async alreadyReserved(businessId: number, callId: number): Promise<number> {
    return Number((await this.readCall(businessId, callId))?.reserved_minutes ?? 0);
  }
}
