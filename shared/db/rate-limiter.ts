import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './client';
import { conditionFailureItem } from './conditions';
import { keys } from './table';
import { API_KEY_RATE_LIMIT, RATE_LIMIT_WINDOW_SECONDS } from '../domain/rate-limits';
import { createLogger, type Logger } from '../log';

/** The verdict for one request, with what the RateLimit headers report. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until a slot frees up (RateLimit `t`; Retry-After on 429). */
  resetSeconds: number;
}

export interface RateLimiterOptions {
  limit?: number;
  windowMs?: number;
  now?: () => number;
  log?: Logger;
}

const MAX_ATTEMPTS = 6;

/**
 * Logs a process remembers (the oldest seen is forgotten past it): the feed's limits are keyed by
 * client address, which a client chooses. A forgotten log is only a cache: the store has it.
 */
const MAX_VIEWS = 10_000;

type LogKey = { pk: string; sk: string };

/**
 * A strict rolling-window limiter: at most `limit` accepted requests per key in ANY `windowMs`.
 *
 * Each key owns one item holding `limit` slots; a slot holds the time of the request that last
 * took it. A request is accepted only by a conditional write that takes a slot whose time is older
 * than the window, so `limit + 1` acceptances inside one window would need two writes to win the
 * same slot: DynamoDB serialises writes to an item, so the second one fails. This is a sliding log,
 * exact across any number of Lambda instances, in one UpdateItem per request.
 *
 * Each process keeps the last item it saw. Other writers can only make slots younger and time only
 * makes them older, so a slot that looks busy here is busy: a key that is locally full is refused
 * with no DynamoDB call, and concurrent requests in one process aim at different slots.
 */
export class RateLimiter {
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly log: Logger;
  private readonly views = new Map<string, { slots: number[]; busy: Set<number> }>();

  constructor(
    private readonly db: Db,
    options: RateLimiterOptions = {},
  ) {
    this.limit = options.limit ?? API_KEY_RATE_LIMIT;
    this.windowMs = options.windowMs ?? RATE_LIMIT_WINDOW_SECONDS * 1000;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? createLogger({ service: 'api' });
  }

  /** Counts one request of this API key, or refuses it. Fails open (allows) when DynamoDB errors. */
  async hit(businessId: number, keyId: string): Promise<RateDecision> {
    return this.hitLog(keys.rateLimit(businessId, keyId));
  }

  /**
   * Counts one request to the public calendar feed by `subject` (a client address or a token's
   * hash; see `keys.feedRateLimit`), or refuses it. Fails open like {@link hit}.
   */
  async hitFeed(subject: string): Promise<RateDecision> {
    return this.hitLog(keys.feedRateLimit(subject));
  }

  private async hitLog(key: LogKey): Promise<RateDecision> {
    const { slots: view, busy } = this.viewOf(`${key.pk}|${key.sk}`);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const now = this.now();
      const slot = this.freeSlot(view, busy, now);
      if (slot === undefined) return this.decision(false, view, busy, now);
      busy.add(slot);
      try {
        const fresh = await this.takeSlot(key, slot, now);
        this.merge(view, fresh);
        return this.decision(true, view, busy, now, slot);
      } catch (error) {
        const failed = conditionFailureItem(error);
        if (failed) {
          this.merge(view, slotsOf(failed.item, this.limit));
          continue;
        }
        this.log.error('rate limiter store failed; allowing the request (fail open)', { error });
        return { allowed: true, limit: this.limit, remaining: 0, resetSeconds: 0 };
      } finally {
        busy.delete(slot);
      }
    }
    return this.decision(false, view, busy, this.now());
  }

  /** This process's copy of a log, kept for at most {@link MAX_VIEWS} logs (the least recently used goes). */
  private viewOf(viewKey: string): { slots: number[]; busy: Set<number> } {
    const view = this.views.get(viewKey) ?? { slots: new Array<number>(this.limit).fill(0), busy: new Set<number>() };
    this.views.delete(viewKey);
    this.views.set(viewKey, view);
    if (this.views.size > MAX_VIEWS) this.views.delete(this.views.keys().next().value!);
    return view;
  }

  private freeSlot(view: number[], busy: Set<number>, now: number): number | undefined {
    const cutoff = now - this.windowMs;
    let best: number | undefined;
    for (let i = 0; i < view.length; i++) {
      if (busy.has(i) || view[i]! > cutoff) continue;
      if (best === undefined || view[i]! < view[best]!) best = i;
    }
    return best;
  }

  private async takeSlot(key: LogKey, slot: number, now: number): Promise<number[]> {
    const result = await this.db.doc.send(
      new UpdateCommand({
        TableName: this.db.tableName,
        Key: key,
        UpdateExpression: 'SET #slot = :now, expires_at = :expires',
        ConditionExpression: 'attribute_not_exists(#slot) OR #slot <= :cutoff',
        ExpressionAttributeNames: { '#slot': `s${slot}` },
        ExpressionAttributeValues: {
          ':now': now,
          ':cutoff': now - this.windowMs,
          ':expires': Math.ceil((now + this.windowMs) / 1000) + 60,
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return slotsOf(result.Attributes, this.limit);
  }

  /** Keeps the newest time seen for each slot (the store only ever moves a slot forward). */
  private merge(view: number[], fresh: number[]): void {
    for (let i = 0; i < view.length; i++) view[i] = Math.max(view[i]!, fresh[i] ?? 0);
  }

  private decision(allowed: boolean, view: number[], busy: Set<number>, now: number, taken?: number): RateDecision {
    if (taken !== undefined) view[taken] = Math.max(view[taken]!, now);
    const cutoff = now - this.windowMs;
    let used = 0;
    let oldest = Infinity;
    for (let i = 0; i < view.length; i++) {
      const time = view[i]!;
      if (time > cutoff) {
        used++;
        oldest = Math.min(oldest, time);
      } else if (busy.has(i)) {
        used++;
      }
    }
    const resetSeconds = oldest === Infinity ? 0 : Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
    return { allowed, limit: this.limit, remaining: Math.max(0, this.limit - used), resetSeconds };
  }
}

function slotsOf(item: Record<string, unknown> | undefined, limit: number): number[] {
  const slots = new Array<number>(limit).fill(0);
  if (!item) return slots;
  for (let i = 0; i < limit; i++) {
    const value = item[`s${i}`];
    if (typeof value === 'number') slots[i] = value;
  }
  return slots;
}
