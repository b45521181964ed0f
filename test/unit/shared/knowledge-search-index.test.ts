import { describe, expect, it } from 'vitest';
import { estimateIndexBytes, KnowledgeIndex, type IndexedChunk } from '../../../shared/knowledge/search-index';

const DIMENSIONS = 4;

function corpus(count: number): { chunks: IndexedChunk[]; vectors: Float32Array } {
  const chunks = Array.from({ length: count }, (_, i) => ({
    document_id: 1,
    document_name: 'Doc',
    heading: `Part ${i}`,
    text: `Passage ${i} about parking number${i} and opening hours.`,
  }));
  const vectors = new Float32Array(count * DIMENSIONS).fill(0.5);
  return { chunks, vectors };
}

describe('building a knowledge index', () => {
  it('yields to the event loop between slices: callbacks queued during a build run before it ends', async () => {
    // Arrange: a ticker that counts event-loop turns while the build runs
    const { chunks, vectors } = corpus(1000);
    let turns = 0;
    let building = true;
    const tick = () => {
      if (!building) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    // Act: 1,000 chunks, 20 a slice
    const index = await KnowledgeIndex.build(chunks, vectors, DIMENSIONS, { sliceSize: 20 });
    building = false;
    // Assert: one turn at least between each two of the 50 slices
    expect(turns).toBeGreaterThanOrEqual(49);
    expect(index.size).toBe(1000);
    expect(index.search('number777', new Float32Array(DIMENSIONS), 1)[0]).toMatchObject({ text: expect.stringContaining('Passage 777 ') });
  });

  it('refuses vectors that do not match its chunks', async () => {
    // Arrange
    const { chunks } = corpus(3);
    // Act
    const built = KnowledgeIndex.build(chunks, new Float32Array(2 * DIMENSIONS), DIMENSIONS);
    // Assert
    await expect(built).rejects.toThrow('vectors do not match chunks');
  });
});

/** `count` chunks of `words` words of six characters, drawn from `vocabulary` distinct words (in turn). */
function wordsCorpus(count: number, words: number, vocabulary: number): { chunks: IndexedChunk[]; vectors: Float32Array } {
  let next = 0;
  const chunks = Array.from({ length: count }, () => ({
    document_id: 1,
    document_name: 'Doc',
    heading: '',
    text: Array.from({ length: words }, () => `w${(next++ % vocabulary).toString(36).padStart(5, '0')}`).join(' '),
  }));
  return { chunks, vectors: new Float32Array(count * DIMENSIONS) };
}

describe("a knowledge index's memory estimate", () => {
  it('counts its terms and postings: the distinct words of each field of each chunk, stop words left out', async () => {
    // Arrange: heading {opening, hours}; text {hours, parking} ("the", "and", "of" are stop words, "hours" twice)
    const chunks = [{ document_id: 1, document_name: 'Doc', heading: 'Opening hours', text: 'The hours and the Hours of parking.' }];
    // Act
    const index = await KnowledgeIndex.build(chunks, new Float32Array(DIMENSIONS), DIMENSIONS);
    index.search('parking hours', new Float32Array(DIMENSIONS), 1); // a query is not counted
    // Assert
    expect([index.terms, index.postings]).toEqual([3, 4]);
    expect(index.estimatedBytes).toBe(
      estimateIndexBytes({
        chunks: 1,
        textChars: 'Opening hours'.length + chunks[0]!.text.length + 3,
        terms: 3,
        postings: 4,
        dimensions: DIMENSIONS,
      }),
    );
  });

  it('estimates an index of many distinct words larger than one of the same passages and characters with a few', async () => {
    // Arrange: 500 chunks of 100 six-character words each, from 100 words or all distinct
    const few = wordsCorpus(500, 100, 100);
    const distinct = wordsCorpus(500, 100, 50_000);
    // Act
    const [small, rich] = await Promise.all([
      KnowledgeIndex.build(few.chunks, few.vectors, DIMENSIONS),
      KnowledgeIndex.build(distinct.chunks, distinct.vectors, DIMENSIONS),
    ]);
    // Assert: the same postings, 500 times the terms
    expect([small.terms, rich.terms]).toEqual([100, 50_000]);
    expect([small.postings, rich.postings]).toEqual([50_000, 50_000]);
    expect(rich.estimatedBytes).toBeGreaterThan(small.estimatedBytes + 50_000 * 500);
  });

  it('holds at most maxTerms distinct words: later new words are left out of the keyword half, known ones still indexed', async () => {
    // Arrange: 50 chunks of 100 distinct words each (5,000 in all), then one that repeats the first word
    const { chunks, vectors } = wordsCorpus(50, 100, 5_000);
    const repeat = { document_id: 2, document_name: 'Doc', heading: '', text: `${chunks[0]!.text.split(' ')[0]} parking` };
    const all = [...chunks, repeat];
    const allVectors = new Float32Array(all.length * DIMENSIONS);
    allVectors.set(vectors);
    // Act
    const index = await KnowledgeIndex.build(all, allVectors, DIMENSIONS, { maxTerms: 1_000 });
    // Assert: the first 1,000 words (10 chunks' worth) are in; a known word is still found in the last chunk
    expect(index.terms).toBe(1_000);
    expect(index.wordsLeftOut).toBe(4_000 + 1);
    const found = index.search(chunks[0]!.text.split(' ')[0]!, new Float32Array(DIMENSIONS), 3).map((hit) => hit.document_id);
    expect(found).toContain(2);
    expect(index.search(chunks[20]!.text.split(' ')[0]!, new Float32Array(DIMENSIONS), 3)).toHaveLength(0);
  });

  it.each([
    ['terms', { terms: 1000 }],
    ['postings', { postings: 1000 }],
    ['chunks', { chunks: 1000 }],
    ['text', { textChars: 1000 }],
    ['dimensions', { dimensions: 1000 }],
  ])('grows with the %s it holds', (_, more) => {
    // Arrange
    const base = { chunks: 10, textChars: 800, terms: 300, postings: 500, dimensions: 256 };
    // Act
    const before = estimateIndexBytes(base);
    const after = estimateIndexBytes({ ...base, ...more });
    // Assert
    expect(after).toBeGreaterThan(before);
  });
});
