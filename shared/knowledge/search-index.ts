import MiniSearch from 'minisearch';
import type { KnowledgeHit } from '../domain/knowledge';

/** A chunk as the index holds it. */
export interface IndexedChunk {
  document_id: number;
  document_name: string;
  heading: string;
  text: string;
}

/** Weights of the two halves of the hybrid score (the vector's cosine and the keyword score, each 0-1). */
const WEIGHTS = { vector: 0.6, keyword: 0.4 } as const;
/** Keyword candidates considered per query before fusion. */
const KEYWORD_CANDIDATES = 50;

/*
 * The memory of a loaded index, estimated from what it actually holds: the keyword index grows
 * with its distinct terms (a node of MiniSearch's radix tree and two small maps each) and its
 * postings (an entry in a term's map of chunks for each distinct term of each field of each
 * chunk), which a cost per chunk cannot see. Before, 4 KiB a chunk was calibrated on natural text
 * and an attacker's 10,000 chunks of random 2-4 letter words held 275 MiB against 64 MiB
 * estimated (random 8-12 letter words or hex ids: 490-590 MiB, 7-9x under). Calibrated with
 * bench:knowledge part `estimate` (docs/performance.md) over nine corpora, natural and hostile:
 * the smallest costs (a grid of them) that estimate every corpus at least 5 % over its real heap
 * (the closest: every word in 65 chunks, so each map of chunks just grew and is half empty) and
 * natural text 27 % over. Text is counted at 2 bytes a character (V8 keeps ASCII in one), the
 * vectors exactly. Counting the postings takes one Set add a word while building (a build took no
 * measurably longer: 1.9-2.0 s for the natural 10,000 chunks against 2.7-4.0 s before, noise).
 */
/** MiniSearch's instance, its maps and the index's own fields. */
const BYTES_PER_INDEX = 16 * 1024;
/** The chunk object, its heading, MiniSearch's id maps and field lengths (besides text and vectors). */
const BYTES_PER_CHUNK = 512;
/** A distinct term: 470-630 bytes measured (longer, random words the most; 20-40 letters 620). */
const BYTES_PER_TERM = 720;
/** A term's entry for one field of one chunk: 36 bytes measured in natural text, ~41 in half-empty maps. */
const BYTES_PER_POSTING = 48;

/** What a keyword-and-vector index holds, as far as its memory goes. */
export interface IndexContents {
  chunks: number;
  /** Characters of the chunks' texts, headings and document names. */
  textChars: number;
  /** Distinct terms in the keyword index. */
  terms: number;
  /** Distinct terms of each field of each chunk, summed. */
  postings: number;
  dimensions: number;
}

/** The estimated memory of an index holding these contents. */
export function estimateIndexBytes(contents: IndexContents): number {
  const { chunks, textChars, terms, postings, dimensions } = contents;
  return (
    BYTES_PER_INDEX + chunks * (BYTES_PER_CHUNK + dimensions * 4) + terms * BYTES_PER_TERM + postings * BYTES_PER_POSTING + textChars * 2
  );
}

/** Lets timers and I/O run between two slices of a long job. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Chunks indexed between two yields to the event loop: about 0.2 ms a chunk of ~700 characters
 * on this 2-core machine, so a slice blocks ~5 ms (50 a slice blocked ~15 ms, 100 ~50 ms; the
 * whole build takes the same ~2 s for 10,000 chunks at any of these sizes).
 */
const BUILD_SLICE = 20;

/** Words too common to carry meaning in a question ("what are your ..."). */
const STOP_WORDS = new Set(
  'a an and are as at be by can could do does did for from how i if in is it me my of on or our so that the their them there this to us was we what when where which who why will with would you your'.split(
    ' ',
  ),
);

/** A word as the keyword index holds it: lower case, or none for a stop word. */
function indexedTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return STOP_WORDS.has(lower) ? null : lower;
}

const defaultTokenize = MiniSearch.getDefault('tokenize') as (text: string, fieldName?: string) => string[];

/**
 * Distinct words a base's keyword index holds at most. A distinct word costs ~720 bytes, and an
 * attacker's random words reach 370,000-890,000 in a base at the passage cap (275-590 MiB, past
 * the whole cache budget, so such a base was rebuilt on every search). Natural text has far fewer
 * (the bench's corpus 3,000; a catalogue of 100,000 product codes fits). Past the cap, a word not
 * yet indexed is left out of the keyword half (the chunks' earlier words and their vectors are
 * still searched), so a base's keyword index stays under ~110 MiB of terms whatever its text.
 */
export const MAX_INDEX_TERMS = 150_000;

/**
 * Counts the keyword index's postings (the distinct terms of each field of each chunk, one entry
 * each in MiniSearch's term-to-chunks maps) while it is built, for the estimate, and holds its
 * vocabulary to `maxTerms`: MiniSearch tokenizes a field just before it processes that field's
 * terms, so a tokenize call closes the previous field.
 */
class PostingCounter {
  #postings = 0;
  readonly #field = new Set<string>();
  /** The words indexed so far (dropped once the build is done). */
  readonly #vocabulary = new Set<string>();
  /** Words left out for the cap. */
  skipped = 0;

  constructor(private readonly maxTerms: number) {}

  readonly tokenize = (text: string, fieldName?: string): string[] => {
    this.#close();
    return defaultTokenize(text, fieldName);
  };

  readonly processTerm = (term: string): string | null => {
    const indexed = indexedTerm(term);
    // MiniSearch skips the empty term that splitting leaves at a field's edges.
    if (!indexed) return indexed;
    if (!this.#vocabulary.has(indexed)) {
      if (this.#vocabulary.size >= this.maxTerms) {
        this.skipped++;
        return null;
      }
      this.#vocabulary.add(indexed);
    }
    this.#field.add(indexed);
    return indexed;
  };

  /** The postings counted, the last field closed. */
  finish(): number {
    this.#close();
    this.#vocabulary.clear();
    return this.#postings;
  }

  #close(): void {
    this.#postings += this.#field.size;
    this.#field.clear();
  }
}

/**
 * A knowledge base's passages in memory, searched two ways at once: keywords (MiniSearch's BM25+,
 * with prefix matching on longer words) and vectors (cosine over the stored embeddings: a plain
 * loop over one Float32Array, 5,000 × 256 values in about a millisecond). Each half is scaled to
 * 0-1 and the two are blended; a passage either half finds can win.
 */
export class KnowledgeIndex {
  readonly #chunks: IndexedChunk[];
  readonly #vectors: Float32Array;
  readonly #dimensions: number;
  readonly #keywords: MiniSearch<{ id: number; heading: string; text: string }>;
  /** Distinct terms of each field of each chunk, summed (counted while building). */
  readonly postings: number;
  /** Words left out of the keyword half for {@link MAX_INDEX_TERMS} (0 for any natural base). */
  readonly wordsLeftOut: number;

  private constructor(
    chunks: IndexedChunk[],
    vectors: Float32Array,
    dimensions: number,
    keywords: MiniSearch<{ id: number; heading: string; text: string }>,
    postings: number,
    wordsLeftOut: number,
  ) {
    this.#chunks = chunks;
    this.#vectors = vectors;
    this.#dimensions = dimensions;
    this.#keywords = keywords;
    this.postings = postings;
    this.wordsLeftOut = wordsLeftOut;
  }

  /**
   * Builds the index off the hot path: the keyword index takes `sliceSize` chunks at a time and
   * lets the event loop run between slices (MiniSearch's `addAllAsync`, a `setTimeout(0)` each), so
   * other businesses' searches and calls on this process wait a slice, never a whole base.
   * @example const index = await KnowledgeIndex.build(chunks, vectors, 256);
   */
  static async build(
    chunks: IndexedChunk[],
    vectors: Float32Array,
    dimensions: number,
    { sliceSize = BUILD_SLICE, maxTerms = MAX_INDEX_TERMS }: { sliceSize?: number; maxTerms?: number } = {},
  ): Promise<KnowledgeIndex> {
    if (vectors.length !== chunks.length * dimensions) throw new Error('knowledge index: vectors do not match chunks');
    const counter = new PostingCounter(maxTerms);
    const keywords = new MiniSearch<{ id: number; heading: string; text: string }>({
      fields: ['heading', 'text'],
      tokenize: counter.tokenize,
      processTerm: counter.processTerm,
      // Prefix matching on longer words only, no fuzzy matching: both multiply the terms a query
      // visits (fuzzy made p50 5x slower over 5,000 chunks); the vectors already match word forms.
      // A query is tokenized and processed as the chunks were, but not counted.
      searchOptions: { boost: { heading: 1.5 }, prefix: (term) => term.length > 5, tokenize: defaultTokenize, processTerm: indexedTerm },
    });
    // MiniSearch's own addAllAsync waits a setTimeout(0) a slice, which Node clamps to 1 ms.
    for (let start = 0; start < chunks.length; start += sliceSize) {
      if (start > 0) await yieldToEventLoop();
      const slice = chunks.slice(start, start + sliceSize);
      keywords.addAll(slice.map((chunk, i) => ({ id: start + i, heading: chunk.heading, text: chunk.text })));
    }
    const postings = counter.finish();
    return new KnowledgeIndex(chunks, vectors, dimensions, keywords, postings, counter.skipped);
  }

  get size(): number {
    return this.#chunks.length;
  }

  /** Bytes the vectors take (the text and keyword index come on top). */
  get vectorBytes(): number {
    return this.#vectors.byteLength;
  }

  /** Distinct terms in the keyword index (its term tree's leaves). */
  get terms(): number {
    return this.#keywords.termCount;
  }

  /** The memory this index is estimated to hold ({@link estimateIndexBytes}). */
  get estimatedBytes(): number {
    let textChars = 0;
    for (const chunk of this.#chunks) textChars += chunk.heading.length + chunk.text.length + chunk.document_name.length;
    return estimateIndexBytes({
      chunks: this.#chunks.length,
      textChars,
      terms: this.terms,
      postings: this.postings,
      dimensions: this.#dimensions,
    });
  }

  /** The `topK` best passages for a query and its embedding, best first. */
  search(query: string, queryVector: Float32Array, topK: number): KnowledgeHit[] {
    if (this.#chunks.length === 0) return [];
    const scores = new Map<number, number>();
    const dims = this.#dimensions;
    const cosines = new Float32Array(this.#chunks.length);
    for (let c = 0; c < this.#chunks.length; c++) {
      let dot = 0;
      const base = c * dims;
      for (let d = 0; d < dims; d++) dot += this.#vectors[base + d]! * queryVector[d]!;
      cosines[c] = dot;
    }
    const keyword = this.#keywords.search(query).slice(0, KEYWORD_CANDIDATES);
    const topKeyword = keyword[0]?.score ?? 0;
    const keywordScore = new Map(keyword.map((hit) => [hit.id as number, topKeyword > 0 ? hit.score / topKeyword : 0]));
    // Candidates: every keyword hit, and the best vectors.
    const byVector = bestIndexes(cosines, Math.max(topK * 4, 20));
    for (const id of new Set([...byVector, ...keywordScore.keys()])) {
      const cosine = Math.max(0, cosines[id]!);
      scores.set(id, WEIGHTS.vector * cosine + WEIGHTS.keyword * (keywordScore.get(id) ?? 0));
    }
    return [...scores.entries()]
      .filter(([, score]) => score > 0)
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, topK)
      .map(([id, score]) => {
        const chunk = this.#chunks[id]!;
        return {
          document_id: chunk.document_id,
          document_name: chunk.document_name,
          text: chunk.heading === '' ? chunk.text : `${chunk.heading}: ${chunk.text}`,
          score: Math.round(Math.min(1, score) * 1000) / 1000,
        };
      });
  }
}

/** The indexes of the `count` largest values, best first: one pass keeping a small sorted list (no sort of all). */
function bestIndexes(values: Float32Array, count: number): number[] {
  const best: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (best.length === count && value <= values[best[count - 1]!]!) continue;
    let at = best.length;
    while (at > 0 && values[best[at - 1]!]! < value) at--;
    best.splice(at, 0, i);
    if (best.length > count) best.pop();
  }
  return best;
}
