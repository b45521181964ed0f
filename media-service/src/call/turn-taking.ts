/**
 * Pure turn-taking rules (docs/protocols.md "Lessons from open-source voice pipelines"): when the caller's speech may cut the assistant off,
 * what counts as a backchannel, and whether text looks like an answering machine. No I/O and no
 * clock, so each rule is tested by table.
 */

/** `advanced.interruptions`. */
export type InterruptionMode = 'anytime' | 'after_greeting' | 'never';

/** What the session knows when the caller's words arrive. */
export interface InterruptContext {
  mode: InterruptionMode;
  /** `advanced.interrupt_min_words` (1–5): applies only while the assistant speaks. */
  minWords: number;
  /** Audio of the assistant is playing (or queued) right now. */
  assistantSpeaking: boolean;
  /** The first assistant turn (greeting and notice) has finished playing. */
  greetingDone: boolean;
  /** The caller's transcript so far in this turn. */
  transcript: string;
}

/** Short acknowledgements that mean "go on", not "stop" (LiveKit/Pipecat backchannel filters). */
const BACKCHANNELS = new Set([
  'mm',
  'mhm',
  'mm-hmm',
  'mmhmm',
  'hmm',
  'uh-huh',
  'uhhuh',
  'uh',
  'um',
  'ah',
  'oh',
  'yeah',
  'yep',
  'yes',
  'ok',
  'okay',
  'right',
  'sure',
  'got it',
  'i see',
  'alright',
  'all right',
  'cool',
  'nice',
  'great',
  'uh huh',
  'mm hmm',
]);

/** The words of a transcript, lower-cased, punctuation dropped (hyphens kept: "mm-hmm"). */
export function words(text: string): string[] {
  // A token needs a letter or digit: a dash ("wait -- stop") is not a word.
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s'-]/gu, ' ')
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word));
}

/** True when the whole utterance is up to three backchannels ("mm-hmm", "okay okay", "okay, got it"). */
export function isBackchannel(text: string): boolean {
  const list = words(text);
  let units = 0;
  for (let i = 0; i < list.length; units++) {
    if (BACKCHANNELS.has(`${list[i]} ${list[i + 1]}`)) i += 2;
    else if (BACKCHANNELS.has(list[i]!)) i += 1;
    else return false;
  }
  return units <= 3;
}

/**
 * Whether the caller's words cut the assistant off now. Nothing to interrupt when the assistant is
 * quiet; `never` never does; `after_greeting` protects the first turn; otherwise the caller must
 * have said at least `minWords` words that are not just a backchannel.
 */
export function shouldInterrupt(context: InterruptContext): boolean {
  if (!context.assistantSpeaking) return false;
  if (context.mode === 'never') return false;
  if (context.mode === 'after_greeting' && !context.greetingDone) return false;
  if (isBackchannel(context.transcript)) return false;
  return words(context.transcript).length >= context.minWords;
}

/** Phrases of voicemail greetings (checked on the first caller turns of an outbound call). */
const VOICEMAIL_PATTERNS = [
  /\bleave (?:me |us )?(?:a |your )?(?:message|name|number)\b/i,
  /\bafter the (?:tone|beep)\b/i,
  /(?:\bnot|n't) (?:available|able to take|here to take)\b/i,
  /\byou(?:'ve| have) reached\b/i,
  /\bvoice ?mail\b/i,
  /\bmailbox\b/i,
  /\b(?:i'll|i will|we'll|we will) (?:get back to you|call you back|return your call)\b/i,
];

/** True when a transcript sounds like an answering machine's greeting. */
export function soundsLikeVoicemail(transcript: string): boolean {
  let hits = 0;
  for (const pattern of VOICEMAIL_PATTERNS) if (pattern.test(transcript)) hits++;
  return hits >= 2 || /\bafter the (?:tone|beep)\b/i.test(transcript);
}

/**
 * Text cut to roughly `fraction` of its length, at a word boundary (what the caller heard): the
 * words wholly heard, so '' while the first word is still playing.
 */
export function truncateToFraction(text: string, fraction: number): string {
  if (fraction <= 0) return '';
  const target = Math.round(text.length * fraction);
  if (fraction >= 1 || target >= text.length) return text;
  const cut = text.lastIndexOf(' ', target);
  return cut > 0 ? text.slice(0, cut).trim() : '';
}
