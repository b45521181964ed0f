import type { CallRecord, CallRepository } from '../db/call-repository';
import type { OutboundCallQueue } from '../queue/outbound-calls';
import type { CallLifecycle } from './call-lifecycle';
import type { Logger } from '../log';

/** Hangs up a carrier call (best effort); the Twilio REST adapter of the media service fits it. */
export interface CarrierHangup {
  hangup(callSid: string): Promise<void>;
}

/** Why the sweeper ended a call (one JSON log line and one report counter each). */
export type SweepRule =
  /** Unclaimed for `queuedGiveUpMs`: the queue or every consumer is down; dialling that late surprises people. */
  | 'never_claimed'
  /** Claimed but no carrier sid after `queuedTooLongMs`: the dialler died mid-dial. */
  | 'dial_died'
  /** Has a carrier sid but is still `queued` after `ringingTooLongMs`: no callback ever arrived. */
  | 'no_progress'
  | 'ringing_too_long'
  | 'heartbeat_stale'
  /** A web call whose token expired unredeemed `webJoinGraceMs` ago: nobody opened the socket. */
  | 'web_never_joined'
  /** A web call whose token was redeemed but that is still `queued` after `queuedTooLongMs`: the engine died before answering. */
  | 'web_join_died';

/** What to do with one unfinished call. */
export type SweepAction =
  { kind: 'requeue' } | { kind: 'finish' } | { kind: 'end'; rule: SweepRule; reason: 'error' | 'no_answer' | 'canceled' };

/** The age limits (ms) the rules compare against. */
export interface SweepLimits {
  staleHeartbeatMs: number;
  /** An ending still unfinished this long after it was written failed halfway: finish it. */
  unfinishedEndingMs: number;
  queuedTooLongMs: number;
  queuedGiveUpMs: number;
  ringingTooLongMs: number;
  /** How long after its token expired an unjoined web call is ended (clock skew between the API and the sweeper). */
  webJoinGraceMs: number;
}

/**
 * Defaults: ~4 missed 30 s heartbeats; 2 queue receive cycles; Twilio rings ≤ 600 s, we ask 30 s;
 * a web call's 60 s token plus a minute, so with the 60 s sweep an unjoined one ends 2–3 min after its creation.
 */
export const DEFAULT_SWEEP_LIMITS: SweepLimits = {
  staleHeartbeatMs: 120_000,
  unfinishedEndingMs: 60_000,
  queuedTooLongMs: 120_000,
  queuedGiveUpMs: 30 * 60_000,
  ringingTooLongMs: 300_000,
  webJoinGraceMs: 60_000,
};

/** Most open calls one sweep reads; the rest wait for the next sweep (logged). */
export const DEFAULT_MAX_OPEN_CALLS = 10_000;

/** The rules, pure: what a sweep does with `call` at `nowMs` (undefined: leave it alone). */
export function sweepAction(call: CallRecord, nowMs: number, limits: SweepLimits): SweepAction | undefined {
  const age = (at: string | null | undefined) => (at ? nowMs - Date.parse(at) : 0);
  const sid = call.carrier_call_sid !== undefined && call.carrier_call_sid !== '';
  switch (call.status) {
    case 'queued':
      if (call.channel === 'web') return webCallAction(call, nowMs, limits);
      if (sid) return age(call.updated_at) > limits.ringingTooLongMs ? end('no_progress', 'error') : undefined;
      if (call.claimed_by) return age(call.claimed_at ?? call.updated_at) > limits.queuedTooLongMs ? end('dial_died', 'error') : undefined;
      // Given back at the concurrency cap (claimed_by null): its own job retries every few seconds and
      // it waits its turn however long that takes (never refused); requeue only if that loop went quiet.
      if (call.claimed_by === null) return age(call.updated_at) > limits.queuedTooLongMs ? { kind: 'requeue' } : undefined;
      // Only the outbound consumer claims calls; an inbound call always has a carrier sid.
      if (call.direction !== 'outbound') return undefined;
      if (age(call.created_at) > limits.queuedGiveUpMs) return end('never_claimed', 'error');
      return age(call.created_at) > limits.queuedTooLongMs ? { kind: 'requeue' } : undefined;
    case 'ringing':
      return age(call.updated_at) > limits.ringingTooLongMs ? end('ringing_too_long', 'no_answer') : undefined;
    case 'in_progress':
      return age(call.heartbeat_at ?? call.started_at ?? call.updated_at) > limits.staleHeartbeatMs
        ? end('heartbeat_stale', 'error')
        : undefined;
    case 'ended':
      return call.finish_pending === true && age(call.updated_at) > limits.unfinishedEndingMs ? { kind: 'finish' } : undefined;
    default:
      return undefined;
  }
}

/**
 * A queued web call is never dialled, so the outbound rules do not fit it. Unredeemed (its token's
 * hash still on it) it ends `canceled` once the token has been expired `webJoinGraceMs`: nobody can
 * join it any more, and no minutes were reserved. Redeemed but never answered, the engine died
 * between the two: it ends `error`, and the ending gives back any reservation.
 */
function webCallAction(call: CallRecord, nowMs: number, limits: SweepLimits): SweepAction | undefined {
  if (call.web_token_hash !== undefined) {
    const expiresAt = call.web_token_expires_at ?? Date.parse(call.created_at);
    return nowMs - expiresAt > limits.webJoinGraceMs ? end('web_never_joined', 'canceled') : undefined;
  }
  return nowMs - Date.parse(call.created_at) > limits.queuedTooLongMs ? end('web_join_died', 'error') : undefined;
}

function end(rule: SweepRule, reason: 'error' | 'no_answer' | 'canceled'): SweepAction {
  return { kind: 'end', rule, reason };
}

/** What one sweep did (logs, tests, metrics). */
export interface SweepReport {
  /** Open calls looked at (read from the open-calls index): what a sweep costs. */
  open: number;
  requeued: number;
  /** Endings that had stopped halfway, completed by this sweep. */
  finished: number;
  /** Calls this sweeper ended, by rule. */
  ended: Record<SweepRule, number>;
  /** Ends another writer (a concurrent sweeper, a carrier callback) got to first. */
  alreadyEnded: number;
  /** Best-effort carrier hang-ups that failed (the call is ended in our records anyway). */
  hangupFailures: number;
  /** Calls whose sweep threw (or a failed read of the open calls); retried on the next sweep. */
  errors: number;
}

export interface SweeperOptions extends Partial<SweepLimits> {
  calls: Pick<CallRepository, 'listOpenCalls'>;
  lifecycle: Pick<CallLifecycle, 'end' | 'finish'>;
  queue: OutboundCallQueue;
  /** Hangs up the carrier leg of calls it ends; without it only our records are ended. */
  telephony?: CarrierHangup;
  now: () => Date;
  log: Logger;
  /** Calls acted on at once; default 4. */
  concurrency?: number;
  /** Most open calls read per sweep; default {@link DEFAULT_MAX_OPEN_CALLS}. */
  maxOpenCalls?: number;
}

/**
 * Finds calls stuck in queued/ringing/in_progress (a dead dialler, lost carrier callbacks, a media
 * task that died) and endings that stopped halfway, and moves them on. It reads only the open
 * calls (the sparse open-calls index), so a sweep costs what is open now. One sweeper runs per
 * deployment (a scheduled Lambda; a timer in the local stack's parent process), never on the call
 * engine's thread. Two running at once are still safe: each end goes through `CallLifecycle.end`,
 * whose conditional write lets exactly one writer win, and a re-enqueued job is harmless because
 * the consumer's claim is conditional too.
 */
export class CallSweeper {
  private readonly limits: SweepLimits;

  constructor(private readonly options: SweeperOptions) {
    this.limits = {
      staleHeartbeatMs: options.staleHeartbeatMs ?? DEFAULT_SWEEP_LIMITS.staleHeartbeatMs,
      unfinishedEndingMs: options.unfinishedEndingMs ?? DEFAULT_SWEEP_LIMITS.unfinishedEndingMs,
      queuedTooLongMs: options.queuedTooLongMs ?? DEFAULT_SWEEP_LIMITS.queuedTooLongMs,
      queuedGiveUpMs: options.queuedGiveUpMs ?? DEFAULT_SWEEP_LIMITS.queuedGiveUpMs,
      ringingTooLongMs: options.ringingTooLongMs ?? DEFAULT_SWEEP_LIMITS.ringingTooLongMs,
      webJoinGraceMs: options.webJoinGraceMs ?? DEFAULT_SWEEP_LIMITS.webJoinGraceMs,
    };
  }

  /** One pass over every open call. */
  async sweepOnce(): Promise<SweepReport> {
    const report = emptyReport();
    const now = this.options.now();
    const max = this.options.maxOpenCalls ?? DEFAULT_MAX_OPEN_CALLS;
    const open = await this.options.calls.listOpenCalls(max);
    if (open.truncated) this.options.log.warn('sweeper.truncated', { max });
    report.open = open.calls.length;
    const pending = [...open.calls];
    const worker = async () => {
      for (let call = pending.shift(); call !== undefined; call = pending.shift()) await this.sweepCall(call, now, report);
    };
    await Promise.all(Array.from({ length: this.options.concurrency ?? 4 }, worker));
    return report;
  }

  /** Sweeps every `everyMs` until the returned stop is called; never keeps the process alive. */
  start(everyMs = 60_000): () => void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return; // a slow sweep is never overlapped by the next one
      running = true;
      this.sweepOnce()
        .catch((error) => this.options.log.error('sweeper.sweep_failed', { error }))
        .finally(() => (running = false));
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private async sweepCall(call: CallRecord, now: Date, report: SweepReport): Promise<void> {
    const action = sweepAction(call, now.getTime(), this.limits);
    if (!action) return;
    await this.apply(call, action, now, report).catch((error) => {
      report.errors++;
      this.options.log.error('sweeper.call_failed', { business_id: call.business_id, call_id: call.id, error });
    });
  }

  private async apply(call: CallRecord, action: SweepAction, now: Date, report: SweepReport): Promise<void> {
    const line = { business_id: call.business_id, call_id: call.id, status: call.status };
    if (action.kind === 'finish') {
      // An ending that stopped halfway (a throttle, a crash): the lifecycle completes what is left.
      await this.options.lifecycle.finish(call);
      report.finished++;
      this.options.log.info('sweeper.action', { ...line, action: 'finished' });
      return;
    }
    if (action.kind === 'requeue') {
      await this.options.queue.enqueue({ business_id: call.business_id, call_id: call.id });
      report.requeued++;
      this.options.log.info('sweeper.action', { ...line, action: 'requeued', age_s: ageSeconds(call.created_at, now) });
      return;
    }
    // End first, so the reason is ours and not the carrier's `canceled`/`completed` callback racing in.
    const endedAt = action.rule === 'heartbeat_stale' ? lastAlive(call) : undefined;
    const won = await this.options.lifecycle.end(call.business_id, call.id, { endedReason: action.reason, ...(endedAt && { endedAt }) });
    if (!won) {
      report.alreadyEnded++;
      return;
    }
    report.ended[action.rule]++;
    this.options.log.info('sweeper.action', { ...line, action: 'ended', rule: action.rule, ended_reason: action.reason });
    if (call.carrier_call_sid !== undefined && this.options.telephony) await this.hangup(call, call.carrier_call_sid, report);
  }

  /** Best effort: the call is already ended here; the carrier's TimeLimit bounds a missed hang-up. */
  private async hangup(call: CallRecord, carrierCallSid: string, report: SweepReport): Promise<void> {
    try {
      await this.options.telephony!.hangup(carrierCallSid);
    } catch (error) {
      report.hangupFailures++;
      this.options.log.error('sweeper.hangup_failed', { business_id: call.business_id, call_id: call.id, error });
    }
  }
}

/**
 * The last time a live call was known to be alive: its session's last heartbeat (every 30 s), else
 * its stream's start, else its answer. A call whose media task died is billed to here.
 */
function lastAlive(call: CallRecord): string | undefined {
  return call.heartbeat_at ?? call.media_started_at ?? call.started_at ?? undefined;
}

function emptyReport(): SweepReport {
  return {
    open: 0,
    requeued: 0,
    finished: 0,
    ended: {
      never_claimed: 0,
      dial_died: 0,
      no_progress: 0,
      ringing_too_long: 0,
      heartbeat_stale: 0,
      web_never_joined: 0,
      web_join_died: 0,
    },
    alreadyEnded: 0,
    hangupFailures: 0,
    errors: 0,
  };
}

function ageSeconds(at: string, now: Date): number {
  return Math.round((now.getTime() - Date.parse(at)) / 1000);
}
