import { PutCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { isRememberableNumber, type CallerMemoryEntry } from '../domain/memory-prompt';
import type { Db } from './client';
import { keys } from './table';

/** Most entries one recall may return: the prompt section stays short. */
export const MAX_RECALL = 20;

/**
 * Summaries of a caller's earlier calls to the same business, for `advanced.memory`. Entries live
 * in the business's partition under the caller's number (`keys.callerMemory`), so a recall can
 * never see another business's callers; `expires_at` (the call's keep_days) removes them with the call.
 */
export class CallerMemoryRepository {
  constructor(
    private readonly db: Db,
    private readonly nowEpochSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  /**
   * Stores one call's summary for the caller; repeating it for the same call overwrites (analysis
   * re-runs are harmless). A withheld or non-E.164 number is not stored (see isRememberableNumber).
   */
  async remember(businessId: number, callerNumber: string, entry: CallerMemoryEntry, expiresAt?: number): Promise<void> {
    if (!isRememberableNumber(callerNumber)) return;
    await this.db.doc.send(
      new PutCommand({
        TableName: this.db.tableName,
        Item: {
          ...keys.callerMemory(businessId, callerNumber, entry.ended_at, entry.call_id),
          entity: 'caller_memory',
          business_id: businessId,
          caller_number: callerNumber,
          call_id: entry.call_id,
          ended_at: entry.ended_at,
          summary: entry.summary,
          outcome: entry.outcome,
          ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
        },
      }),
    );
  }

  /** The caller's latest `limit` (default 3, at most {@link MAX_RECALL}) unexpired entries, newest first. */
  async recall(businessId: number, callerNumber: string, limit = 3): Promise<CallerMemoryEntry[]> {
    const wanted = Math.min(Math.max(Math.floor(limit), 0), MAX_RECALL);
    if (wanted === 0 || !isRememberableNumber(callerNumber)) return [];
    const found: CallerMemoryEntry[] = [];
    const pages = paginateQuery(
      { client: this.db.doc },
      {
        TableName: this.db.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        // TTL deletion lags by up to ~48 h, so expired entries are filtered out on read.
        FilterExpression: 'attribute_not_exists(expires_at) OR expires_at > :now',
        ExpressionAttributeValues: {
          ':pk': keys.business(businessId).pk,
          ':prefix': keys.callerMemoryPrefix(callerNumber),
          ':now': this.nowEpochSeconds(),
        },
        ScanIndexForward: false,
        Limit: wanted,
      },
    );
    for await (const page of pages) {
      found.push(...(page.Items ?? []).map(toEntry));
      if (found.length >= wanted) break;
    }
    return found.slice(0, wanted);
  }
}

function toEntry(item: Record<string, unknown>): CallerMemoryEntry {
  return {
    call_id: item.call_id as number,
    ended_at: item.ended_at as string,
    summary: item.summary as string,
    outcome: (item.outcome as string | null | undefined) ?? null,
  };
}
