import { describe, expect, it } from 'vitest';
import { KnowledgeIndex, type IndexedChunk } from '../../../shared/knowledge/search-index';

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
    const index = await KnowledgeIndex.build(chunks, vectors, DIMENSIONS, 20);
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
