import type { Chunk } from '../domain/knowledge';

/**
 * How a document's chunks and vectors are cut into stored items ("pages"), so no page passes
 * DynamoDB's item size limit whatever the text: the limit is 400 KB (409,600 bytes), counted as
 * the UTF-8 bytes of attribute names and string values, raw binary bytes, and 3 bytes per list or
 * map plus 1 per element (AWS "DynamoDB item sizes and formats"; DynamoDB Local rejects one byte
 * over, with a ValidationException "Item size has exceeded the maximum allowed size").
 */

/** Chunks per page at most: 25 bounded chunks (≤ 4.5 KB of text, a 1 KiB vector) are ~140 KB. */
export const CHUNKS_PER_ITEM = 25;

/** Bytes per page at most (by {@link chunkPageBytes}): room under DynamoDB's 409,600 for what we may add later. */
export const CHUNK_PAGE_BYTES = 350_000;

/** DynamoDB's item size limit, in bytes. */
export const DYNAMODB_ITEM_BYTES = 409_600;

/** One page of a document's chunks as stored: `chunks[i]`'s vector is `vectors[i × dimensions…]`. */
export interface ChunkPage {
  chunks: { h: string; t: string }[];
  vectors: Uint8Array;
}

/**
 * A page item's bytes besides its chunks and vectors: the names `pk`, `sk`, `entity`,
 * `document_id`, `chunks`, `vectors`, the list's 3 bytes, and the key values (~70 bytes), with room.
 */
const PAGE_FIXED_BYTES = 512;

/** One chunk's bytes in a page: the list element (1), its map (3), `h` and `t` (names 1 + element 1 each), the texts, its vector. */
export function chunkEntryBytes(chunk: Chunk, dimensions: number): number {
  return 8 + Buffer.byteLength(chunk.heading, 'utf8') + Buffer.byteLength(chunk.text, 'utf8') + 4 * dimensions;
}

/** A page item's size as DynamoDB counts it (an upper bound: the keys are given {@link PAGE_FIXED_BYTES}). */
export function chunkPageBytes(chunks: readonly Chunk[], dimensions: number): number {
  return chunks.reduce((sum, chunk) => sum + chunkEntryBytes(chunk, dimensions), PAGE_FIXED_BYTES);
}

/**
 * A document's chunks in pages, in order, each at most {@link CHUNKS_PER_ITEM} chunks and
 * {@link CHUNK_PAGE_BYTES} bytes. A chunk too big for a page on its own gets a page of its own
 * (the chunker makes none: ≤ 1,501 characters, ≤ ~5.5 KB); DynamoDB then refuses it, and the
 * document fails ({@link ChunksTooLargeError}).
 */
export function chunkPages(chunks: readonly Chunk[], vectors: readonly Float32Array[], dimensions: number): ChunkPage[] {
  const pages: ChunkPage[] = [];
  let start = 0;
  while (start < chunks.length) {
    let end = start;
    let bytes = PAGE_FIXED_BYTES;
    while (end < chunks.length && end - start < CHUNKS_PER_ITEM) {
      const next = chunkEntryBytes(chunks[end]!, dimensions);
      if (end > start && bytes + next > CHUNK_PAGE_BYTES) break;
      bytes += next;
      end++;
    }
    const packed = new Float32Array((end - start) * dimensions);
    for (let i = start; i < end; i++) packed.set(vectors[i]!, (i - start) * dimensions);
    pages.push({
      chunks: chunks.slice(start, end).map((chunk) => ({ h: chunk.heading, t: chunk.text })),
      vectors: new Uint8Array(packed.buffer),
    });
    start = end;
  }
  return pages;
}

/** DynamoDB refused a document's chunk page as larger than an item may be: the document's fault, not ours to retry. */
export class ChunksTooLargeError extends Error {
  constructor(options?: ErrorOptions) {
    super('a chunk page is larger than a DynamoDB item may be', options);
    this.name = 'ChunksTooLargeError';
  }
}

/** DynamoDB's refusal of an item over 400 KB (a ValidationException, by name: a second SDK copy makes another class). */
export function isItemTooLarge(error: unknown): boolean {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  return name === 'ValidationException' && typeof message === 'string' && /item size .*exceeded the maximum allowed size/i.test(message);
}
