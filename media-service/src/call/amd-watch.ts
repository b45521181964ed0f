import { isAnsweredBy, type AnsweredBy } from '../ports/telephony';
import type { CallRecords } from '../ports/call-records';
import type { CallContext } from './call-context';
import type { SessionTimers } from './session-types';

/** How often the call's record is read for a verdict stored by another media task. */
export const AMD_WATCH_EVERY_MS = 1000;

/** Twilio gives its verdict within `MachineDetectionTimeout` (30 s by default); the watch stops then. */
export const AMD_WATCH_FOR_MS = 30_000;

/**
 * The carrier's answering-machine verdict for a call this task hosts, when the carrier's callback
 * reached another media task (the load balancer picks any): that task stores it on the call, so
 * the call's record is read every {@link AMD_WATCH_EVERY_MS} until a verdict is there, the window
 * closes or `stop` is called. One GetItem a second, for the first seconds of an outbound call with
 * `voicemail_detection` only (docs/design.md "How a call opens").
 */
export function watchAnsweredBy(options: {
  calls: CallRecords;
  businessId: number;
  callId: number;
  timers: SessionTimers;
  deliver: (answeredBy: AnsweredBy) => void;
}): () => void {
  const { calls, businessId, callId, timers, deliver } = options;
  let stopped = false;
  let handle: unknown;
  let waited = 0;
  const check = async (): Promise<void> => {
    if (stopped) return;
    const verdict = await calls.answeredBy(businessId, callId).catch(() => undefined);
    if (stopped) return;
    if (isAnsweredBy(verdict)) return deliver(verdict);
    waited += AMD_WATCH_EVERY_MS;
    if (waited < AMD_WATCH_FOR_MS) handle = timers.setTimeout(() => void check(), AMD_WATCH_EVERY_MS);
  };
  handle = timers.setTimeout(() => void check(), AMD_WATCH_EVERY_MS);
  return () => {
    stopped = true;
    timers.clearTimeout(handle);
  };
}

/**
 * The verdict at the start of a conversation: one that came before it is replayed to it; an
 * outbound call screened for machines takes one already stored on its record, or watches the
 * record for one (the returned `stop`).
 */
export function amdForCall(
  context: CallContext,
  session: {
    known: AnsweredBy | undefined;
    calls: CallRecords;
    timers: SessionTimers;
    replay(v: AnsweredBy): void;
    deliver(v: AnsweredBy): void;
  },
): (() => void) | undefined {
  if (session.known !== undefined) return void session.replay(session.known);
  const { call, config } = context;
  if (call.direction !== 'outbound' || !config.advanced.voicemail_detection) return undefined;
  if (isAnsweredBy(call.answered_by)) return void session.deliver(call.answered_by);
  return watchAnsweredBy({
    calls: session.calls,
    businessId: call.business_id,
    callId: call.id,
    timers: session.timers,
    deliver: session.deliver,
  });
}
