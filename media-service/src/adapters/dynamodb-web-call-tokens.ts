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
 * created the call (`POST /calls/web`).
 */
export function tableWebCallTokens(db: Db): WebCallTokens {
  return {
    async redeem(businessId, callId, tokenHash, nowMs) {
      try {
        const result = await db.doc.send(
          new UpdateCommand({
            TableName: db.tableName,
            Key: keys.call(businessId, callId),
            UpdateExpression: 'REMOVE web_token_hash',
            ConditionExpression: 'attribute_exists(pk) AND web_token_hash = :hash AND web_token_expires_at > :now AND #status = :queued',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':hash': tokenHash, ':now': nowMs, ':queued': 'queued' },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return result.Attributes ? fromItem<CallRecord>(result.Attributes) : undefined;
      } catch (error) {
        if (isConditionFailure(error)) return undefined;
        throw error;
      }
    },
  };
}
