import OpenAI from 'openai';
import { EMBEDDING_DIMENSIONS, EMBEDDING_MODEL, type Embedder } from '../knowledge/embeddings';

/** Inputs per request: far under OpenAI's 2,048 and its 300,000-token sum for ~1,000-character chunks. */
const BATCH = 100;

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
    for (let i = 0; i < texts.length; i += BATCH) {
      const batch = texts.slice(i, i + BATCH).map((text) => text.slice(0, 8000));
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
