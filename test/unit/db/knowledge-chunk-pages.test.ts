import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHUNK_PAGE_BYTES, CHUNKS_PER_ITEM, chunkPageBytes, chunkPages, isItemTooLarge } from '../../../shared/db/knowledge-chunk-pages';
import type { Chunk } from '../../../shared/domain/knowledge';

const DIMENSIONS = 256;
const vectorFor = (i: number) => new Float32Array(DIMENSIONS).fill(i);
const asChunks = (page: { chunks: { h: string; t: string }[] }): Chunk[] => page.chunks.map((c) => ({ heading: c.h, text: c.t }));

describe('chunkPages', () => {
  it('packs bounded chunks 25 to a page, in order, each vector beside its chunk', () => {
    // Arrange
    const chunks = Array.from({ length: 60 }, (_, i) => ({ heading: 'Hours', text: `Passage ${i}.` }));
    // Act
    const pages = chunkPages(
      chunks,
      chunks.map((_, i) => vectorFor(i)),
      DIMENSIONS,
    );
    // Assert
    expect(pages.map((page) => page.chunks.length)).toEqual([CHUNKS_PER_ITEM, CHUNKS_PER_ITEM, 10]);
    expect(pages.flatMap(asChunks)).toEqual(chunks);
    const values = new Float32Array(Buffer.concat(pages.map((page) => page.vectors)).buffer.slice(0));
    expect(values[25 * DIMENSIONS]).toBe(25);
    expect(values[59 * DIMENSIONS + DIMENSIONS - 1]).toBe(59);
  });

  it('starts a new page before one would pass 350 KB, for 4-byte emoji and 3-byte CJK text', () => {
    // Arrange: chunks as an unbounded heading would have made them (20,000 emoji = 80 KB each)
    const arbitraryChunk = fc.record({
      heading: fc.string({ unit: fc.constantFrom('🦷', '字', 'a'), maxLength: 40_000 }),
      text: fc.string({ unit: fc.constantFrom('🙂', '語', ' '), maxLength: 1_200 }),
    });
    fc.assert(
      fc.property(fc.array(arbitraryChunk, { minLength: 1, maxLength: 60 }), (chunks) => {
        // Act
        const pages = chunkPages(
          chunks,
          chunks.map((_, i) => vectorFor(i)),
          DIMENSIONS,
        );
        // Assert: a page passes the bound only when it is one chunk too big for any page
        for (const page of pages) {
          const bytes = chunkPageBytes(asChunks(page), DIMENSIONS);
          expect(bytes <= CHUNK_PAGE_BYTES || page.chunks.length === 1).toBe(true);
          expect(page.chunks.length).toBeLessThanOrEqual(CHUNKS_PER_ITEM);
          expect(page.vectors.byteLength).toBe(page.chunks.length * DIMENSIONS * 4);
        }
        expect(pages.flatMap(asChunks)).toEqual(chunks);
      }),
      { numRuns: 100 },
    );
  });

  it('counts UTF-8 bytes, not characters: 4 per emoji (2 UTF-16 units), 3 per CJK character', () => {
    // Arrange
    const emoji = { heading: '🦷'.repeat(1000), text: '' };
    const cjk = { heading: '', text: '字'.repeat(1000) };
    const empty = { heading: '', text: '' };
    // Act + Assert
    expect(chunkPageBytes([emoji], DIMENSIONS) - chunkPageBytes([empty], DIMENSIONS)).toBe(4000);
    expect(chunkPageBytes([cjk], DIMENSIONS) - chunkPageBytes([empty], DIMENSIONS)).toBe(3000);
  });
});

describe('isItemTooLarge', () => {
  it.each([
    [{ name: 'ValidationException', message: 'Item size has exceeded the maximum allowed size' }, true],
    [{ name: 'ValidationException', message: 'Item size to update has exceeded the maximum allowed size' }, true],
    [{ name: 'ValidationException', message: 'One or more parameter values were invalid' }, false],
    [{ name: 'ProvisionedThroughputExceededException', message: 'Item size has exceeded the maximum allowed size' }, false],
    [undefined, false],
  ])('%j → %s', (error, expected) => {
    expect(isItemTooLarge(error)).toBe(expected);
  });
});
