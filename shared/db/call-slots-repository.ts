import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { CONFLICT_BACKOFF, fullJitterMs } from '../domain/backoff';
import { CallAdmission, type Admission, type AdmissionStats, type GiveBackState } from './call-admission';
import type { Db } from './client';
import { isCancelledTransaction, isTransactionConflict } from './conditions';
import { keys } from './table';

/** Tries of a transaction that lost to a concurrent one on the same business item (TransactionConflict). */
const MAX_TRIES = 12;

/**
 * The plan's concurrency cap (docs/design.md "Other rules"): `live_calls` on the business item counts the calls
 * holding a slot (ringing or in progress), never above `max_concurrent_calls`. A slot is taken and
 * given back in one transaction with the call item, whose `slot_held` / `slot_released` flags make
 * both idempotent: a redelivered job never takes two slots, a retried ending never frees two. A
 * call that was never dialled gives its slot back by losing `slot_held` instead
 * (`CallRepository.requeueUndialled`), so it can be admitted again.
 */
export class CallSlotsRepository {
  /** Conflicts retried and refusals by the plain read, of slot writes and admissions alike. */
  readonly stats: AdmissionStats = { conflicts: 0, refusedByRead: 0 };
  private readonly admission: CallAdmission;

  constructor(
    private readonly db: Db,
    /** Pause before retrying a transaction conflict (ms): full jitter, so racers spread out. */
    private readonly backoffMs: (attempt: number) => number = (attempt) => fullJitterMs(attempt, CONFLICT_BACKOFF, Math.random),
  ) {
    this.admission = new CallAdmission(db, this.stats, backoffMs);
  }

  /** The call's start: a slot and its minutes in one transaction ({@link CallAdmission.admit}). */
  admit(businessId: number, callId: number, wantedMinutes: number, maxDurationS?: number): Promise<Admission> {
    return this.admission.admit(businessId, callId, wantedMinutes, maxDurationS);
  }

  /** The call's end: the slot back and the minutes settled in one transaction ({@link CallAdmission.giveBack}). */
  giveBack(businessId: number, callId: number, durationSeconds: number, known?: GiveBackState): Promise<number | null> {
    return this.admission.giveBack(businessId, callId, durationSeconds, known);
  }

  /**
   * Takes a slot for the call. True when granted, or already held by this call (redelivery);
   * false at the cap, and for a call that ended or already gave its slot back.
   *
   * A plain (eventually consistent) read of the business item comes first: at the cap no
   * transaction is attempted, so calls waiting for a slot only read the hot item. A stale read
   * errs either way harmlessly: one showing room lets the transaction's condition decide, one
   * showing the cap defers the call to its next try.
   */
  async acquire(businessId: number, callId: number): Promise<boolean> {
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      if (await this.atCap(businessId)) {
        this.stats.refusedByRead++;
        return this.holds(businessId, callId);
      }
      try {
        await this.db.doc.send(new TransactWriteCommand({ TransactItems: this.acquireItems(businessId, callId) }));
        return true;
      } catch (error) {
        if (!isCancelledTransaction(error)) throw error;
        if (!isTransactionConflict(error)) return this.holds(businessId, callId);
        await this.backOff(attempt);
      }
    }
    throw new Error(`Could not take a call slot for call ${callId}: the business kept changing.`);
  }

  /** Gives the call's slot back, once; false when it held none or already gave it back. */
  async release(businessId: number, callId: number): Promise<boolean> {
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      try {
        await this.db.doc.send(new TransactWriteCommand({ TransactItems: this.releaseItems(businessId, callId) }));
        return true;
      } catch (error) {
        if (!isCancelledTransaction(error)) throw error;
        if (!isTransactionConflict(error)) return false;
        await this.backOff(attempt);
      }
    }
    throw new Error(`Could not release the call slot of call ${callId}: the business kept changing.`);
  }

  private acquireItems(businessId: number, callId: number) {
    return [
      {
        Update: {
          TableName: this.db.tableName,
          Key: keys.business(businessId),
          UpdateExpression: 'SET live_calls = if_not_exists(live_calls, :zero) + :one',
          // A missing counter means no call holds a slot yet; the cap still applies (a cap of 0 admits none).
          ConditionExpression: '(attribute_not_exists(live_calls) AND max_concurrent_calls > :zero) OR live_calls < max_concurrent_calls',
          ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
        },
      },
      {
        Update: {
          TableName: this.db.tableName,
          Key: keys.call(businessId, callId),
          UpdateExpression: 'SET slot_held = :true',
          // An ended call never takes a slot: its ending has already run and would never release it.
          ConditionExpression:
            'attribute_exists(pk) AND #status <> :ended AND attribute_not_exists(slot_held) AND attribute_not_exists(slot_released)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':true': true, ':ended': 'ended' },
        },
      },
    ];
  }

  private releaseItems(businessId: number, callId: number) {
    return [
      {
        Update: {
          TableName: this.db.tableName,
          Key: keys.call(businessId, callId),
          UpdateExpression: 'SET slot_released = :true',
          ConditionExpression: 'slot_held = :true AND attribute_not_exists(slot_released)',
          ExpressionAttributeValues: { ':true': true },
        },
      },
      {
        Update: {
          TableName: this.db.tableName,
          Key: keys.business(businessId),
          // if_not_exists: DynamoDB validates the expression even when the call's condition fails first.
          UpdateExpression: 'SET live_calls = if_not_exists(live_calls, :one) - :one',
          // Never below zero (e.g. ops reset the counter while calls were live).
          ConditionExpression: 'live_calls > :zero',
          ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
        },
      },
    ];
  }

  /** The plain read: is the business at its cap (or gone)? */
  private async atCap(businessId: number): Promise<boolean> {
    const business = await this.db.doc.send(new GetCommand({ TableName: this.db.tableName, Key: keys.business(businessId) }));
    if (!business.Item) return true;
    return Number(business.Item.live_calls ?? 0) >= Number(business.Item.max_concurrent_calls ?? 0);
  }

  private async backOff(attempt: number): Promise<void> {
    this.stats.conflicts++;
    await new Promise((resolve) => setTimeout(resolve, this.backoffMs(attempt)));
  }

  /** After a refused acquire: does this call already hold its slot (a redelivered job)? */
  private async holds(businessId: number, callId: number): Promise<boolean> {
    const call = await this.db.doc.send(
      new GetCommand({ TableName: this.db.tableName, Key: keys.call(businessId, callId), ConsistentRead: true }),
    );
    return call.Item?.slot_held === true && call.Item.slot_released !== true;
  }
}
