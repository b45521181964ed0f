import { describe, expect, inject, it } from 'vitest';
import { createDb } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';
import { chunkPageBytes, ChunksTooLargeError, DYNAMODB_ITEM_BYTES } from '../../../shared/db/knowledge-chunk-pages';
import { KnowledgeRepository } from '../../../shared/db/knowledge-repository';
import type { Chunk } from '../../../shared/domain/knowledge';

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
const repo = new KnowledgeRepository(db);
const ids = new IdAllocator(db);
const DIMENSIONS = 256;

/** One chunk whose page is `bytes` by our count: a heading of 100,000 emoji (400,000 bytes) and ASCII text. */
function chunkOfPage(bytes: number): Chunk {
  const heading = '🦷'.repeat(100_000);
  const base = chunkPageBytes([{ heading, text: '' }], DIMENSIONS);
  return { heading, text: 'a'.repeat(bytes - base) };
}

describe('chunk page sizes against DynamoDB Local', () => {
  it("stores a page counted at exactly 409,600 bytes (our count is never under DynamoDB's)", async () => {
    // Arrange
    const [businessId, kbId, docId] = [await ids.nextId(), await ids.nextId(), await ids.nextId()];
    const chunk = chunkOfPage(DYNAMODB_ITEM_BYTES);
    expect(chunkPageBytes([chunk], DIMENSIONS)).toBe(DYNAMODB_ITEM_BYTES);
    // Act
    await repo.putChunks(businessId, kbId, docId, [chunk], [new Float32Array(DIMENSIONS)], DIMENSIONS);
    // Assert
    const [stored] = await repo.loadChunks(businessId, kbId);
    expect(stored!.chunks).toEqual([chunk]);
  });

  it("turns DynamoDB's refusal of a page over 400 KB into ChunksTooLargeError", async () => {
    // Arrange: past the limit even after the 512 bytes our count keeps for the keys
    const [businessId, kbId, docId] = [await ids.nextId(), await ids.nextId(), await ids.nextId()];
    const chunk = chunkOfPage(DYNAMODB_ITEM_BYTES + 513);
    // Act
    const error = await repo
      .putChunks(businessId, kbId, docId, [chunk], [new Float32Array(DIMENSIONS)], DIMENSIONS)
      .catch((e: unknown) => e);
    // Assert
    expect(error).toBeInstanceOf(ChunksTooLargeError);
    expect(await repo.loadChunks(businessId, kbId)).toEqual([]);
  });
});
