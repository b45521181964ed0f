import type { EndedReason, Outcome } from './call';

/** The transcript as outcome rules need it: who spoke and what. */
export interface SpokenLine {
  role: string;
  text: string;
}

/**
 * Outcomes that follow from how the call ended, with no conversation to judge (docs/design.md "Resources"):
 * the callee never answered, was busy, the carrier failed, a voicemail took the call, or the call
 * was handed to a person. `error` and `canceled` are absent on purpose: an error can strike in the
 * middle of a conversation (the conversation then decides), and a canceled call never rang.
 */
const MECHANICAL: Partial<Record<EndedReason, Outcome>> = {
  no_answer: 'no_answer',
  busy: 'busy',
  failed: 'failed',
  voicemail: 'voicemail',
  transferred: 'transferred',
};

/** Ended reasons where nobody (or only a machine) was on the other end: nothing for an LLM to analyse. */
const NO_CONVERSATION: ReadonlySet<EndedReason> = new Set(['no_answer', 'busy', 'failed', 'voicemail', 'canceled']);

/**
 * The outcome an ended reason decides by itself, or null when the conversation must decide it.
 *
 * @example
 * outcomeForEndedReason('busy'); // 'busy'
 * outcomeForEndedReason('caller_hung_up'); // null: resolved? unresolved? the analysis says
 */
export function outcomeForEndedReason(endedReason: EndedReason): Outcome | null {
  return MECHANICAL[endedReason] ?? null;
}

/** True when the caller said something (a non-blank `user` line). */
export function callerSpoke(transcript: readonly SpokenLine[]): boolean {
  return transcript.some((line) => line.role === 'user' && line.text.trim() !== '');
}

/**
 * Whether the LLM analysis (summary, evaluation, structured data, outcome) should run: only when a
 * person actually talked with the assistant. A call that never connected, reached a voicemail or was
 * canceled has nothing to analyse, nor has one where the caller never said a word. A transferred call
 * IS analysed (its summary matters) even though its outcome stays `transferred`.
 */
export function needsLlmAnalysis(endedReason: EndedReason, transcript: readonly SpokenLine[]): boolean {
  return !NO_CONVERSATION.has(endedReason) && callerSpoke(transcript);
}

/**
 * The call's final `outcome`: the mechanical one when the ended reason decides it, else the
 * analysis's, else a fallback when no analysis ran or it gave none: `failed` for our own error
 * before the caller said anything, `unresolved` otherwise; null for a canceled call (it never
 * happened, so it has no outcome).
 */
export function decideOutcome(endedReason: EndedReason, llmOutcome: Outcome | null, transcript: readonly SpokenLine[]): Outcome | null {
  const mechanical = outcomeForEndedReason(endedReason);
  if (mechanical !== null) return mechanical;
  if (endedReason === 'canceled') return null;
  if (llmOutcome !== null) return llmOutcome;
  return endedReason === 'error' && !callerSpoke(transcript) ? 'failed' : 'unresolved';
}
