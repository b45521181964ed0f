import { createHash } from 'node:crypto';
import type { IdempotencyRepository } from '../db/idempotency-repository';
import { IDEMPOTENCY_WAIT_MS, MAX_IDEMPOTENCY_KEY_LENGTH } from '../domain/api-limits';
import { ConflictError, ValidationError } from '../errors';

/** The first pause between looks at a key held by a running request; it doubles up to 200 ms. */
const FIRST_PAUSE_MS = 20;
const LONGEST_PAUSE_MS = 200;

/** What a claim ended in: this request runs, or it answers with the earlier request's response. */
export type IdempotencyOutcome = { kind: 'run' } | { kind: 'replay'; status: number; body: unknown; headers: Record<string, string> };

/** A stable fingerprint of a parsed body: the same fields in any order give the same hash. */
export function fingerprint(value: unknown): string {
  const canonical = JSON.stringify(value, (_key, inner) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
  return createHash('sha256').update(canonical).digest('hex');
}

/** Refuses (422 at `['header', 'idempotency-key']`) an empty or over-long key. */
export function checkIdempotencyKey(key: string): void {
  if (key.length > 0 && key.length <= MAX_IDEMPOTENCY_KEY_LENGTH) return;
  const empty = key.length === 0;
  throw new ValidationError([
    {
      loc: ['header', 'idempotency-key'],
      msg: empty ? 'String should have at least 1 character' : `String should have at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`,
      type: empty ? 'string_too_short' : 'string_too_long',
      input: key,
      ctx: empty ? { min_length: 1 } : { max_length: MAX_IDEMPOTENCY_KEY_LENGTH },
    },
  ]);
}

/** One idempotent request: whose key, on which route (`scope`, e.g. `POST /assistants`), with which body. */
export interface IdempotentRequest {
  businessId: number;
  scope: string;
  key: string;
  fingerprint: string;
}

/**
 * Claims the key for this request. The same key and body already answered replays that answer;
 * still running (a concurrent duplicate), it is waited for, up to {@link IDEMPOTENCY_WAIT_MS}, so
 * every duplicate gets the one response; released (the first failed), this request runs. Another
 * body under the key is a 409 `idempotency_conflict`.
 */
export async function claimIdempotencyKey(
  store: IdempotencyRepository,
  request: IdempotentRequest,
  now: () => number,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<IdempotencyOutcome> {
  // The wait is counted in pauses taken, not by `now`, which a test may hold still.
  let waited = 0;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    const claim = await store.claim(request.businessId, request.scope, request.key, request.fingerprint, now());
    if (claim.kind === 'claimed') return { kind: 'run' };
    if (claim.kind === 'replay') return { kind: 'replay', status: claim.status, body: claim.body, headers: claim.headers };
    if (claim.kind === 'mismatch') {
      throw new ConflictError('idempotency_conflict', 'This Idempotency-Key was used with a different request body.');
    }
    if (waited >= IDEMPOTENCY_WAIT_MS) {
      throw new ConflictError('idempotency_conflict', 'A request with this Idempotency-Key is still being processed; retry later.');
    }
    await sleep(pause);
    waited += pause;
  }
}
