import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { CONFLICT_BACKOFF, fullJitterMs } from '../domain/backoff';
import type { CallRecord } from './call-record';
import type { Db } from './client';
import { isCancelledTransaction, isTransactionConflict } from './conditions';
import { billableMinutes } from './minutes-repository';
import { keys } from './table';
import { isTransientDbError } from './transient';

const MAX_TRIES = 12;

/** What became of a call asking to start: admitted (with the minutes it holds), or why not. */
export type Admission =
  | { kind: 'admitted'; reservedMinutes: number }
  | { kind: 'at_capacity' }
  | { kind: 'no_minutes' }
  /** The call ended, or already gave its slot back: it never starts. */
  | { kind: 'refused' };

/** The fields of a call item that giving back reads. */
export type GiveBackState = Pick<CallRecord, 'slot_held' | 'slot_released' | 'reserved_minutes' | 'settled'>;

/** What an admission did since it was made (observable by tests and metrics). */
export interface AdmissionStats {
  /** Transactions that lost to a concurrent one (or to a business item that moved since the read) and were retried. */
  conflicts: number;
  /** Admissions refused by the plain read of the business item, with no transaction attempted. */
  refusedByRead: number;
  /** Requests retried after a transient failure (throttled, a server error). */
  transient?: number;
}

/**
 * A call's two writes on its business's item (docs/scaling.md "Hot business item"): at the start
 * one transaction takes a concurrency slot AND reserves the call's minutes; at the end one
 * transaction gives the slot back AND settles the minutes. The call item's flags (`slot_held`,
 * `reserved_minutes`, then `slot_released`, `settled`) make both idempotent, exactly as the
 * separate slot and minutes writes were: a redelivered job never takes two slots or two
 * reservations, a retried ending never frees or charges twice, the balance never goes below zero,
 * an ended call never starts, and a call that never connected is charged nothing.
 */
export class CallAdmission {
  constructor(
    private readonly db: Db,
    readonly stats: AdmissionStats = { conflicts: 0, refusedByRead: 0 },
    /** Pause before retrying a lost transaction (ms): full jitter, so racers spread out. */
    private readonly backoffMs: (attempt: number) => number = (attempt) => fullJitterMs(attempt, CONFLICT_BACKOFF, Math.random),
  ) {}

  /**
   * Takes a slot and reserves up to `wantedMinutes` for the call, in one transaction. A plain read
   * of the business item comes first: at the cap nothing is attempted; "no minutes" is confirmed
   * with a consistent read (a stale one must not fail a call the plan can pay for). With
   * `maxDurationS` the call's `time_limit_s` is stored too (the lesser of it and the reservation).
   * A call that already holds its slot (an attempt whose answer was lost landed) is admitted with
   * what it reserved. A call given back undialled (`requeueUndialled` removes `slot_held` and
   * `reserved_minutes`) is admitted afresh; an ended one (`slot_released`) never again.
   */
  async admit(businessId: number, callId: number, wantedMinutes: number, maxDurationS?: number): Promise<Admission> {
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      try {
        let business = await this.readBusiness(businessId, false);
        if (business.live >= business.cap) {
          this.stats.refusedByRead++;
          return await this.admitted(businessId, callId, { kind: 'at_capacity' });
        }
        if (Math.min(wantedMinutes, business.balance - business.reserved) <= 0) business = await this.readBusiness(businessId, true);
        const granted = Math.min(wantedMinutes, business.balance - business.reserved);
        if (granted <= 0) return await this.admitted(businessId, callId, { kind: 'no_minutes' });
        // Split the slack between the two counters, so settlements landing since the read (balance and
        // reserved both falling) do not fail the condition: reserved ≤ limit and balance ≥ limit + granted
        // keep reserved + granted ≤ balance.
        const limit = business.reserved + Math.floor((business.balance - business.reserved - granted) / 2);
        await this.db.doc.send(
          new TransactWriteCommand({ TransactItems: this.admitItems(businessId, callId, granted, limit, maxDurationS) }),
        );
        return { kind: 'admitted', reservedMinutes: granted };
      } catch (error) {
        if (isCancelledTransaction(error, 1)) return this.admitted(businessId, callId, { kind: 'refused' });
        // A concurrent transaction, or the business moved since the read (cap or room): read again.
        if (isCancelledTransaction(error)) await this.backOff(attempt);
        // Throttled, a server error: try again (a write that landed anyway shows as this call's slot).
        else if (isTransientDbError(error)) await this.backOff(attempt, true);
        else throw error;
      }
    }
    throw new Error(`Could not admit call ${callId}: the business kept changing.`);
  }

  /**
   * Gives the call's slot back and settles its minutes, once, in one transaction: charges the
   * call's real length (never more than it reserved; nothing when it reserved nothing) and
   * releases the reservation. Returns the minutes charged, or null when already settled.
   * `known`: the call item as the caller last wrote it (saves a read); the transaction checks the
   * call still stands so, and on a miss the item is read again.
   */
  async giveBack(businessId: number, callId: number, durationSeconds: number, known?: GiveBackState): Promise<number | null> {
    let call = known ?? (await this.readCall(businessId, callId));
    let keepCounter = false;
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      if (!call || call.settled === true) return null;
      const used = Math.min(billableMinutes(durationSeconds), call.reserved_minutes ?? 0);
      try {
        await this.db.doc.send(
          new TransactWriteCommand({ TransactItems: this.giveBackItems(businessId, callId, call, used, keepCounter) }),
        );
        return used;
      } catch (error) {
        if (!isCancelledTransaction(error)) throw error;
        if (isTransactionConflict(error)) await this.backOff(attempt);
        // live_calls is already 0 (ops reset it while calls were live): settle without taking it below zero.
        else if (isCancelledTransaction(error, 1)) keepCounter = true;
        // Settled or released by a concurrent ending, or changed since we looked: the next read tells which.
        else call = await this.readCall(businessId, callId);
      }
    }
    throw new Error(`Could not give back the slot and minutes of call ${callId}: its item kept changing.`);
  }

  private admitItems(businessId: number, callId: number, granted: number, limit: number, maxDurationS?: number) {
    return [
      {
        Update: {
          TableName: this.db.tableName,
          Key: keys.business(businessId),
          UpdateExpression: 'SET live_calls = if_not_exists(live_calls, :zero) + :one, minutes_reserved = minutes_reserved + :granted',
          // Under the cap (a missing counter: no call holds a slot yet), and enough room for the grant.
          ConditionExpression:
            '((attribute_not_exists(live_calls) AND max_concurrent_calls > :zero) OR live_calls < max_concurrent_calls) AND minutes_reserved <= :limit AND minutes_balance >= :needed',
          ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':granted': granted, ':limit': limit, ':needed': limit + granted },
        },
      },
      {
        Update: {
          TableName: this.db.tableName,
          Key: keys.call(businessId, callId),
          UpdateExpression:
            maxDurationS === undefined
              ? 'SET slot_held = :true, reserved_minutes = :granted'
              : 'SET slot_held = :true, reserved_minutes = :granted, time_limit_s = :limit',
          // An ended call never starts: its ending has already run and would never give anything back.
          ConditionExpression:
            'attribute_exists(pk) AND #status <> :ended AND attribute_not_exists(slot_held) AND attribute_not_exists(slot_released) AND attribute_not_exists(reserved_minutes)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':true': true,
            ':ended': 'ended',
            ':granted': granted,
            ...(maxDurationS !== undefined && { ':limit': Math.min(maxDurationS, granted * 60) }),
          },
        },
      },
    ];
  }

  private giveBackItems(businessId: number, callId: number, call: GiveBackState, used: number, keepCounter: boolean) {
    const reserved = call.reserved_minutes;
    const releasing = call.slot_held === true && call.slot_released !== true;
    const slotState = releasing
      ? 'slot_held = :true AND attribute_not_exists(slot_released)'
      : '(attribute_not_exists(slot_held) OR slot_released = :true)';
    const reservation = reserved === undefined ? 'attribute_not_exists(reserved_minutes)' : 'reserved_minutes = :reserved';
    const decrement = releasing && !keepCounter;
    return [
      {
        Update: {
          TableName: this.db.tableName,
          Key: keys.call(businessId, callId),
          UpdateExpression: `SET settled = :true, charged_minutes = :used${releasing ? ', slot_released = :true' : ''}`,
          ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(settled) AND ${reservation} AND ${slotState}`,
          ExpressionAttributeValues: { ':true': true, ':used': used, ...(reserved !== undefined && { ':reserved': reserved }) },
        },
      },
      {
        Update: {
          TableName: this.db.tableName,
          Key: keys.business(businessId),
          UpdateExpression: `SET minutes_balance = minutes_balance - :used, minutes_reserved = minutes_reserved - :reserved${decrement ? ', live_calls = if_not_exists(live_calls, :one) - :one' : ''}`,
          ...(decrement && { ConditionExpression: 'live_calls > :zero' }),
          ExpressionAttributeValues: { ':used': used, ':reserved': reserved ?? 0, ...(decrement && { ':one': 1, ':zero': 0 }) },
        },
      },
    ];
  }

  /** After a refusal: a call that already holds its slot (a redelivered job) is admitted with what it reserved. */
  private async admitted(businessId: number, callId: number, otherwise: Admission): Promise<Admission> {
    const call = await this.readCall(businessId, callId);
    if (call?.slot_held === true && call.slot_released !== true) return { kind: 'admitted', reservedMinutes: call.reserved_minutes ?? 0 };
    return otherwise;
  }

  private async readBusiness(businessId: number, consistent: boolean) {
    const business = await this.db.doc.send(
      new GetCommand({ TableName: this.db.tableName, Key: keys.business(businessId), ConsistentRead: consistent }),
    );
    const item = business.Item;
    return {
      live: Number(item?.live_calls ?? 0),
      cap: Number(item?.max_concurrent_calls ?? 0),
      balance: Number(item?.minutes_balance ?? 0),
      reserved: Number(item?.minutes_reserved ?? 0),
    };
  }

  private async readCall(businessId: number, callId: number): Promise<GiveBackState | undefined> {
    const call = await this.db.doc.send(
      new GetCommand({ TableName: this.db.tableName, Key: keys.call(businessId, callId), ConsistentRead: true }),
    );
    return call.Item;
  }

  private async backOff(attempt: number, transient = false): Promise<void> {
    if (transient) this.stats.transient = (this.stats.transient ?? 0) + 1;
    else this.stats.conflicts++;
    await new Promise((resolve) => setTimeout(resolve, this.backoffMs(attempt)));
  }
}
