import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db, TransactionItem } from './client';
import { conditionFailureItem, isConditionFailure } from './conditions';
import { keys } from './table';
import { IDEMPOTENCY_TTL_SECONDS } from '../domain/api-limits';

/** A claim older than this is treated as abandoned (its request crashed), so a retry may run. */
export const IDEMPOTENCY_LEASE_MS = 30_000;

/** What a claim found: it is ours to run, or an earlier request already answered or is running. */
export type IdempotencyClaim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: unknown; headers: Record<string, string> }
  | { kind: 'mismatch' }
  | { kind: 'in_progress' };

/** A response as a replay repeats it: status, JSON body and the headers that belong to it (ETag). */
export interface StoredResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** A stored idempotency record: claimed (`in_progress`), then `completed` with the response. */
type IdempotencyItem = { fingerprint: string; lease_until: number; expires_at: number } & (
  | { state: 'in_progress' }
  /** `body` is the response body as JSON text; `headers` the response headers a replay repeats (ETag). */
  | { state: 'completed'; status: number; body: string; headers?: Record<string, string> }
);

/**
 * Idempotency records for POST requests, scoped to business + method + route + client key, so the
 * same key string from another business is independent.
 */
export class IdempotencyRepository {
  constructor(private readonly db: Db) {}

  /** Claims the key for a request with this body fingerprint, or reports what holds it. */
  async claim(businessId: number, scope: string, key: string, fingerprint: string, nowMs: number): Promise<IdempotencyClaim> {
    const nowSeconds = Math.floor(nowMs / 1000);
    try {
      await this.db.doc.send(
        new PutCommand({
          TableName: this.db.tableName,
          Item: {
            ...keys.idempotency(businessId, scope, key),
            entity: 'idempotency',
            state: 'in_progress',
            fingerprint,
            lease_until: nowMs + IDEMPOTENCY_LEASE_MS,
            expires_at: nowSeconds + IDEMPOTENCY_TTL_SECONDS,
          },
          ConditionExpression: 'attribute_not_exists(pk) OR expires_at <= :nowSeconds OR (#state = :inProgress AND lease_until < :nowMs)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':nowSeconds': nowSeconds, ':nowMs': nowMs, ':inProgress': 'in_progress' },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { kind: 'claimed' };
    } catch (error) {
      const existing = conditionFailureItem(error)?.item as IdempotencyItem | undefined;
      if (!existing) throw error;
      if (existing.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (existing.state === 'completed') {
        return { kind: 'replay', status: existing.status, body: JSON.parse(existing.body), headers: existing.headers ?? {} };
      }
      return { kind: 'in_progress' };
    }
  }

  /** The transaction item that records the response, written together with the request's effect. */
  completeItem(businessId: number, scope: string, key: string, status: number, body: unknown): TransactionItem {
    return { Update: this.completion(businessId, scope, key, { status, body, headers: {} }) };
  }

  /**
   * Records the response of a request that took effect on its own (a create whose repository write
   * does not carry {@link completeItem}); only a claim still held with this fingerprint is completed.
   */
  async complete(businessId: number, scope: string, key: string, fingerprint: string, response: StoredResponse): Promise<void> {
    const update = this.completion(businessId, scope, key, response);
    await this.db.doc
      .send(
        new UpdateCommand({
          ...update,
          ConditionExpression: '#state = :inProgress AND fingerprint = :fingerprint',
          ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':inProgress': 'in_progress', ':fingerprint': fingerprint },
        }),
      )
      .catch((error) => {
        if (!isConditionFailure(error)) throw error;
      });
  }

  private completion(businessId: number, scope: string, key: string, response: StoredResponse) {
    return {
      TableName: this.db.tableName,
      Key: keys.idempotency(businessId, scope, key),
      UpdateExpression: 'SET #state = :completed, #status = :status, #body = :body, #headers = :headers',
      ExpressionAttributeNames: { '#state': 'state', '#status': 'status', '#body': 'body', '#headers': 'headers' },
      ExpressionAttributeValues: {
        ':completed': 'completed',
        ':status': response.status,
        ':body': JSON.stringify(response.body),
        ':headers': response.headers,
      } as Record<string, unknown>,
    };
  }

  /** Forgets a claim whose request failed before taking effect, so a retry runs again. */
  async release(businessId: number, scope: string, key: string): Promise<void> {
    await this.db.doc
      .send(
        new DeleteCommand({
          TableName: this.db.tableName,
          Key: keys.idempotency(businessId, scope, key),
          ConditionExpression: '#state = :inProgress',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':inProgress': 'in_progress' },
        }),
      )
      .catch((error) => {
        if (!isConditionFailure(error)) throw error;
      });
  }
}
