import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { createDb } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';
import { KnowledgeRepository, type KnowledgeBaseRecord } from '../../../shared/db/knowledge-repository';
import { keys } from '../../../shared/db/table';
import { KNOWLEDGE_LIMITS, processingDocument, type KnowledgeDocument } from '../../../shared/domain/knowledge';

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
const repo = new KnowledgeRepository(db);
const ids = new IdAllocator(db);
const now = new Date().toISOString();
const CAP = KNOWLEDGE_LIMITS.chunksPerBase;

async function newBase(businessId: number): Promise<KnowledgeBaseRecord> {
  const base = { id: await ids.nextId(), name: 'Base', description: '', created_at: now, updated_at: now, version: 0 };
  await repo.insertBase(businessId, base);
  return base;
}

async function newDocuments(businessId: number, kbId: number, count: number): Promise<KnowledgeDocument[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const doc = processingDocument({ id: await ids.nextId(), knowledgeBaseId: kbId, name: 'Doc', url: null, now });
      await repo.insertDocument(businessId, doc, 'text');
      return doc;
    }),
  );
}

const ready = (chunks: number) => ({
  status: 'ready' as const,
  failure_reason: null,
  chunk_count: chunks,
  characters: chunks,
  updated_at: now,
});

/** Documents made ready with these passage counts, one after another. */
async function readyDocuments(businessId: number, kbId: number, sizes: number[]): Promise<KnowledgeDocument[]> {
  const docs = await newDocuments(businessId, kbId, sizes.length);
  for (const [i, doc] of docs.entries()) expect(await repo.finishDocument(businessId, doc, ready(sizes[i]!))).toEqual({ kind: 'finished' });
  return docs;
}

async function baseAttribute(businessId: number, kbId: number, attribute: string): Promise<unknown> {
  const result = await db.doc.send(
    new GetCommand({ TableName: db.tableName, Key: keys.knowledgeBase(businessId, kbId), ConsistentRead: true }),
  );
  return result.Item?.[attribute];
}

/** The passages of the base's ready documents, as listed: what `chunks` must always equal. */
async function readyPassages(businessId: number, kbId: number): Promise<number> {
  return (await repo.listDocuments(businessId, kbId))
    .filter((doc) => doc.status === 'ready')
    .reduce((sum, doc) => sum + doc.chunk_count, 0);
}

describe('the passage limit of a knowledge base', () => {
  it('is exact under parallel finishes: at 9,000 of 10,000, of 6 documents of 400 finishing at once, exactly 2 become ready', async () => {
    // Arrange
    const businessId = await ids.nextId();
    const base = await newBase(businessId);
    await readyDocuments(businessId, base.id, [2000, 2000, 2000, 2000, 1000]);
    const racing = await newDocuments(businessId, base.id, 6);
    // Act
    const results = await Promise.all(racing.map((doc) => repo.finishDocument(businessId, doc, ready(400))));
    // Assert
    expect(results.filter((result) => result.kind === 'finished')).toHaveLength(2);
    expect(results.filter((result) => result.kind === 'over-limit')).toHaveLength(4);
    for (const result of results) if (result.kind === 'over-limit') expect([9400, 9800]).toContain(result.held);
    expect(await baseAttribute(businessId, base.id, 'chunks')).toBe(9800);
    expect(await readyPassages(businessId, base.id)).toBe(9800);
    // Refused documents are still processing: nothing of them was written
    const refused = racing.filter((_, i) => results[i]!.kind === 'over-limit');
    for (const doc of refused) expect((await repo.findDocument(businessId, base.id, doc.id))?.status).toBe('processing');
  });

  it('fills a base exactly to the cap, and counts a document once when two deliveries finish it at once', async () => {
    // Arrange
    const businessId = await ids.nextId();
    const base = await newBase(businessId);
    await readyDocuments(businessId, base.id, [2000, 2000, 2000, 2000]);
    const [last] = await newDocuments(businessId, base.id, 1);
    // Act
    const twice = await Promise.all([1, 2].map(() => repo.finishDocument(businessId, last!, ready(2000))));
    // Assert
    expect(twice.map((result) => result.kind).sort()).toEqual(['already-finished', 'finished']);
    expect(await baseAttribute(businessId, base.id, 'chunks')).toBe(CAP);
    expect(await baseAttribute(businessId, base.id, 'version')).toBe(5);
  });

  it('gives the passages of a ready document back when it is deleted, once however many deletes race', async () => {
    // Arrange
    const businessId = await ids.nextId();
    const base = await newBase(businessId);
    const [big] = await readyDocuments(businessId, base.id, [2000, 2000, 2000, 2000, 2000]);
    const [waiting] = await newDocuments(businessId, base.id, 1);
    const refused = await repo.finishDocument(businessId, waiting!, ready(500));
    // Act
    await Promise.all([1, 2, 3].map(() => repo.deleteDocument(businessId, base.id, big!.id)));
    const accepted = await repo.finishDocument(businessId, waiting!, ready(500));
    // Assert
    expect(refused).toEqual({ kind: 'over-limit', held: CAP });
    expect(accepted).toEqual({ kind: 'finished' });
    expect(await baseAttribute(businessId, base.id, 'chunks')).toBe(8500);
    expect(await baseAttribute(businessId, base.id, 'live_documents')).toBe(5);
  });

  it('stays exact when deletes race finishes of the same documents', async () => {
    // Arrange
    const businessId = await ids.nextId();
    const base = await newBase(businessId);
    await readyDocuments(businessId, base.id, [1000]);
    const docs = await newDocuments(businessId, base.id, 8);
    // Act: each document is finished (ready, 300 passages) and deleted at once
    await Promise.all(
      docs.flatMap((doc) => [repo.finishDocument(businessId, doc, ready(300)), repo.deleteDocument(businessId, base.id, doc.id)]),
    );
    // Assert: every racing document is gone, and only the first one's passages are counted
    expect(await repo.listDocuments(businessId, base.id)).toHaveLength(1);
    expect(await baseAttribute(businessId, base.id, 'chunks')).toBe(1000);
    expect(await baseAttribute(businessId, base.id, 'live_documents')).toBe(1);
  });

  it('goes with its base when the base is deleted', async () => {
    // Arrange
    const businessId = await ids.nextId();
    const base = await newBase(businessId);
    await readyDocuments(businessId, base.id, [700]);
    // Act
    await repo.deleteBase(businessId, base.id);
    // Assert
    expect(await baseAttribute(businessId, base.id, 'chunks')).toBeUndefined();
    expect(await repo.listDocuments(businessId, base.id)).toEqual([]);
  });
});

describe('the passage count of a base from before the count', () => {
  /** A base and documents as written before the counts: no `documents`, no `chunks` on the base. */
  async function legacyBase(businessId: number, docs: Pick<KnowledgeDocument, 'status' | 'chunk_count'>[]) {
    const base = { id: await ids.nextId(), name: 'Old', description: '', created_at: now, updated_at: now, version: 3 };
    await db.doc.send(
      new PutCommand({ TableName: db.tableName, Item: { ...keys.knowledgeBase(businessId, base.id), entity: 'knowledge_base', ...base } }),
    );
    const written: KnowledgeDocument[] = [];
    for (const fields of docs) {
      const doc = {
        ...processingDocument({ id: await ids.nextId(), knowledgeBaseId: base.id, name: 'Old doc', url: null, now }),
        ...fields,
      };
      await db.doc.send(
        new PutCommand({
          TableName: db.tableName,
          Item: { ...keys.knowledgeDocument(businessId, base.id, doc.id), entity: 'knowledge_document', ...doc },
        }),
      );
      written.push(doc);
    }
    return { base, docs: written };
  }

  it('is seeded from the ready documents on a delete, which gives the passages back', async () => {
    // Arrange
    const businessId = await ids.nextId();
    const { base, docs } = await legacyBase(businessId, [
      { status: 'ready', chunk_count: 2000 },
      { status: 'ready', chunk_count: 1500 },
      { status: 'failed', chunk_count: 0 },
      { status: 'processing', chunk_count: 0 },
    ]);
    // Act
    await repo.deleteDocument(businessId, base.id, docs[0]!.id);
    // Assert
    expect(await baseAttribute(businessId, base.id, 'chunks')).toBe(1500);
    // The ready and the processing one: a failed document holds no place
    expect(await baseAttribute(businessId, base.id, 'live_documents')).toBe(2);
  });

  it('is seeded on a finish, which the old passages can refuse: 9,000 old + 1,500 is over, + 1,000 fits', async () => {
    // Arrange
    const businessId = await ids.nextId();
    const { base, docs } = await legacyBase(businessId, [
      ...Array.from({ length: 4 }, () => ({ status: 'ready' as const, chunk_count: 2000 })),
      { status: 'ready', chunk_count: 1000 },
      { status: 'processing', chunk_count: 0 },
      { status: 'processing', chunk_count: 0 },
    ]);
    // Act
    const [over, fits] = await Promise.all([
      repo.finishDocument(businessId, docs[5]!, ready(1500)),
      repo.finishDocument(businessId, docs[6]!, ready(1000)),
    ]);
    // Assert
    expect(over).toEqual({ kind: 'over-limit', held: expect.any(Number) });
    expect(fits).toEqual({ kind: 'finished' });
    expect(await baseAttribute(businessId, base.id, 'chunks')).toBe(CAP);
    expect(await readyPassages(businessId, base.id)).toBe(CAP);
  });
});
