import type { CallEffect, CallSettings, CallState, Facts, NamedCall } from './call-types';

/**
 * One step of the call's reducer in the making: the settings, the next state (a shallow copy of
 * the last one; each part is replaced, never changed in place) and the effects so far. The rule
 * modules (`./floor.ts`, `./endings.ts`, `./replies.ts`, `./parts.ts`) write into it.
 */
export interface Draft<Call extends NamedCall = NamedCall> {
  readonly set: CallSettings;
  readonly s: CallState;
  readonly fx: CallEffect<Call>[];
  /** Clock ms of the event (transcript times, the workflow's path). */
  readonly at: number;
}

/** Facts when nothing is going on (the call's start). */
export const QUIET: Facts = { audible: false, speaking: false, replying: false, callerSpeaking: false };

/** Someone is talking or thinking: the silence clock waits. */
export const busy = (facts: Facts): boolean => facts.replying || facts.speaking || facts.callerSpeaking;

/** The call's ending is decided. */
export const ending = (d: Draft): boolean => d.s.ending.reason !== undefined;

/** A machine is on the line: the call is voicemail's. */
export const onVoicemail = (d: Draft): boolean => d.s.voicemail !== 'none';

/** The notice must go before the assistant's next words: not heard in full, and none asked for or playing. */
export const noticeDue = (d: Draft): boolean => d.set.notice !== '' && !d.s.notice.pending && !d.s.notice.heard;

/** An outbound call still listening for a machine: nothing of ours may be said yet. */
export const screening = (d: Draft): boolean => d.s.opening.phase === 'waiting' && d.s.opening.for === 'callee';

/** Ms since the call started (the workflow's path). */
export const sinceStart = (d: Draft): number => Math.max(0, Math.round(d.at - d.set.t0));
