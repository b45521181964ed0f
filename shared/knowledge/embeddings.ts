/** Turns texts into vectors (one per text, in order, L2-normalised). */
export interface Embedder {
  readonly dimensions: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}

/** The model and size of every stored vector (docs/decisions.md "Knowledge bases"). */
export const EMBEDDING_MODEL = 'text-embedding-3-small';
export const EMBEDDING_DIMENSIONS = 256;

/** Vectors packed as little-endian float32 bytes (how they are stored). */
export function packVectors(vectors: Float32Array[]): Uint8Array {
  const packed = new Float32Array(vectors.length * EMBEDDING_DIMENSIONS);
  vectors.forEach((vector, index) => packed.set(vector, index * EMBEDDING_DIMENSIONS));
  return new Uint8Array(packed.buffer);
}

/** The inverse of {@link packVectors}: one Float32Array of `count × dimensions` values. */
export function unpackVectors(bytes: Uint8Array): Float32Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}
