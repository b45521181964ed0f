import { monitorEventLoopDelay } from 'node:perf_hooks';
import { GcPauses } from './gc-pauses';
import { sandboxEmbedding } from '../../media-service/src/sandbox/sandbox-embeddings';
import type { KnowledgeRepository } from '../../shared/db/knowledge-repository';
import { KNOWLEDGE_LIMITS, processingDocument } from '../../shared/domain/knowledge';
import type { Embedder } from '../../shared/knowledge/embeddings';
import { EMBEDDING_DIMENSIONS } from '../../shared/knowledge/embeddings';
import { KnowledgeSearcher } from '../../shared/knowledge/index-cache';

/** What bench:knowledge part `cap` needs from the main bench: the corpus and the percentile. */
export interface CapBenchTools {
  paragraph: (sentences: number) => string;
  queries: () => string[];
  pct: (values: number[], p: number) => number;
  heapMiB: () => number;
}

/** A search embedder that needs no server (the sandbox's deterministic embedding). */
const localEmbedder: Embedder = {
  dimensions: EMBEDDING_DIMENSIONS,
  embed: async (texts) => texts.map((text) => sandboxEmbedding(text, EMBEDDING_DIMENSIONS)),
};

/**
 * A base at the passage cap (`chunksPerBase` chunks of ~800 characters, the chunker's target, in
 * documents of `chunksPerDocument`), written straight to DynamoDB Local and made ready through the
 * counted `finishDocument`; then one load of it through the searcher with the event loop watched
 * (the longest block during the load), the memory it adds, and search p50/p95 over it.
 */
export async function benchBaseAtCap(repo: KnowledgeRepository, businessId: number, tools: CapBenchTools): Promise<void> {
  const now = new Date().toISOString();
  const kbId = 2;
  await repo.insertBase(businessId, { id: kbId, name: 'At the cap', description: '', created_at: now, updated_at: now, version: 0 });
  const perDoc = KNOWLEDGE_LIMITS.chunksPerDocument;
  const docs = Math.ceil(KNOWLEDGE_LIMITS.chunksPerBase / perDoc);
  const writeStarted = performance.now();
  for (let d = 0; d < docs; d++) {
    const count = Math.min(perDoc, KNOWLEDGE_LIMITS.chunksPerBase - d * perDoc);
    const doc = processingDocument({ id: 1000 + d, knowledgeBaseId: kbId, name: `Big ${d}`, url: null, now });
    await repo.insertDocument(businessId, doc, undefined);
    const chunks = Array.from({ length: count }, (_, i) => ({ heading: `Part ${i % 40}`, text: tools.paragraph(9) }));
    const vectors = chunks.map((chunk) => sandboxEmbedding(`${chunk.heading}\n${chunk.text}`, EMBEDDING_DIMENSIONS));
    await repo.putChunks(businessId, kbId, doc.id, chunks, vectors, EMBEDDING_DIMENSIONS);
    const finished = await repo.finishDocument(businessId, doc, {
      status: 'ready',
      failure_reason: null,
      chunk_count: count,
      characters: chunks.reduce((sum, chunk) => sum + chunk.text.length, 0),
      updated_at: now,
    });
    if (finished.kind !== 'finished') throw new Error(`bench: a document at the cap ended ${finished.kind}`);
  }
  console.log(
    `  a base at the cap: ${KNOWLEDGE_LIMITS.chunksPerBase} chunks in ${docs} documents written in ${((performance.now() - writeStarted) / 1000).toFixed(1)} s`,
  );
  const base = (await repo.findBase(businessId, kbId))!;
  const searcher = new KnowledgeSearcher(repo, localEmbedder);
  const heapBefore = tools.heapMiB();
  const rssBefore = process.memoryUsage().rss / 1024 / 1024;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const gc = new GcPauses();
  delay.enable();
  const loadStarted = performance.now();
  const index = await searcher.index(businessId, base);
  const loadMs = performance.now() - loadStarted;
  delay.disable();
  gc.stop();
  const collected = gc.summary();
  const heapAfter = tools.heapMiB();
  const rssAfter = process.memoryUsage().rss / 1024 / 1024;
  console.log(
    `  loading it (${index.size} chunks) from DynamoDB Local: ${(loadMs / 1000).toFixed(2)} s; longest event-loop block during the load ${(delay.max / 1e6).toFixed(1)} ms (p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms; longest GC pause ${collected.longestMs.toFixed(1)} ms, ${collected.major} major)`,
  );
  console.log(
    `  memory of the loaded base: ${(heapAfter - heapBefore).toFixed(1)} MiB heap + ${(index.vectorBytes / 1024 / 1024).toFixed(1)} MiB vectors (RSS +${(rssAfter - rssBefore).toFixed(0)} MiB); the cache's estimate ${(searcher.bytes / 1024 / 1024).toFixed(1)} MiB`,
  );
  const queries = tools.queries();
  const embedded = queries.map((query) => sandboxEmbedding(query, EMBEDDING_DIMENSIONS));
  for (let i = 0; i < 50; i++) index.search(queries[i]!, embedded[i]!, 3); // warm-up
  const times = queries.map((query, i) => {
    const started = performance.now();
    index.search(query, embedded[i]!, 3);
    return performance.now() - started;
  });
  console.log(
    `  search over the base at the cap (${index.size} chunks): p50 ${tools.pct(times, 50).toFixed(2)} ms  p95 ${tools.pct(times, 95).toFixed(2)} ms  max ${Math.max(...times).toFixed(2)} ms`,
  );
}
