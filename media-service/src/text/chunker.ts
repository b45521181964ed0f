/**
 * Cuts streamed LLM text into pieces worth sending to TTS: whole sentences, or a clause once
 * enough text has built up, so the first audio starts after a few words instead of a whole
 * sentence (docs/protocols.md "The voice-to-voice budget": waiting for full sentences costs ~100–400 ms), while never splitting
 * numbers ("3.50", "1,000", "10:30") or abbreviations ("Dr. Smith", "a.m.", "e.g.").
 *
 * A boundary is only decided once the character after it has arrived (a "." followed by a digit
 * is a decimal point), so a piece is held until the next delta or `flush()`.
 *
 * @example
 * ```ts
 * const chunker = new SentenceChunker();
 * chunker.push('Sure, Dr. Smith can see you at 3.30 today. ');   // → ['Sure, Dr. Smith can see you at 3.30 today.']
 * chunker.push('Shall I book it');                                // → []
 * chunker.flush();                                                // → ['Shall I book it']
 * ```
 */
export interface ChunkerOptions {
  /** The first piece may end at a clause boundary once it has this many characters (default 20). */
  firstClauseChars?: number;
  /** Later pieces may end at a clause boundary once they have this many characters (default 60). */
  clauseChars?: number;
  /** With no boundary at all, a piece is cut at a space beyond this length (default 250). */
  maxChars?: number;
}

/** Titles: a following capitalised name is part of the same sentence. */
const TITLES = new Set(['mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'rev', 'hon', 'capt', 'sgt', 'lt', 'col', 'gen', 'mt', 'ft', 'jr', 'sr']);
/** Abbreviations that never end a sentence in practice. */
const NEVER_FINAL = new Set(['e.g', 'i.e', 'vs', 'approx', 'incl', 'dept', 'est', 'apt', 'ste', 'ext', 'tel']);
/** Abbreviations that end a sentence only when the next word is capitalised ("at 5 p.m. See you"). */
const MAYBE_FINAL = new Set(['a.m', 'p.m', 'etc', 'inc', 'ltd', 'co', 'corp', 'ave', 'blvd', 'rd', 'ln', 'no']);
const CLOSERS = new Set(['"', "'", ')', ']', '”', '’', '»']);
const SENTENCE_END = new Set(['.', '!', '?', '…']);
const CLAUSE_END = new Set([',', ';', ':', '—', '–']);

type Verdict = number | 'none' | 'wait';

/** Incremental chunker for one reply; `reset()` it on barge-in. */
export class SentenceChunker {
  readonly #firstClause: number;
  readonly #clause: number;
  readonly #max: number;
  #buffer = '';
  #emitted = 0;

  constructor(options: ChunkerOptions = {}) {
    this.#firstClause = options.firstClauseChars ?? 20;
    this.#clause = options.clauseChars ?? 60;
    this.#max = options.maxChars ?? 250;
  }

  /** Adds a text delta; returns the pieces now complete (trimmed, non-empty), in order. */
  push(delta: string): string[] {
    this.#buffer += delta;
    const pieces: string[] = [];
    for (;;) {
      const end = this.#nextBoundary();
      if (end === undefined) break;
      this.#take(end, pieces);
    }
    return pieces;
  }

  /** End of the reply: returns whatever is left. */
  flush(): string[] {
    const pieces: string[] = [];
    this.#take(this.#buffer.length, pieces);
    this.#emitted = 0;
    return pieces;
  }

  /** Drops buffered text (barge-in) and starts a new reply. */
  reset(): void {
    this.#buffer = '';
    this.#emitted = 0;
  }

  #take(end: number, pieces: string[]): void {
    const piece = this.#buffer.slice(0, end).trim();
    this.#buffer = this.#buffer.slice(end);
    if (piece === '') return;
    pieces.push(piece);
    this.#emitted += 1;
  }

  /** End index (exclusive) of the next complete piece, or undefined to wait for more text. */
  #nextBoundary(): number | undefined {
    const buf = this.#buffer;
    const clauseMin = this.#emitted === 0 ? this.#firstClause : this.#clause;
    for (let i = 0; i < buf.length; i++) {
      const verdict = boundaryAt(buf, i, clauseMin);
      if (verdict === 'wait') return undefined;
      if (verdict !== 'none' && buf.slice(0, verdict).trim() !== '') return verdict;
    }
    if (buf.length <= this.#max) return undefined;
    const space = buf.lastIndexOf(' ', this.#max);
    return space > 0 ? space + 1 : this.#max;
  }
}

function boundaryAt(buf: string, i: number, clauseMin: number): Verdict {
  const ch = buf[i]!;
  if (ch === '\n') return i + 1;
  if (SENTENCE_END.has(ch)) return sentenceEnd(buf, i);
  const isDash = ch === '-' && buf[i - 1] === ' ';
  if (!CLAUSE_END.has(ch) && !isDash) return 'none';
  if (i + 1 >= buf.length) return 'wait';
  if (!/\s/.test(buf[i + 1]!)) return 'none';
  return buf.slice(0, i + 1).trim().length >= clauseMin ? i + 1 : 'none';
}

function sentenceEnd(buf: string, i: number): Verdict {
  let j = i + 1;
  while (j < buf.length && (CLOSERS.has(buf[j]!) || SENTENCE_END.has(buf[j]!))) j++;
  if (j >= buf.length) return 'wait';
  if (!/\s/.test(buf[j]!)) return 'none';
  if (buf[i] !== '.') return j;
  const word = wordBefore(buf, i);
  if (TITLES.has(word) || NEVER_FINAL.has(word) || /^\p{L}$/u.test(word)) return 'none';
  if (!MAYBE_FINAL.has(word)) return j;
  let k = j;
  while (k < buf.length && /\s/.test(buf[k]!)) k++;
  if (k >= buf.length) return 'wait';
  if (word === 'no' && /\d/.test(buf[k]!)) return 'none';
  return /\p{Lu}/u.test(buf[k]!) ? j : 'none';
}

/** The lower-cased word ending just before index `dot`, without surrounding quotes or brackets. */
function wordBefore(buf: string, dot: number): string {
  let start = dot;
  while (start > 0 && !/\s/.test(buf[start - 1]!)) start--;
  return buf
    .slice(start, dot)
    .replace(/^["'([“‘«]+/, '')
    .toLowerCase();
}
