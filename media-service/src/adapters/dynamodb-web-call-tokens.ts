import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '../../../shared/db/client';
import { isConditionFailure } from '../../../shared/db/conditions';
import { fromItem } from '../../../shared/db/items';
import { keys } from '../../../shared/db/table';
import type { CallRecord } from '../ports/call-records';
import type { WebCallTokens } from '../ports/web-calls';

/**
 * {@link WebCallTokens} on the table: one conditional UpdateItem of the call item (the issue 32
 * contract: `web_token_hash = :hash AND web_token_expires_at > :now AND #status = 'queued'`,
 * REMOVE `web_token_hash`). A second redemption finds no hash; the API wrote both fields when it
 * created the call (`POST /calls/web`). A listen token is redeemed the same way, on its own
 * fields, while the call is in progress (`POST /calls/{id}/listen`).
 */
export function tableWebCallTokens(db: Db): WebCallTokens {
  return {
    redeem: (businessId, callId, tokenHash, nowMs) =>
      redeemOnce(db, businessId, callId, { hash: 'web_token_hash', expires: 'web_token_expires_at', status: 'queued' }, tokenHash, nowMs),
    redeemListen: (businessId, callId, tokenHash, nowMs) =>
      redeemOnce(
        db,
        businessId,
        callId,
        { hash: 'listen_token_hash', expires: 'listen_token_expires_at', status: 'in_progress' },
        tokenHash,
        nowMs,
      ),
  };
}

/** The token's fields on the call item, and the status it may be redeemed in. */
interface TokenFields {
  hash: 'web_token_hash' | 'listen_token_hash';
  expires: 'web_token_expires_at' | 'listen_token_expires_at';
  status: 'queued' | 'in_progress';
}

async function redeemOnce(
  db: Db,
  businessId: number,
  callId: number,
  fields: TokenFields,
  tokenHash: string,
  nowMs: number,
): Promise<CallRecord | undefined> {
  try {
    const result = await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.call(businessId, callId),
        UpdateExpression: `REMOVE ${fields.hash}`,
        ConditionExpression: `attribute_exists(pk) AND ${fields.hash} = :hash AND ${fields.expires} > :now AND #status = :status`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':hash': tokenHash, ':now': nowMs, ':status': fields.status },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result.Attributes ? fromItem<CallRecord>(result.Attributes) : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}
