import { EMBEDDING_DIMENSIONS } from '../../shared/knowledge/embeddings';
import { KnowledgeIndex, type IndexedChunk } from '../../shared/knowledge/search-index';
import { random } from './random';

const rand = random(11);
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const letters = (min: number, max: number) =>
  Array.from({ length: min + Math.floor(rand() * (max - min + 1)) }, () => LETTERS[Math.floor(rand() * 26)]).join('');
const CYRILLIC = 'абвгдежзийклмнопрстуфхцчшщыэюя';
const cyrillic = (min: number, max: number) =>
  Array.from({ length: min + Math.floor(rand() * (max - min + 1)) }, () => CYRILLIC[Math.floor(rand() * CYRILLIC.length)]).join('');
const hex = () =>
  Math.floor(rand() * 2 ** 32)
    .toString(16)
    .padStart(8, '0');

/** Words joined by spaces up to about `chars` characters. */
function passage(chars: number, word: () => string): string {
  const words: string[] = [];
  let length = 0;
  while (length < chars) {
    const next = word();
    words.push(next);
    length += next.length + 1;
  }
  return words.join(' ');
}

/**
 * Chunks of 110 words each, every word in `chunks` of the 10,000 (its map of chunks grown just
 * past a power of two, so about half of it is empty slots).
 */
function spread(chunks: number): () => string {
  const vocabulary = Math.floor((10_000 * 110) / chunks);
  let slot = 0;
  return () => Array.from({ length: 110 }, () => `w${(slot++ % vocabulary).toString(36).padStart(5, '0')}`).join(' ');
}

/** A corpus: how many chunks, and how one chunk's text is written. */
interface Corpus {
  label: string;
  chunks: number;
  text: () => string;
}

function corpora(paragraph: (sentences: number) => string): Corpus[] {
  const rich = Array.from({ length: 3000 }, () => letters(5, 10));
  return [
    { label: 'natural (the bench corpus, ~800 characters)', chunks: 10_000, text: () => paragraph(9) },
    { label: 'random 2-4 letter words', chunks: 10_000, text: () => passage(800, () => letters(2, 4)) },
    { label: 'random 8-12 letter words', chunks: 10_000, text: () => passage(800, () => letters(8, 12)) },
    { label: 'hex ids (8 hex digits)', chunks: 10_000, text: () => passage(800, hex) },
    { label: 'numeric ids (6-10 digits)', chunks: 10_000, text: () => passage(800, () => String(Math.floor(rand() * 1e10))) },
    { label: 'random 20-40 letter words', chunks: 10_000, text: () => passage(800, () => letters(20, 40)) },
    { label: 'random 8-12 letter Cyrillic words', chunks: 10_000, text: () => passage(800, () => cyrillic(8, 12)) },
    { label: 'each word in 65 chunks (maps just past a doubling)', chunks: 10_000, text: spread(65) },
    {
      label: 'small rich base (200 chunks, 3,000-word vocabulary)',
      chunks: 200,
      text: () => passage(800, () => rich[Math.floor(rand() * rich.length)]!),
    },
  ];
}

/** Heap and array buffers after a full collection (run with --expose-gc). */
function memoryBytes(): number {
  globalThis.gc?.();
  globalThis.gc?.();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** The estimate before 2026-11-26: 16 KiB + 4 KiB a chunk + 2 bytes a character + the vectors. */
const oldEstimate = (chunks: number, textChars: number) => 16 * 1024 + chunks * (4 * 1024 + EMBEDDING_DIMENSIONS * 4) + textChars * 2;

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/**
 * bench:knowledge part `estimate`: the real memory of a built {@link KnowledgeIndex} (heap and
 * array buffers after a full GC, its chunks, texts and vectors included, as a base loaded from
 * DynamoDB holds them) against the cache's estimate of it, over natural text and over the
 * vocabularies an attacker can pick (every word distinct, ids, a small base with many words).
 */
export async function benchEstimate(paragraph: (sentences: number) => string): Promise<void> {
  console.log('  corpus | chunks | real MiB | terms | postings | estimate MiB (real ×) | old estimate MiB (real ×) | build ms');
  const only = process.env.BENCH_ESTIMATE_CORPUS; // one corpus by its position, to check the others leave nothing behind
  for (const [n, corpus] of corpora(paragraph).entries()) {
    if (only !== undefined && Number(only) !== n) continue;
    // One function call a corpus: a suspended async frame would keep the last index alive.
    const { real, terms, postings, estimate, old, buildMs } = await measure(corpus);
    console.log(
      `  ${corpus.label} | ${corpus.chunks} | ${mib(real)} | ${terms} | ${postings} | ${mib(estimate)} (${(estimate / real).toFixed(2)}) | ${mib(old)} (${(old / real).toFixed(2)}) | ${buildMs.toFixed(0)}`,
    );
  }
}

/** Builds one corpus's index and returns its figures only, so that nothing of it outlives the call. */
async function measure(corpus: Corpus) {
  const before = memoryBytes();
  const chunks: IndexedChunk[] = Array.from({ length: corpus.chunks }, (_, i) => ({
    document_id: 1 + Math.floor(i / 2000),
    document_name: `Document ${Math.floor(i / 2000)}`,
    heading: `Part ${i % 40}`,
    text: corpus.text(),
  }));
  const vectors = new Float32Array(corpus.chunks * EMBEDDING_DIMENSIONS).fill(0.01);
  const started = performance.now();
  const index = await KnowledgeIndex.build(chunks, vectors, EMBEDDING_DIMENSIONS);
  const buildMs = performance.now() - started;
  const real = memoryBytes() - before;
  const textChars = chunks.reduce((sum, c) => sum + c.text.length + c.heading.length + c.document_name.length, 0);
  return {
    real,
    terms: index.terms,
    postings: index.postings,
    estimate: index.estimatedBytes,
    old: oldEstimate(corpus.chunks, textChars),
    buildMs,
  };
}
