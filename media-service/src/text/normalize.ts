/**
 * Makes LLM text fit to be spoken: strips what must never be read aloud (markdown markup, emoji,
 * HTML tags) and, when the voice's `read_titles` is on, expands titles and common abbreviations
 * ("Dr." → "Doctor", "St." → "Saint" or "Street" when the context says which) so the TTS does
 * not spell them out or guess. Run per chunk, before pronunciations:
 * `applyPronunciations(normalizeForSpeech(chunk, { readTitles }), voice.pronunciations)`.
 */
export interface NormalizeOptions {
  /** The voice's `read_titles` setting. */
  readTitles: boolean;
}

/** Emoji and their glue: pictographs, skin tones, ZWJ, variation selectors, keycaps, flags. */
// The joiners and selectors are listed one by one on purpose: each is removed on its own.
// eslint-disable-next-line no-misleading-character-class
const EMOJI = /[\p{Extended_Pictographic}\u{1F3FB}-\u{1F3FF}\u{1F1E6}-\u{1F1FF}\u200D\uFE0E\uFE0F\u20E3]/gu;

/** Strips markdown, HTML tags and emoji; collapses the whitespace they leave. */
export function stripUnspeakable(text: string): string {
  return text
    .replace(/```[^\n]*\n?/g, '')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/<\/?[a-z][^>]*>/gi, '')
    .replace(/^[ \t]*#{1,6}[ \t]+/gm, '')
    .replace(/^[ \t]*>[ \t]?/gm, '')
    .replace(/^[ \t]*[-*+•][ \t]+/gm, '')
    .replace(/^[ \t]*(?:[-*_][ \t]*){3,}$/gm, '')
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(?<![\p{L}\p{N}*])\*(?=\S)([^*\n]*?\S)\*(?![\p{L}\p{N}*])/gu, '$1')
    .replace(/(?<![\p{L}\p{N}_])_(?=\S)([^_\n]*?\S)_(?![\p{L}\p{N}_])/gu, '$1')
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
    .replace(/(\d)\s*\*\s*(?=\d)/g, '$1 times ')
    .replace(/\*/g, '')
    .replace(/\|/g, ', ')
    .replace(EMOJI, '')
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/ ([,.!?;:])/g, '$1')
    .trim();
}

/** Always the same expansion, whatever the context. */
const FIXED: [RegExp, string][] = [
  [/\bMr\./g, 'Mister'],
  [/\bMrs\./g, 'Missus'],
  [/\bMs\./g, 'Miz'],
  [/\bProf\./g, 'Professor'],
  [/\bRev\./g, 'Reverend'],
  [/\bCapt\./g, 'Captain'],
  [/\bSgt\./g, 'Sergeant'],
  [/\bLt\./g, 'Lieutenant'],
  [/\bHon\./g, 'Honorable'],
  [/\bJr\./g, 'Junior'],
  [/\bSr\./g, 'Senior'],
  [/\bMt\./g, 'Mount'],
  [/\bAve\./g, 'Avenue'],
  [/\bBlvd\./g, 'Boulevard'],
  [/\bRd\./g, 'Road'],
  [/\bApt\./g, 'Apartment'],
  [/\bSte\./g, 'Suite'],
  [/\be\.g\./gi, 'for example'],
  [/\bi\.e\./gi, 'that is'],
  [/\betc\./gi, 'et cetera'],
  [/\bvs\./gi, 'versus'],
  [/\bapprox\./gi, 'approximately'],
];

/** The abbreviation's dot also ended the text: keep a full stop so the TTS still hears a sentence end. */
function keepFinalStop(spoken: string, after: string): string {
  return /^[\s"'”’)]*$/.test(after) ? `${spoken}.` : spoken;
}

const CAPITALISED_NEXT = /^\s+\p{Lu}/u;
const STREET_BEFORE = /(?:\p{Lu}[\p{L}'-]*|\d+(?:st|nd|rd|th)?)\s+$/u;

/** "St." → "Saint" before a capitalised name ("St. Louis"), "Street" after a street name ("Main St."), else unchanged. */
function expandSt(text: string): string {
  return text.replace(/\bSt\./g, (match, offset: number) => {
    const after = text.slice(offset + match.length);
    if (CAPITALISED_NEXT.test(after)) return 'Saint';
    return STREET_BEFORE.test(text.slice(0, offset)) ? keepFinalStop('Street', after) : match;
  });
}

/** "Dr." → "Doctor" before a name, "Drive" after a street name ("Oak Dr."), "Doctor" otherwise. */
function expandDr(text: string): string {
  return text.replace(/\bDr\./g, (match, offset: number) => {
    const after = text.slice(offset + match.length);
    if (CAPITALISED_NEXT.test(after)) return 'Doctor';
    return keepFinalStop(STREET_BEFORE.test(text.slice(0, offset)) ? 'Drive' : 'Doctor', after);
  });
}

/** Expands titles and common abbreviations (the `read_titles` behaviour). */
export function expandTitles(text: string): string {
  let out = expandDr(expandSt(text));
  for (const [pattern, spoken] of FIXED) {
    out = out.replace(pattern, (match, offset: number, whole: string) => keepFinalStop(spoken, whole.slice(offset + match.length)));
  }
  return out;
}

/** The full per-chunk normalisation: strip the unspeakable, then expand titles when asked. */
export function normalizeForSpeech(text: string, options: NormalizeOptions): string {
  const stripped = stripUnspeakable(text);
  return options.readTitles ? expandTitles(stripped) : stripped;
}
