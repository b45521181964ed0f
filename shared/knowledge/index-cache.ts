import type { KnowledgeBaseRecord, KnowledgeRepository } from '../db/knowledge-repository';
import type { StoredChunks } from '../db/knowledge-document-repository';
import type { KnowledgeHit } from '../domain/knowledge';
import type { Embedder } from './embeddings';
import { BuildSlots } from './build-slots';
import { CHUNK_CHARS } from './chunker';
import { estimateIndexBytes, KnowledgeIndex, yieldToEventLoop, type IndexedChunk } from './search-index';

/**
 * Bytes all loaded indexes may take in one process, by default: 3 bases of natural text at the
 * passage cap (~81 MiB each estimated), or hundreds of small ones; the API Lambda (1 GiB) keeps it, the media service
 * (2-4 GiB a task, ~1 MiB a call) passes 512 MiB (docs/decisions.md "Knowledge bases").
 */
export const DEFAULT_INDEX_BUDGET_BYTES = 256 * 1024 * 1024;

/** Characters a chunk is reserved for before its base is loaded: the most the chunker cuts. */
const RESERVED_CHARS_PER_CHUNK = CHUNK_CHARS.max;
/** Postings a chunk is reserved for: natural text has ~110 in 800 characters (bench:knowledge part `estimate`). */
const RESERVED_POSTINGS_PER_CHUNK = 170;
/** Stored pages or chunks mapped between two yields to the event loop while a base loads. */
const LOAD_SLICE = 500;

/**
 * What a base of `chunks` passages is reserved before it loads: natural text as long as the
 * chunker cuts it, its vocabulary unknown (natural text's few thousand terms are ~2 MiB). Only the
 * passage count is known before the load; once built, the index's own estimate (its terms and
 * postings counted) replaces the reservation, and a hostile vocabulary's larger one evicts others then.
 */
export function reservedIndexBytes(chunks: number, dimensions: number): number {
  const textChars = chunks * RESERVED_CHARS_PER_CHUNK;
  return estimateIndexBytes({ chunks, textChars, terms: 0, postings: chunks * RESERVED_POSTINGS_PER_CHUNK, dimensions });
}

/** The base as the searcher needs it: its id, version and (when counted) passages. */
export type SearchedBase = Pick<KnowledgeBaseRecord, 'id' | 'version' | 'chunks'>;

export interface KnowledgeSearcherOptions {
  /** The byte budget of all indexes kept (default {@link DEFAULT_INDEX_BUDGET_BYTES}). */
  budgetBytes?: number;
  /** What one business's indexes may keep of it before its own are dropped first (default half the budget). */
  businessShareBytes?: number;
}

/**
 * Indexes built at once in a process, and for one business. A build holds its base's whole index
 * in memory, kept or not, and takes a core for a second or more: an attacker firing searches at
 * once over several large bases had 48 builds running (4 GB of RSS) and another business's
 * searches waiting 5 s. Builds past these wait their turn.
 */
const MAX_BUILDS = 2;
/** Bases whose built size is remembered (a few hundred bytes each); past it the memory starts again. */
const MAX_MEASURED = 10_000;
const MAX_BUILDS_PER_BUSINESS = 1;

interface Loaded {
  businessId: number;
  version: number;
  index: Promise<KnowledgeIndex>;
  /** Reserved from the base's passage count while it loads, then the built index's estimate. */
  bytes: number;
}

/**
 * The knowledge bases loaded in this process: one {@link KnowledgeIndex} per base and version,
 * built once from DynamoDB and shared by every search and call that uses the base. A base whose
 * version grew (a document became ready or was deleted) is loaded again on its next use.
 *
 * Kept by bytes, not by count: the indexes kept (those loading included, at a reservation) stay
 * under the budget, the least recently used dropped first (and rebuilt on demand). A built index
 * whose estimate alone passes the budget is kept alone (every other dropped) rather than rebuilt
 * on each search: its memory was already paid to build it, and a rebuild costs seconds of CPU
 * that other businesses' calls on this process would share. Only a base whose reservation passes
 * the budget before loading (one from before the passage cap) is built for the searches waiting
 * on it and not kept. A load yields to the event loop every slice.
 */
export class KnowledgeSearcher {
  readonly #loaded = new Map<string, Loaded>();
  /** The estimate of each base last built here, by version, kept or not (bounded: {@link MAX_MEASURED}). */
  readonly #measured = new Map<string, { version: number; bytes: number }>();
  /** Builds in progress by base and version, kept or not: a base is never built twice at once. */
  readonly #building = new Map<string, Promise<KnowledgeIndex>>();
  readonly #slots = new BuildSlots(MAX_BUILDS, MAX_BUILDS_PER_BUSINESS);
  readonly #budget: number;
  readonly #share: number;
  #bytes = 0;
  /** Indexes built so far (a benchmark and tests read it). */
  loads = 0;
  /** Bases left out of searches for the business's share so far (tests read it). */
  basesLeftOut = 0;

  constructor(
    private readonly knowledge: KnowledgeRepository,
    private readonly embedder: Embedder,
    options: KnowledgeSearcherOptions = {},
  ) {
    this.#budget = options.budgetBytes ?? DEFAULT_INDEX_BUDGET_BYTES;
    this.#share = options.businessShareBytes ?? this.#budget / 2;
  }

  /** Estimated bytes of the indexes kept now, loads in progress included (a benchmark and tests read it). */
  get bytes(): number {
    return this.#bytes;
  }

  /** The index of one base at its current version (the base must exist). */
  async index(businessId: number, base: SearchedBase): Promise<KnowledgeIndex> {
    const key = `${businessId}:${base.id}`;
    const version = base.version ?? 0;
    const loaded = this.#loaded.get(key);
    if (loaded && loaded.version === version) {
      this.#loaded.delete(key);
      this.#loaded.set(key, loaded);
      return loaded.index;
    }
    if (loaded) this.#drop(key);
    // Its size when last built at this version, else a reservation from its passage count.
    const measured = this.#measured.get(key);
    const reserved = measured?.version === version ? measured.bytes : reservedIndexBytes(base.chunks ?? 0, this.embedder.dimensions);
    const index = this.#buildOnce(businessId, base.id, version);
    index.then(
      (built) => this.#measure(key, version, built.estimatedBytes),
      () => undefined,
    );
    if (reserved > this.#budget) return index;
    const entry: Loaded = { businessId, version, index, bytes: reserved };
    this.#keep(key, entry);
    index.then(
      (built) => {
        if (this.#loaded.get(key) !== entry) return;
        this.#bytes += built.estimatedBytes - entry.bytes;
        entry.bytes = built.estimatedBytes;
        this.#evictBeyond(key);
      },
      // A failed load is not kept: the next search loads again.
      () => this.#loaded.get(key) === entry && this.#drop(key),
    );
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
      Promise.all(this.#withinShare(businessId, bases).map((base) => this.index(businessId, base))),
    ]);
    return indexes
      .flatMap((index) => index.search(query, vector, topK))
      .sort((a, b) => b.score - a.score)
      .slice(0, topK);
  }

  /**
   * The bases one search may use: those loaded first, then the others in the order given, as long
   * as the ones whose size is known (built at their version in this process) fit the business's
   * share together; a base never built is tried, so it is measured once. Searching more at once
   * pushed the search's own bases out and built them all again on every search (an assistant with
   * six large bases rebuilt all six, ~15 s of a core, on each question of each call); this way the
   * same bases stay loaded and are searched, and the rest are left out.
   */
  #withinShare(businessId: number, bases: SearchedBase[]): SearchedBase[] {
    const sizeOf = (base: SearchedBase): number | undefined => {
      const key = `${businessId}:${base.id}`;
      const version = base.version ?? 0;
      const loaded = this.#loaded.get(key);
      if (loaded?.version === version) return loaded.bytes;
      const measured = this.#measured.get(key);
      return measured?.version === version ? measured.bytes : undefined;
    };
    const isLoaded = (base: SearchedBase) => this.#loaded.get(`${businessId}:${base.id}`)?.version === (base.version ?? 0);
    const ordered = [...bases.filter(isLoaded), ...bases.filter((base) => !isLoaded(base))];
    const chosen: SearchedBase[] = [];
    let bytes = 0;
    for (const base of ordered) {
      const size = sizeOf(base);
      if (size !== undefined && chosen.length > 0 && bytes + size > this.#share) continue;
      chosen.push(base);
      bytes += size ?? 0;
    }
    if (chosen.length < bases.length) this.basesLeftOut += bases.length - chosen.length;
    return chosen;
  }

  #measure(key: string, version: number, bytes: number): void {
    if (this.#measured.size >= MAX_MEASURED) this.#measured.clear();
    this.#measured.delete(key);
    this.#measured.set(key, { version, bytes });
  }

  #keep(key: string, entry: Loaded): void {
    this.#loaded.set(key, entry);
    this.#bytes += entry.bytes;
    this.#evictBeyond(key);
  }

  /**
   * Drops the least recently used indexes, never `keep`, until the kept bytes fit the budget: first
   * those of `keep`'s business while it holds more than its share, so that one business's bases
   * (searched in turn, or many at once) push out its own before any other business's.
   */
  #evictBeyond(keep: string): void {
    const owner = this.#loaded.get(keep)?.businessId;
    let owned = 0;
    for (const entry of this.#loaded.values()) if (entry.businessId === owner) owned += entry.bytes;
    for (const [key, entry] of this.#loaded) {
      if (owned <= this.#share) break;
      if (key === keep || entry.businessId !== owner) continue;
      owned -= entry.bytes;
      this.#drop(key);
    }
    for (const key of this.#loaded.keys()) {
      if (this.#bytes <= this.#budget) return;
      if (key !== keep) this.#drop(key);
    }
  }

  #drop(key: string): void {
    const entry = this.#loaded.get(key);
    if (!entry) return;
    this.#loaded.delete(key);
    this.#bytes -= entry.bytes;
  }

  /** The build of this base at this version: the one in progress, or a new one once a build slot is free. */
  #buildOnce(businessId: number, kbId: number, version: number): Promise<KnowledgeIndex> {
    const key = `${businessId}:${kbId}@${version}`;
    let building = this.#building.get(key);
    if (!building) {
      building = this.#slots.run(String(businessId), () => this.#build(businessId, kbId)).finally(() => this.#building.delete(key));
      this.#building.set(key, building);
    }
    return building;
  }

  async #build(businessId: number, kbId: number): Promise<KnowledgeIndex> {
    this.loads++;
    const [documents, stored] = await Promise.all([
      this.knowledge.listDocuments(businessId, kbId),
      this.knowledge.loadChunks(businessId, kbId),
    ]);
    const ready = new Map(documents.filter((doc) => doc.status === 'ready').map((doc) => [doc.id, doc.name]));
    const { chunks, vectors } = await readyChunks(stored, ready);
    return KnowledgeIndex.build(chunks, vectors, this.embedder.dimensions);
  }
}

/** The chunks and vectors of the ready documents, mapped a slice at a time (a legacy base can hold 200,000). */
async function readyChunks(stored: StoredChunks[], ready: Map<number, string>): Promise<{ chunks: IndexedChunk[]; vectors: Float32Array }> {
  const chunks: IndexedChunk[] = [];
  const parts: Uint8Array[] = [];
  let sinceYield = 0;
  for (const entry of stored) {
    const name = ready.get(entry.documentId);
    if (name === undefined) continue;
    for (const chunk of entry.chunks)
      chunks.push({ document_id: entry.documentId, document_name: name, heading: chunk.heading, text: chunk.text });
    parts.push(entry.vectors);
    sinceYield += entry.chunks.length;
    if (sinceYield >= LOAD_SLICE) {
      sinceYield = 0;
      await yieldToEventLoop();
    }
  }
  const vectors = new Float32Array(parts.reduce((sum, part) => sum + part.byteLength, 0) / 4);
  const bytes = new Uint8Array(vectors.buffer);
  let offset = 0;
  for (const [i, part] of parts.entries()) {
    bytes.set(part, offset);
    offset += part.byteLength;
    if (i % LOAD_SLICE === LOAD_SLICE - 1) await yieldToEventLoop();
  }
  return { chunks, vectors };
}
