import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { sandboxEmbedding } from '../../../media-service/src/sandbox/sandbox-embeddings';
import { createDb } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';
import { KnowledgeRepository, type KnowledgeBaseRecord } from '../../../shared/db/knowledge-repository';
import { keys } from '../../../shared/db/table';
import { processingDocument } from '../../../shared/domain/knowledge';
import { EMBEDDING_DIMENSIONS, type Embedder } from '../../../shared/knowledge/embeddings';
import { KnowledgeSearcher, reservedIndexBytes } from '../../../shared/knowledge/index-cache';
import { estimateIndexBytes } from '../../../shared/knowledge/search-index';

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
const repo = new KnowledgeRepository(db);
const ids = new IdAllocator(db);
const now = new Date().toISOString();

/** Queries embedded in process, as the sandbox OpenAI would (no server needed to load indexes). */
const embedder: Embedder = {
  dimensions: EMBEDDING_DIMENSIONS,
  embed: async (texts) => texts.map((text) => sandboxEmbedding(text, EMBEDDING_DIMENSIONS)),
};

const TEXT = 'The clinic opens at nine and closes at five on weekdays.';

/** A base with one ready document of `chunks` passages (of {@link TEXT} unless `text` writes them), read back as searches see it. */
async function baseWith(businessId: number, chunks: number, text: (i: number) => string = () => TEXT): Promise<KnowledgeBaseRecord> {
  const kbId = await ids.nextId();
  await repo.insertBase(businessId, { id: kbId, name: 'Base', description: '', created_at: now, updated_at: now, version: 0 });
  const doc = processingDocument({ id: await ids.nextId(), knowledgeBaseId: kbId, name: 'Doc', url: null, now });
  await repo.insertDocument(businessId, doc, undefined);
  const written = Array.from({ length: chunks }, (_, i) => ({ heading: '', text: text(i) }));
  await repo.putChunks(
    businessId,
    kbId,
    doc.id,
    written,
    written.map((chunk) => sandboxEmbedding(chunk.text, EMBEDDING_DIMENSIONS)),
    EMBEDDING_DIMENSIONS,
  );
  await repo.finishDocument(businessId, doc, {
    status: 'ready',
    failure_reason: null,
    chunk_count: chunks,
    characters: 1,
    updated_at: now,
  });
  return (await repo.findBase(businessId, kbId))!;
}

/**
 * What the cache estimates for a loaded base of `chunks` passages of {@link TEXT} in a document
 * named 'Doc': 6 terms (clinic, opens, nine, closes, five, weekdays; the rest are stop words), 6 postings a passage.
 */
const loadedBytes = (chunks: number) =>
  estimateIndexBytes({
    chunks,
    textChars: chunks * (TEXT.length + 'Doc'.length),
    terms: 6,
    postings: 6 * chunks,
    dimensions: EMBEDDING_DIMENSIONS,
  });

describe('the knowledge index cache', () => {
  it('keeps indexes by bytes: past its budget the least recently used goes, and the bytes never pass the budget', async () => {
    // Arrange: a budget that holds a base of 100 passages and another's reservation while it loads, not three
    const businessId = await ids.nextId();
    const [a, b, c] = [await baseWith(businessId, 100), await baseWith(businessId, 100), await baseWith(businessId, 100)];
    const budget = loadedBytes(100) + reservedIndexBytes(100, EMBEDDING_DIMENSIONS);
    const searcher = new KnowledgeSearcher(repo, embedder, { budgetBytes: budget, businessShareBytes: budget });
    const seen: number[] = [];
    const use = async (base: KnowledgeBaseRecord) => {
      const loading = searcher.index(businessId, base);
      seen.push(searcher.bytes);
      await loading;
      seen.push(searcher.bytes);
    };
    // Act: a, b, a again (a is now the most recent), then c, a, b
    await use(a);
    await use(b);
    await use(a);
    const loadsBeforeC = searcher.loads;
    await use(c);
    await use(a);
    const loadsAfterA = searcher.loads;
    await use(b);
    // Assert
    expect(loadsBeforeC).toBe(2);
    expect(loadsAfterA).toBe(3); // a stayed, b went for c
    expect(searcher.loads).toBe(4); // b is loaded again, reserved at its size when built this time, so c stays
    expect(Math.max(...seen)).toBeLessThanOrEqual(budget);
    expect(searcher.bytes).toBe(3 * loadedBytes(100));
  });

  it('reserves a base being loaded from its passage count, and keeps none that alone passes the budget', async () => {
    // Arrange
    const businessId = await ids.nextId();
    const [small, big] = [await baseWith(businessId, 10), await baseWith(businessId, 300)];
    const searcher = new KnowledgeSearcher(repo, embedder, { budgetBytes: loadedBytes(150) });
    // Act
    const loading = searcher.index(businessId, small);
    const reserved = searcher.bytes;
    await loading;
    const kept = searcher.bytes;
    const index = await searcher.index(businessId, big);
    const loadsAfterBig = searcher.loads;
    await searcher.index(businessId, big);
    // Assert: a reservation errs high (1,200 characters a passage), the built index takes its own estimate
    expect(reserved).toBeGreaterThan(loadedBytes(10));
    expect(kept).toBe(loadedBytes(10));
    expect(index.size).toBe(300);
    expect(searcher.bytes).toBe(loadedBytes(10));
    expect([loadsAfterBig, searcher.loads]).toEqual([2, 3]);
  });

  it('charges a built index its own terms and postings: a base of distinct words evicts one that a base of the same passages would not', async () => {
    // Arrange: 20 passages of 15 words never repeated (300 terms) against a kept base of 10 passages of TEXT (6 terms);
    // the budget holds the kept base and the other's reservation, not the other's estimate once built
    const businessId = await ids.nextId();
    const distinct = (i: number) => Array.from({ length: 15 }, (_, w) => `term${i}x${w}`).join(' ');
    const [kept, hostile] = [await baseWith(businessId, 10), await baseWith(businessId, 20, distinct)];
    const budget = loadedBytes(10) + reservedIndexBytes(20, EMBEDDING_DIMENSIONS);
    const searcher = new KnowledgeSearcher(repo, embedder, { budgetBytes: budget, businessShareBytes: budget });
    await searcher.index(businessId, kept);
    // Act
    const loading = searcher.index(businessId, hostile);
    const whileLoading = searcher.bytes;
    const built = await loading;
    const afterLoad = searcher.bytes;
    await searcher.index(businessId, kept);
    // Assert: both fit while it loads; built, it holds 300 terms and pushes the kept base out (loaded again after)
    expect(whileLoading).toBe(budget);
    expect([built.terms, built.postings]).toEqual([300, 300]);
    expect(built.estimatedBytes).toBeGreaterThan(reservedIndexBytes(20, EMBEDDING_DIMENSIONS));
    expect(afterLoad).toBe(built.estimatedBytes);
    expect(searcher.loads).toBe(3);
  });

  it('keeps a built index that alone passes the budget, alone, instead of building it again for each search', async () => {
    // Arrange: 20 passages of 200 words never repeated (4,000 terms, ~2.7 MiB estimated); the budget holds
    // another base and this one's reservation, not its estimate
    const businessId = await ids.nextId();
    const distinct = (i: number) => Array.from({ length: 200 }, (_, w) => `t${i}x${w}`).join(' ');
    const [other, huge] = [await baseWith(businessId, 10), await baseWith(businessId, 20, distinct)];
    const budget = loadedBytes(10) + reservedIndexBytes(20, EMBEDDING_DIMENSIONS);
    const searcher = new KnowledgeSearcher(repo, embedder, { budgetBytes: budget });
    await searcher.index(businessId, other);
    // Act
    const built = await searcher.index(businessId, huge);
    const afterLoad = searcher.bytes;
    await searcher.index(businessId, huge);
    await searcher.index(businessId, huge);
    // Assert: over the budget on its own, kept alone; built once
    expect(built.estimatedBytes).toBeGreaterThan(budget);
    expect(afterLoad).toBe(built.estimatedBytes);
    expect(searcher.loads).toBe(2);
    // Act: the other base is used again: it is loaded, and the huge one goes
    await searcher.index(businessId, other);
    // Assert
    expect(searcher.loads).toBe(3);
    expect(searcher.bytes).toBe(loadedBytes(10));
  });

  it("drops a business's own indexes first past its share, so one business searching its bases in turn keeps another's", async () => {
    // Arrange: room for three bases; a business may keep one and a half of them
    const [quiet, noisy] = [await ids.nextId(), await ids.nextId()];
    const kept = await baseWith(quiet, 100);
    const noisyBases = [await baseWith(noisy, 100), await baseWith(noisy, 100), await baseWith(noisy, 100)];
    const budget = 3 * loadedBytes(100) + reservedIndexBytes(100, EMBEDDING_DIMENSIONS);
    const searcher = new KnowledgeSearcher(repo, embedder, { budgetBytes: budget, businessShareBytes: 1.5 * loadedBytes(100) });
    await searcher.index(quiet, kept);
    // Act: the noisy business's three bases, twice over
    for (const base of [...noisyBases, ...noisyBases]) await searcher.index(noisy, base);
    const loadsBefore = searcher.loads;
    await searcher.index(quiet, kept);
    // Assert: the quiet business's base was never pushed out; the noisy one kept only its latest
    expect(searcher.loads).toBe(loadsBefore);
    expect(loadsBefore).toBe(1 + 6);
    expect(searcher.bytes).toBe(2 * loadedBytes(100));
  });

  it('searches only the bases that fit the business share together, the same ones each time, instead of building them all on every search', async () => {
    // Arrange: three bases of one business; its share holds two
    const businessId = await ids.nextId();
    const bases = [await baseWith(businessId, 100), await baseWith(businessId, 100), await baseWith(businessId, 100)];
    const share = 2 * loadedBytes(100) + 1024;
    const searcher = new KnowledgeSearcher(repo, embedder, { budgetBytes: 10 * share, businessShareBytes: share });
    const ids3 = bases.map((base) => base.id);
    // Act: the first search measures all three (one is then pushed out); the next ones keep to two
    await searcher.search(businessId, ids3, 'when does the clinic open', 3);
    const loadsAfterFirst = searcher.loads;
    for (let i = 0; i < 3; i++) await searcher.search(businessId, ids3, 'when does the clinic open', 3);
    // Assert
    // One of the first two, pushed out by the third's reservation while loading, is built once more; then the same two stay
    expect(loadsAfterFirst).toBe(3);
    expect(searcher.loads).toBe(4);
    expect(searcher.basesLeftOut).toBe(3);
    expect(searcher.bytes).toBe(2 * loadedBytes(100));
  });

  it('never builds a base twice at once, even when its index was dropped while it was being built', async () => {
    // Arrange: a budget that holds one base; b is asked for while a still loads, then a again
    const businessId = await ids.nextId();
    const [a, b] = [await baseWith(businessId, 100), await baseWith(businessId, 100)];
    const budget = reservedIndexBytes(100, EMBEDDING_DIMENSIONS);
    const searcher = new KnowledgeSearcher(repo, embedder, { budgetBytes: budget, businessShareBytes: budget });
    // Act: a's entry is pushed out by b's reservation before a is built; a is asked for again at once
    const first = searcher.index(businessId, a);
    const other = searcher.index(businessId, b);
    const again = searcher.index(businessId, a);
    const [one, , two] = await Promise.all([first, other, again]);
    // Assert: one build of a, shared
    expect(one).toBe(two);
    expect(searcher.loads).toBe(2);
  });

  it('shares one load between concurrent searches of a base, and loads a failed load again on the next use', async () => {
    // Arrange: a base whose stored vectors do not match its chunks (a page cut short), so its index cannot be built
    const businessId = await ids.nextId();
    const base = await baseWith(businessId, 3);
    const [page] = await repo.loadChunks(businessId, base.id);
    const docId = page!.documentId;
    const pageKey = keys.knowledgeChunks(businessId, base.id, docId, 0);
    const pageItem = (vectors: Uint8Array) => ({
      ...pageKey,
      entity: 'knowledge_chunks',
      document_id: docId,
      chunks: page!.chunks.map((chunk) => ({ h: chunk.heading, t: chunk.text })),
      vectors,
    });
    await db.doc.send(new PutCommand({ TableName: db.tableName, Item: pageItem(page!.vectors.slice(0, 8)) }));
    // The three searches reach the index together (each reads its base first: on a busy machine one
    // read could come back after another search's load had already failed, and load again).
    const gated = Object.create(repo) as typeof repo;
    let arrived = 0;
    let release!: () => void;
    const allArrived = new Promise<void>((resolve) => (release = resolve));
    gated.findBase = async (...args) => {
      const found = await repo.findBase(...args);
      if (++arrived === 3) release();
      await allArrived;
      return found;
    };
    const searcher = new KnowledgeSearcher(gated, embedder);
    // Act
    const failed = await Promise.allSettled([1, 2, 3].map(() => searcher.search(businessId, [base.id], 'opening hours', 3)));
    const loadsAfterFailure = searcher.loads;
    const bytesAfterFailure = searcher.bytes;
    await db.doc.send(new PutCommand({ TableName: db.tableName, Item: pageItem(page!.vectors) }));
    const hits = await searcher.search(businessId, [base.id], 'opening hours', 3);
    // Assert
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(loadsAfterFailure).toBe(1);
    expect(bytesAfterFailure).toBe(0);
    expect(hits).toHaveLength(3);
    expect(searcher.loads).toBe(2);
  });
});
