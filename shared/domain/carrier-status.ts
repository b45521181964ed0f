import type { ENDED_REASONS } from './call';

type EndedReason = (typeof ENDED_REASONS)[number];

/** What a carrier status callback means for our call record. */
export type CarrierTransition =
  { kind: 'ignore' } | { kind: 'ringing' } | { kind: 'answered' } | { kind: 'ended'; endedReason: EndedReason };

/**
 * Maps Twilio's `CallStatus` (queued, initiated, ringing, in-progress, completed, busy, no-answer,
 * failed, canceled) to our lifecycle. `completed` without an earlier reason of ours means the
 * other side hung up; the engine records its own reasons (end phrase, silence…) before it hangs up,
 * and ending is idempotent, so the first recorded reason wins.
 */
export function carrierTransition(callStatus: string): CarrierTransition {
  switch (callStatus) {
    case 'ringing':
      return { kind: 'ringing' };
    case 'in-progress':
    case 'answered':
      return { kind: 'answered' };
    case 'completed':
      return { kind: 'ended', endedReason: 'caller_hung_up' };
    case 'busy':
      return { kind: 'ended', endedReason: 'busy' };
    case 'no-answer':
      return { kind: 'ended', endedReason: 'no_answer' };
    case 'failed':
      return { kind: 'ended', endedReason: 'failed' };
    case 'canceled':
      return { kind: 'ended', endedReason: 'canceled' };
    default:
      return { kind: 'ignore' };
  }
}

/** Whole seconds between two ISO timestamps (0 when the call never started). */
export function durationSeconds(startedAt: string | null, endedAt: string): number {
  if (!startedAt) return 0;
  return Math.max(0, Math.round((Date.parse(endedAt) - Date.parse(startedAt)) / 1000));
}

/** Epoch seconds at which a call ended at `endedAt` expires under `keep_days` (undefined: keep forever). */
export function expiryFor(endedAt: string, keepDays: number): number | undefined {
  if (keepDays <= 0) return undefined;
  return Math.floor(Date.parse(endedAt) / 1000) + keepDays * 86_400;
}
