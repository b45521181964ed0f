/**
 * Applies an assistant's `voice.pronunciations` ({word, say}) to text before TTS, because Aura
 * has no pronunciation dictionary: the replacement spelling is what gets spoken.
 *
 * Matching is whole-word (a match may not touch a letter, digit or underscore on either side, so
 * entries like "C++" or "AT&T" work too), case-insensitive, longest entry first (so "Acme Dental
 * Care" wins over "Acme"), and in one pass: replaced text is never matched again.
 *
 * @example
 * ```ts
 * const say = compilePronunciations([{ word: 'Nguyen', say: 'win' }, { word: 'SQL', say: 'sequel' }]);
 * say('Dr. nguyen knows SQL.'); // → 'Dr. win knows sequel.'
 * ```
 */
export interface Pronunciation {
  word: string;
  say: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Builds a reusable replacer (compile once per call, apply to every chunk). */
export function compilePronunciations(entries: readonly Pronunciation[]): (text: string) => string {
  const byWord = new Map<string, string>();
  for (const { word, say } of entries) {
    const key = word.trim().toLowerCase();
    if (key !== '' && !byWord.has(key)) byWord.set(key, say);
  }
  if (byWord.size === 0) return (text) => text;
  const alternatives = [...byWord.keys()].sort((a, b) => b.length - a.length || a.localeCompare(b)).map(escapeRegExp);
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
  return (text) => text.replace(pattern, (match) => byWord.get(match.toLowerCase()) ?? match);
}

/** One-off convenience over {@link compilePronunciations}. */
export function applyPronunciations(text: string, entries: readonly Pronunciation[]): string {
  return compilePronunciations(entries)(text);
}
