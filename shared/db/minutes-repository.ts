import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './client';
import { keys } from './table';

/** Whole minutes charged for a call of this length (rounded up; a 0 s call costs nothing). */
export function billableMinutes(durationSeconds: number): number {
  return Math.max(0, Math.ceil(durationSeconds / 60));
}

const MAX_TRIES = 8;

/**
 * The plan's minutes ledger (DESIGN §4). Before dialling, the engine reserves the call's possible
 * length from what is left, with a write conditioned on the balance it read, so two calls can
 * never reserve the same minute. When the call ends, one transaction guarded by the call's
 * `settled` flag charges the real minutes and releases the reservation: a retried or concurrent
 * ending charges once. Unlike the rate limiter this fails closed: money is involved.
 */
export class MinutesRepository {
  constructor(private readonly db: Db) {}

  /** Reserves up to `wantedMinutes` for the call; returns what was reserved (0: nothing left). */
  async reserve(businessId: number, callId: number, wantedMinutes: number): Promise<number> {
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const business = await this.db.doc.send(
        new GetCommand({ TableName: this.db.tableName, Key: keys.business(businessId), ConsistentRead: true }),
      );
      const balance = Number(business.Item?.minutes_balance ?? 0);
      const reserved = Number(business.Item?.minutes_reserved ?? 0);
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
                  ConditionExpression: 'minutes_balance = :balance AND minutes_reserved = :reserved',
                  ExpressionAttributeValues: { ':granted': granted, ':balance': balance, ':reserved': reserved },
                },
              },
              {
                Update: {
                  TableName: this.db.tableName,
                  Key: keys.call(businessId, callId),
                  UpdateExpression: 'SET reserved_minutes = :granted',
                  ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(reserved_minutes)',
                  ExpressionAttributeValues: { ':granted': granted },
                },
              },
            ],
          }),
        );
        return granted;
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const reasons = error.CancellationReasons ?? [];
        if (reasons[1]?.Code === 'ConditionalCheckFailed') return this.alreadyReserved(businessId, callId);
      }
    }
    throw new Error(`Could not reserve minutes for call ${callId}: the balance kept changing.`);
  }

  /**
   * Charges the call's real length and releases its reservation, once. Returns the minutes charged,
   * or null when the call was already settled.
   */
  async settle(businessId: number, callId: number, durationSeconds: number): Promise<number | null> {
    const call = await this.db.doc.send(
      new GetCommand({ TableName: this.db.tableName, Key: keys.call(businessId, callId), ConsistentRead: true }),
    );
    if (!call.Item || call.Item.settled === true) return null;
    const reserved = Number(call.Item.reserved_minutes ?? 0);
    const used = billableMinutes(durationSeconds);
    try {
      await this.db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.db.tableName,
                Key: keys.call(businessId, callId),
                UpdateExpression: 'SET settled = :true, charged_minutes = :used',
                ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(settled)',
                ExpressionAttributeValues: { ':true': true, ':used': used },
              },
            },
            {
              Update: {
                TableName: this.db.tableName,
                Key: keys.business(businessId),
                UpdateExpression: 'SET minutes_balance = minutes_balance - :used, minutes_reserved = minutes_reserved - :reserved',
                ExpressionAttributeValues: { ':used': used, ':reserved': reserved },
              },
            },
          ],
        }),
      );
      return used;
    } catch (error) {
      if (error instanceof TransactionCanceledException) return null;
      throw error;
    }
  }

  private async alreadyReserved(businessId: number, callId: number): Promise<number> {
    const call = await this.db.doc.send(
      new GetCommand({ TableName: this.db.tableName, Key: keys.call(businessId, callId), ConsistentRead: true }),
    );
    return Number(call.Item?.reserved_minutes ?? 0);
  }
}
