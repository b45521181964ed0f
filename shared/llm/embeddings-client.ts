import OpenAI from 'openai';
import { EMBEDDING_DIMENSIONS, EMBEDDING_MODEL, type Embedder } from '../knowledge/embeddings';

/**
 * OpenAI's embeddings limits: 8,192 tokens an input, 2,048 inputs and 300,000 tokens a request.
 * Counted in UTF-8 bytes here, which bound tokens from above: a byte-level BPE token is at least
 * one byte. A chunk's search text is at most `CHUNK_SEARCH_CHARS` (1,501) UTF-16 code units, each
 * at most 3 UTF-8 bytes (a 4-byte emoji is 2 code units), so ≤ 4,503 bytes, hence ≤ 4,503 tokens:
 * under 8,192 even at one token a byte (~4 a character for the worst scripts), so no chunk is cut.
 */
export const EMBEDDING_LIMITS = {
  /** Bytes an input is cut to (a query, or a text from elsewhere): ≤ 8,000 tokens. */
  inputBytes: 8_000,
  /** Inputs a request. */
  batchInputs: 100,
  /** Bytes a request's inputs sum to at most: ≤ 250,000 tokens, under the 300,000. */
  batchBytes: 250_000,
} as const;

/** `text` cut to at most `maxBytes` UTF-8 bytes, never inside a character. */
export function cutToBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // The first byte left out continues a character (10xxxxxx): leave that whole character out.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/** Inputs in requests within {@link EMBEDDING_LIMITS}, in order. */
export function embeddingBatches(texts: readonly string[]): string[][] {
  const batches: string[][] = [];
  let batch: string[] = [];
  let bytes = 0;
  for (const text of texts) {
    const input = cutToBytes(text, EMBEDDING_LIMITS.inputBytes);
    const size = Buffer.byteLength(input, 'utf8');
    if (batch.length === EMBEDDING_LIMITS.batchInputs || (batch.length > 0 && bytes + size > EMBEDDING_LIMITS.batchBytes)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(input);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

function normalised(values: ArrayLike<number>): Float32Array {
  const vector = Float32Array.from(values);
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

/** OpenAI embeddings through the official SDK and the platform key (the sandbox serves the same route). */
export class OpenAiEmbedder implements Embedder {
  readonly dimensions = EMBEDDING_DIMENSIONS;
  readonly #client: OpenAI;

  constructor(options: { apiKey: string; baseURL?: string | undefined; timeoutMs?: number }) {
    this.#client = new OpenAI({
      apiKey: options.apiKey,
      ...(options.baseURL !== undefined && { baseURL: options.baseURL }),
      timeout: options.timeoutMs ?? 20_000,
      maxRetries: 2,
    });
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (const batch of embeddingBatches(texts)) {
      const response = await this.#client.embeddings.create({ model: EMBEDDING_MODEL, input: batch, dimensions: EMBEDDING_DIMENSIONS });
      const byIndex = [...response.data].sort((a, b) => a.index - b.index);
      if (byIndex.length !== batch.length) throw new Error(`embeddings: ${byIndex.length} vectors for ${batch.length} inputs`);
      for (const item of byIndex) {
        if (item.embedding.length !== EMBEDDING_DIMENSIONS) throw new Error(`embeddings: a vector of ${item.embedding.length} values`);
        out.push(normalised(item.embedding));
      }
    }
    return out;
  }
}

/**
 * An {@link OpenAiEmbedder} whose key is read on first use (a Secrets Manager read on Lambda), or
 * one that refuses every call when no key is configured.
 */
export class LazyEmbedder implements Embedder {
  readonly dimensions = EMBEDDING_DIMENSIONS;
  #inner: Promise<Embedder> | undefined;

  constructor(
    private readonly apiKey: (() => Promise<string>) | undefined,
    private readonly baseURL: string | undefined,
  ) {}

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (!this.apiKey) throw new Error('embeddings are not configured (no OpenAI key)');
    this.#inner ??= this.apiKey().then((apiKey) => new OpenAiEmbedder({ apiKey, baseURL: this.baseURL }));
    this.#inner.catch(() => (this.#inner = undefined));
    return (await this.#inner).embed(texts);
  }
}
