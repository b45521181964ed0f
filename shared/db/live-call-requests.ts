import { BatchGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Transition } from './call-record';
import type { Db } from './client';
import { STATUS, statusIn, transition } from './call-updates';
import { isConditionFailure } from './conditions';
import { keys } from './table';

/**
 * The writes and reads that reach a live call from outside its engine: a web call's new token, a
 * listen token, a request to end it, the engine's batched check for such requests, and taking back
 * a transfer the carrier refused. {@link CallRepository} delegates to these.
 */

/**
 * A web call's new token (an Idempotency-Key replay of POST /calls/web: the first token was shown
 * once and never stored): replaces `web_token_hash` and its expiry, so the earlier token stops
 * working. Only while the call is queued and its token unredeemed; false otherwise (joined,
 * ended, or gone), and nothing is written.
 */
export async function reissueWebToken(
  db: Db,
  businessId: number,
  callId: number,
  hash: string,
  expiresAtMs: number,
  at: string,
): Promise<boolean> {
  const set = { web_token_hash: hash, web_token_expires_at: expiresAtMs, updated_at: at };
  const unredeemed = {
    expression: 'attribute_exists(web_token_hash) AND #status = :queued',
    names: STATUS,
    values: { ':queued': 'queued' },
  };
  return (await transition(db, businessId, callId, set, unredeemed)).written;
}

/**
 * Stores a listen token's hash on an in-progress call (`POST /calls/{id}/listen`); a newer token
 * replaces an unredeemed one. The call as it stands either way (undefined: no such call).
 */
export async function setListenToken(db: Db, businessId: number, callId: number, hash: string, expiresAtMs: number): Promise<Transition> {
  const set = { listen_token_hash: hash, listen_token_expires_at: expiresAtMs };
  return transition(db, businessId, callId, set, statusIn('in_progress'));
}

/**
 * Asks the engine to end a live call (`POST /calls/{id}/end`): sets `end_requested_at` on a call
 * that is queued, ringing or in progress. Safe to repeat; the call as it stands either way.
 */
export async function requestEnd(db: Db, businessId: number, callId: number, at: string): Promise<Transition> {
  return transition(db, businessId, callId, { end_requested_at: at }, statusIn('queued', 'ringing', 'in_progress'));
}

/**
 * Which of these calls someone asked to end (the engine's check, every second, for all the calls
 * a task runs): BatchGetItem of 100 calls at a time, eventually consistent, projected to three
 * attributes (0.5 read unit a call). A key DynamoDB leaves unprocessed is asked for again.
 * Returns `"<business id>/<call id>"` of each call with `end_requested_at`.
 */
export async function endRequestedAmong(db: Db, calls: readonly { businessId: number; callId: number }[]): Promise<Set<string>> {
  const asked = new Set<string>();
  for (let i = 0; i < calls.length; i += 100) {
    let request: Record<string, { Keys: Record<string, unknown>[]; ProjectionExpression: string }> | undefined = {
      [db.tableName]: {
        Keys: calls.slice(i, i + 100).map((call) => keys.call(call.businessId, call.callId)),
        ProjectionExpression: 'business_id, id, end_requested_at',
      },
    };
    while (request && Object.keys(request).length > 0) {
      const result = await db.doc.send(new BatchGetCommand({ RequestItems: request }));
      for (const item of result.Responses?.[db.tableName] ?? [])
        if (typeof item.end_requested_at === 'string') asked.add(`${String(item.business_id)}/${String(item.id)}`);
      request = result.UnprocessedKeys as typeof request;
    }
  }
  return asked;
}

/** Takes back {@link recordTransfer} after the carrier refused the redirect: the call was not transferred. */
export async function clearTransfer(db: Db, businessId: number, callId: number, toNumber: string, at: string): Promise<void> {
  await db.doc
    .send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.call(businessId, callId),
        UpdateExpression: 'SET updated_at = :at REMOVE transferred_to, transferred_at',
        ConditionExpression: 'attribute_exists(pk) AND transferred_to = :to',
        ExpressionAttributeValues: { ':at': at, ':to': toNumber },
      }),
    )
    .catch((error: unknown) => {
      // Another transfer's number (or none) stands: nothing of this one to take back.
      if (!isConditionFailure(error)) throw error;
    });
}
