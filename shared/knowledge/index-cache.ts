import type { KnowledgeRepository } from '../db/knowledge-repository';
import type { KnowledgeHit } from '../domain/knowledge';
import type { Embedder } from './embeddings';
import { KnowledgeIndex, type IndexedChunk } from './search-index';

/** Indexes kept per process: beyond this, the least recently used is dropped (and rebuilt on demand). */
const MAX_LOADED = 64;

interface Loaded {
  version: number;
  index: Promise<KnowledgeIndex>;
}

/**
 * The knowledge bases loaded in this process: one {@link KnowledgeIndex} per base and version,
 * built once from DynamoDB and shared by every search and call that uses the base. A base whose
 * version grew (a document became ready or was deleted) is loaded again on its next use.
 */
export class KnowledgeSearcher {
  readonly #loaded = new Map<string, Loaded>();
  /** Indexes built so far (a benchmark and tests read it). */
  loads = 0;

  constructor(
    private readonly knowledge: KnowledgeRepository,
    private readonly embedder: Embedder,
  ) {}

  /** The index of one base at its current version (the base must exist). */
  async index(businessId: number, kbId: number, version: number): Promise<KnowledgeIndex> {
    const key = `${businessId}:${kbId}`;
    const loaded = this.#loaded.get(key);
    if (loaded && loaded.version === version) {
      this.#loaded.delete(key);
      this.#loaded.set(key, loaded);
      return loaded.index;
    }
    const index = this.#build(businessId, kbId);
    this.#loaded.set(key, { version, index });
    index.catch(() => this.#loaded.get(key)?.index === index && this.#loaded.delete(key));
    while (this.#loaded.size > MAX_LOADED) this.#loaded.delete(this.#loaded.keys().next().value!);
    return index;
  }

  /** The `topK` best passages across these bases (those that exist), best first. */
  async search(businessId: number, kbIds: readonly number[], query: string, topK: number): Promise<KnowledgeHit[]> {
    const bases = (await Promise.all([...new Set(kbIds)].map((id) => this.knowledge.findBase(businessId, id)))).filter(
      (b) => b !== undefined,
    );
    if (bases.length === 0) return [];
    const [vector, indexes] = await Promise.all([
      this.embedder.embed([query]).then((vectors) => vectors[0]!),
      Promise.all(bases.map((base) => this.index(businessId, base.id, base.version ?? 0))),
    ]);
    return indexes
      .flatMap((index) => index.search(query, vector, topK))
      .sort((a, b) => b.score - a.score)
      .slice(0, topK);
  }

  async #build(businessId: number, kbId: number): Promise<KnowledgeIndex> {
    this.loads++;
    const [documents, stored] = await Promise.all([
      this.knowledge.listDocuments(businessId, kbId),
      this.knowledge.loadChunks(businessId, kbId),
    ]);
    const ready = new Map(documents.filter((doc) => doc.status === 'ready').map((doc) => [doc.id, doc.name]));
    const chunks: IndexedChunk[] = [];
    const parts: Uint8Array[] = [];
    for (const entry of stored) {
      const name = ready.get(entry.documentId);
      if (name === undefined) continue;
      for (const chunk of entry.chunks)
        chunks.push({ document_id: entry.documentId, document_name: name, heading: chunk.heading, text: chunk.text });
      parts.push(entry.vectors);
    }
    const bytes = Buffer.concat(parts);
    const vectors = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    return new KnowledgeIndex(chunks, vectors, this.embedder.dimensions);
  }
}
