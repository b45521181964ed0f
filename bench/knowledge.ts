/**
 * Knowledge-base benchmark (`npm run bench:knowledge`; numbers in docs/performance.md):
 * (1) in-process hybrid search over 5,000 chunks (p50/p95 of `KnowledgeIndex.search`, the query
 * already embedded: target p95 ≤ 10 ms); (2) memory of one loaded base (heap + vectors) at 5,000
 * and at 200 chunks; (3) ingestion throughput through the real handler: the sandbox OpenAI's
 * /v1/embeddings over loopback and DynamoDB Local, text documents of ~20,000 characters;
 * (4) loading a 5,000-chunk base from DynamoDB into an index, then fairness: a text of business B
 * queued behind 10 dribbling pages of business A, through fauxqs and the local poller
 * (bench/lib/ingest-fairness.ts); (5) speculative retrieval over
 * whole sandbox calls (bench/lib/speculation.ts): how often the passages were ready when the model
 * called `search_knowledge`, and how long its call waited when they were not, with the sandbox
 * model and embeddings as fast as `npm run dev` has them and at OpenAI-like latencies; (6) a base at
 * the passage cap (bench/lib/knowledge-cap.ts): its load from DynamoDB Local, the longest
 * event-loop block during the load, its memory and search p50/p95 over it; (7) the memory of
 * built indexes over natural and adversarial vocabularies against the cache's estimate
 * (bench/lib/knowledge-estimate.ts).
 *
 * Env: BENCH_PARTS (which parts run: `search` 1-2, `ingest` 3-4, `spec` 5, `cap` 6, `estimate` 7,
 * comma-separated; all by default), BENCH_SPEC_CALLS (60 calls a profile; 0 skips part 5), BENCH_SPEC_CONCURRENCY (10 at a time),
 * BENCH_ESTIMATE_CORPUS (part 7: only the corpus at this position, 0-8).
 */
import { OpenAiSandboxServer } from '../media-service/src/sandbox/openai-server';
import { sandboxEmbedding } from '../media-service/src/sandbox/sandbox-embeddings';
import { createDb } from '../shared/db/client';
import { ensureTable } from '../shared/db/create-table';
import { KnowledgeRepository } from '../shared/db/knowledge-repository';
import { processingDocument } from '../shared/domain/knowledge';
import { EMBEDDING_DIMENSIONS } from '../shared/knowledge/embeddings';
import { KnowledgeSearcher } from '../shared/knowledge/index-cache';
import { ingestDocument } from '../shared/knowledge/ingest';
import { KnowledgeIndex, type IndexedChunk } from '../shared/knowledge/search-index';
import { OpenAiEmbedder } from '../shared/llm/embeddings-client';
import { createLogger } from '../shared/log';
import { startDynamoDbLocal } from '../scripts/local/stand-ins/dynamodb-local';
import { measureIngestFairness } from './lib/ingest-fairness';
import { benchBaseAtCap } from './lib/knowledge-cap';
import { benchEstimate } from './lib/knowledge-estimate';
import { measureSpeculation, type SpeculationProfile } from './lib/speculation';
import { random } from './lib/random';
import { SANDBOX_OPENAI_API_KEY } from '../media-service/src/sandbox/openai-auth';

const SPEC_CALLS = Number(process.env.BENCH_SPEC_CALLS ?? 60);
const SPEC_CONCURRENCY = Number(process.env.BENCH_SPEC_CONCURRENCY ?? 10);
const PARTS = new Set((process.env.BENCH_PARTS ?? 'search,ingest,spec,cap,estimate').split(','));
/**
 * The sandbox as `npm run dev` runs it (its model answers at once and says "Let me check that for
 * you." before searching, which the call engine plays before it runs the tool); then OpenAI-like
 * latencies (a first token after 350 ms and 10 ms a token, as bench:calls; embeddings 300 ms, the
 * slow end of OpenAI's), with that line and without it (real models often call a tool without a
 * word); then embeddings slower than the model, without the line, so the passages are late.
 */
const SPEC_PROFILES: SpeculationProfile[] = [
  {
    label: 'as npm run dev (model and embeddings at once, a line before the search)',
    ttftMs: 0,
    tokenIntervalMs: 0,
    embeddingsDelayMs: 0,
    preambles: true,
  },
  {
    label: 'OpenAI-like (first token 350 ms, embeddings 300 ms), a line before the search',
    ttftMs: 350,
    tokenIntervalMs: 10,
    embeddingsDelayMs: 300,
    preambles: true,
  },
  { label: 'OpenAI-like, the search called without a word', ttftMs: 350, tokenIntervalMs: 10, embeddingsDelayMs: 300, preambles: false },
  {
    label: 'embeddings 1,000 ms, the search called without a word',
    ttftMs: 350,
    tokenIntervalMs: 10,
    embeddingsDelayMs: 1000,
    preambles: false,
  },
];

const pct = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

const rand = random(7);
const VOCABULARY = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}${'aeiou'[i % 5]}${'nrst'[i % 4]}`);
const word = () => VOCABULARY[Math.floor(rand() ** 2 * VOCABULARY.length)]!;
const sentence = () => `${Array.from({ length: 8 + Math.floor(rand() * 10) }, word).join(' ')}.`;
const paragraph = (sentences: number) => Array.from({ length: sentences }, sentence).join(' ');
const queries = () => Array.from({ length: 400 }, () => Array.from({ length: 6 }, word).join(' '));

function corpus(count: number): { chunks: IndexedChunk[]; vectors: Float32Array } {
  const chunks: IndexedChunk[] = [];
  const vectors = new Float32Array(count * EMBEDDING_DIMENSIONS);
  for (let i = 0; i < count; i++) {
    const chunk = {
      document_id: 1 + Math.floor(i / 50),
      document_name: `Doc ${Math.floor(i / 50)}`,
      heading: `Section ${i % 50}`,
      text: paragraph(6),
    };
    chunks.push(chunk);
    vectors.set(sandboxEmbedding(`${chunk.heading}\n${chunk.text}`, EMBEDDING_DIMENSIONS), i * EMBEDDING_DIMENSIONS);
  }
  return { chunks, vectors };
}

function heapMiB(): number {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

async function main(): Promise<void> {
  console.log('Knowledge bases benchmark');
  if (PARTS.has('search')) await searchInProcess();
  if (PARTS.has('estimate')) await benchEstimate(paragraph);
  if (PARTS.has('ingest') || PARTS.has('cap')) await againstStandIns();
  // (5) speculative retrieval on whole calls, on a local stack of its own.
  if (PARTS.has('spec') && SPEC_CALLS > 0)
    await measureSpeculation({ calls: SPEC_CALLS, concurrency: SPEC_CONCURRENCY, profiles: SPEC_PROFILES });
}

/** (1) + (2): search and the keyword index's memory in process (part `cap` measures a whole loaded base). */
async function searchInProcess(): Promise<void> {
  for (const size of [200, 5000, 10_000]) {
    const { chunks, vectors } = corpus(size);
    const before = heapMiB();
    const index = await KnowledgeIndex.build(chunks, vectors, EMBEDDING_DIMENSIONS);
    const after = heapMiB();
    const asked = queries();
    const embedded = asked.map((query) => sandboxEmbedding(query, EMBEDDING_DIMENSIONS));
    for (let i = 0; i < 50; i++) index.search(asked[i]!, embedded[i]!, 3); // warm-up
    const times: number[] = [];
    asked.forEach((query, i) => {
      const started = performance.now();
      index.search(query, embedded[i]!, 3);
      times.push(performance.now() - started);
    });
    console.log(
      `  search over ${size} chunks: p50 ${pct(times, 50).toFixed(2)} ms  p95 ${pct(times, 95).toFixed(2)} ms  max ${Math.max(...times).toFixed(2)} ms`,
    );
    console.log(
      `  keyword index of a ${size}-chunk base: ${(after - before).toFixed(1)} MiB heap (${(((after - before) * 1024 * 1024) / size).toFixed(0)} bytes a chunk; the texts and ${(vectors.byteLength / 1024 / 1024).toFixed(1)} MiB of vectors are the corpus's, counted before)`,
    );
  }
}

/** (3) + (4) ingestion and loading, (6) a base at the cap: against the real stand-ins. */
async function againstStandIns(): Promise<void> {
  const dynamo = await startDynamoDbLocal();
  const openai = await OpenAiSandboxServer.start();
  try {
    const db = createDb({ tableName: `bench-knowledge-${Date.now()}`, region: 'local', endpoint: dynamo.endpoint });
    await ensureTable(db);
    const repo = new KnowledgeRepository(db);
    const embedder = new OpenAiEmbedder({ apiKey: SANDBOX_OPENAI_API_KEY, baseURL: openai.baseUrl });
    const log = createLogger({ service: 'bench', env: { LOG_LEVEL: 'WARN' } });
    const deps = { knowledge: repo, embedder, urlPolicy: { allowPrivate: true, requireHttps: false }, now: () => new Date(), log };
    const now = new Date().toISOString();
    await repo.insertBase(1, { id: 1, name: 'Bench', description: '', created_at: now, updated_at: now, version: 0 });
    if (PARTS.has('cap')) await benchBaseAtCap(repo, 1, { paragraph, queries, pct, heapMiB });
    if (!PARTS.has('ingest')) return;
    const docs = 40;
    let characters = 0;
    const started = performance.now();
    for (let d = 1; d <= docs; d++) {
      const text = Array.from({ length: 24 }, (_, s) => `## Part ${s}\n\n${paragraph(5)}\n\n${paragraph(4)}`).join('\n\n');
      characters += text.length;
      const doc = processingDocument({ id: 100 + d, knowledgeBaseId: 1, name: `Doc ${d}`, url: null, now });
      await repo.insertDocument(1, doc, text);
      await ingestDocument(JSON.stringify({ business_id: 1, knowledge_base_id: 1, document_id: doc.id }), deps);
    }
    const seconds = (performance.now() - started) / 1000;
    const chunks = (await repo.listDocuments(1, 1)).reduce((sum, doc) => sum + doc.chunk_count, 0);
    console.log(
      `  ingestion (one at a time; sandbox embeddings, DynamoDB Local): ${docs} documents, ${(characters / 1000).toFixed(0)} k characters, ${chunks} chunks in ${seconds.toFixed(1)} s = ${(docs / seconds).toFixed(1)} documents/s, ${(chunks / seconds).toFixed(0)} chunks/s`,
    );
    const searcher = new KnowledgeSearcher(repo, embedder);
    const loadStarted = performance.now();
    const index = await searcher.index(1, { id: 1, version: docs });
    console.log(
      `  loading that base (${index.size} chunks) from DynamoDB Local into an index: ${(performance.now() - loadStarted).toFixed(0)} ms`,
    );
    const again = performance.now();
    await searcher.index(1, { id: 1, version: docs });
    console.log(`  the same base again (cached per version): ${(performance.now() - again).toFixed(2)} ms`);
    await measureIngestFairness(repo, deps);
  } finally {
    await openai.close();
    await dynamo.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
