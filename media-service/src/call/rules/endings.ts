import type { EndedReason } from '../../../../shared/domain/call';
import type { LineKind } from './call-types';
import type { Draft } from './draft';
import { silence } from './parts';

/**
 * How a call ends, as part of the call's reducer: the first reason wins (a provider failure
 * overrides it), the last words (goodbye, the fallback line, a voicemail message) play before the
 * hang-up, bounded so a lost mark never holds the call open.
 */

/** A voicemail message's wait bound per character (docs/decisions.md "What a voicemail owes the law"). */
export const VOICEMAIL_MS_PER_CHARACTER = 120;

/**
 * Decides the ending: every timer but a transfer's fallback stops, nothing new is thought up, and a
 * workflow acts no more.
 */
export function claim(d: Draft, reason: EndedReason): void {
  d.s.ending = { ...d.s.ending, reason };
  d.fx.push({ type: 'cancel_timers' }, { type: 'stop_thinking' });
  silence(d, { type: 'ending' });
  const rules = d.set.workflow;
  if (rules && d.s.workflow) d.s.workflow = rules.reduce(d.s.workflow, { type: 'ending' }).state;
}

/**
 * Ends the call: the goodbye first when asked for (`text`, else `end_call_message`; cut short
 * speech goes first on a time limit or a cancel), then the hang-up. Nothing once an ending is decided.
 */
export function endCall(d: Draft, reason: EndedReason, options: { goodbye: boolean; text?: string }): void {
  if (d.s.ending.reason !== undefined) return;
  claim(d, reason);
  const words = options.text ?? d.set.endCallMessage;
  if (!options.goodbye || words === '') return finishNow(d);
  if (reason === 'max_duration' || reason === 'canceled') d.fx.push({ type: 'silence' });
  lastWords(d, 'goodbye', words);
}

/**
 * A provider failed: the call ends `error`, after the fallback line when `safety_fallback` is on
 * and the voice still works (`voiceLost` false).
 */
export function fail(d: Draft, error: Error, voiceLost: boolean): void {
  // A provider failing after the hang-up (a recogniser closing late) changes nothing.
  if (d.s.ending.reason === 'error' || d.s.ending.finished) return;
  d.fx.push({ type: 'provider_failed', error });
  claim(d, 'error');
  d.fx.push({ type: 'silence' });
  if (!d.set.safetyFallback || voiceLost) return finishNow(d);
  lastWords(d, 'goodbye', d.set.fallbackLine);
}

/**
 * Says the call's last words; the hang-up follows when they have played, or at the bound. A
 * voicemail message (up to 600 characters, 40 s of speech) is bounded by its own length, at 120 ms
 * a character (speech is 60 to 70), so it is never cut short; `max_duration` still ends it.
 */
export function lastWords(d: Draft, kind: Extract<LineKind, 'goodbye' | 'voicemail'>, text: string): void {
  d.s.ending = { ...d.s.ending, lastWords: true };
  d.fx.push({ type: 'say', kind, text, turn: false });
  const bound = d.set.goodbyeMaxMs + (kind === 'voicemail' ? text.length * VOICEMAIL_MS_PER_CHARACTER : 0);
  d.fx.push({ type: 'arm', timer: 'goodbye', ms: bound });
}

/** The last words played (or their bound ran out): the session hangs up with the reason decided. */
export function finishNow(d: Draft): void {
  const { reason, finished } = d.s.ending;
  if (finished || reason === undefined) return;
  d.s.ending = { reason, lastWords: false, finished: true };
  d.fx.push({ type: 'cancel', timer: 'goodbye' }, { type: 'finish', reason });
}
