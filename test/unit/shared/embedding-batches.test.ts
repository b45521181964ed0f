import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHUNK_SEARCH_CHARS } from '../../../shared/knowledge/chunker';
import { cutToBytes, EMBEDDING_LIMITS, embeddingBatches } from '../../../shared/llm/embeddings-client';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('embeddingBatches', () => {
  it('keeps every request within 100 inputs and 250,000 bytes (so ≤ 250,000 tokens), in order', () => {
    // Arrange: texts of up to 8,000 emoji (32 KB), more than any chunk
    const texts = fc.array(fc.string({ unit: fc.constantFrom('🦷', '字', 'a', ' '), minLength: 1, maxLength: 8_000 }), { maxLength: 300 });
    fc.assert(
      fc.property(texts, (inputs) => {
        // Act
        const batches = embeddingBatches(inputs);
        // Assert
        for (const batch of batches) {
          expect(batch.length).toBeLessThanOrEqual(EMBEDDING_LIMITS.batchInputs);
          expect(batch.reduce((sum, input) => sum + bytes(input), 0)).toBeLessThanOrEqual(EMBEDDING_LIMITS.batchBytes);
          for (const input of batch) expect(bytes(input)).toBeLessThanOrEqual(EMBEDDING_LIMITS.inputBytes);
        }
        expect(batches.flat()).toEqual(inputs.map((text) => cutToBytes(text, EMBEDDING_LIMITS.inputBytes)));
      }),
      { numRuns: 50 },
    );
  });

  it('never cuts a chunk: the longest search text in 4-byte characters is under the input bound', () => {
    // 1,501 UTF-16 units at most 3 bytes each (an emoji is 2 units, 4 bytes): 4,503 < 8,000
    const worst = '字'.repeat(CHUNK_SEARCH_CHARS);
    expect(bytes(worst)).toBe(4_503);
    expect(cutToBytes(worst, EMBEDDING_LIMITS.inputBytes)).toBe(worst);
  });
});

describe('cutToBytes', () => {
  it.each([
    ['abc', 2, 'ab'],
    ['🦷🦷', 7, '🦷'],
    ['🦷🦷', 8, '🦷🦷'],
    ['a字', 3, 'a'],
    ['a字', 4, 'a字'],
    ['🦷', 3, ''],
  ])('cuts %j to %i bytes as %j, never inside a character', (text, max, expected) => {
    expect(cutToBytes(text, max)).toBe(expected);
  });
});
