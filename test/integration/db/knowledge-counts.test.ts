import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { createDb } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';
import { QuotaExceededError } from '../../../shared/errors';
import { KnowledgeRepository, type KnowledgeBaseRecord } from '../../../shared/db/knowledge-repository';
import { keys } from '../../../shared/db/table';
import { processingDocument } from '../../../shared/domain/knowledge';

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
const repo = new KnowledgeRepository(db);
const ids = new IdAllocator(db);
const now = new Date().toISOString();

const newBase = async (): Promise<KnowledgeBaseRecord> => ({
  id: await ids.nextId(),
  name: 'Base',
  description: '',
  created_at: now,
  updated_at: now,
  version: 0,
});
const newDocument = async (kbId: number) =>
  processingDocument({ id: await ids.nextId(), knowledgeBaseId: kbId, name: 'Doc', url: null, now });

/** Items as the repository wrote them before the counts: a base with no `documents`, no `KBCOUNT`. */
async function legacyBases(businessId: number, count: number): Promise<KnowledgeBaseRecord[]> {
  const bases = await Promise.all(Array.from({ length: count }, newBase));
  await Promise.all(
    bases.map((base) =>
      db.doc.send(
        new PutCommand({
          TableName: db.tableName,
          Item: { ...keys.knowledgeBase(businessId, base.id), entity: 'knowledge_base', ...base },
        }),
      ),
    ),
  );
  return bases;
}

async function legacyDocuments(businessId: number, kbId: number, count: number) {
  const docs = await Promise.all(Array.from({ length: count }, () => newDocument(kbId)));
  await Promise.all(
    docs.map((doc) =>
      db.doc.send(
        new PutCommand({
          TableName: db.tableName,
          Item: { ...keys.knowledgeDocument(businessId, kbId, doc.id), entity: 'knowledge_document', ...doc },
        }),
      ),
    ),
  );
  return docs;
}

async function stored(key: { pk: string; sk: string }, attribute: string): Promise<unknown> {
  return (await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key, ConsistentRead: true }))).Item?.[attribute];
}

const outcomes = (results: PromiseSettledResult<unknown>[]) =>
  results.map((result) => (result.status === 'fulfilled' ? 'ok' : (result.reason as Error).name)).sort();

describe('counts of data written before the counts existed', () => {
  it('seeds the bases count from the bases once, under concurrent creates: 49 old bases + 3 creates make 50', async () => {
    // Arrange
    const businessId = await ids.nextId();
    await legacyBases(businessId, 49);
    // Act
    const results = await Promise.allSettled([1, 2, 3].map(async () => repo.insertBase(businessId, await newBase())));
    // Assert
    expect(outcomes(results)).toEqual(['QuotaExceededError', 'QuotaExceededError', 'ok']);
    expect(await stored(keys.knowledgeBaseCount(businessId), 'bases')).toBe(50);
    expect(await repo.listBases(businessId)).toHaveLength(50);
  });

  it('seeds on a delete too (the base deleted still counted), so the next create counts from the truth', async () => {
    // Arrange
    const businessId = await ids.nextId();
    const [first] = await legacyBases(businessId, 3);
    // Act
    await repo.deleteBase(businessId, first!.id);
    const afterDelete = await stored(keys.knowledgeBaseCount(businessId), 'bases');
    await repo.insertBase(businessId, await newBase());
    // Assert
    expect(afterDelete).toBe(2);
    expect(await stored(keys.knowledgeBaseCount(businessId), 'bases')).toBe(3);
  });

  it('refuses creates while old data is over the limit, until deletes bring it under', async () => {
    // Arrange
    const businessId = await ids.nextId();
    const bases = await legacyBases(businessId, 51);
    // Act
    const over = await repo.insertBase(businessId, await newBase()).catch((error: unknown) => error);
    await Promise.all(bases.slice(0, 2).map((base) => repo.deleteBase(businessId, base.id)));
    await repo.insertBase(businessId, await newBase());
    // Assert
    expect(over).toBeInstanceOf(QuotaExceededError);
    expect(await stored(keys.knowledgeBaseCount(businessId), 'bases')).toBe(50);
  });

  it("seeds an old base's document count from its documents: 99 old documents + 3 creates make 100", async () => {
    // Arrange
    const businessId = await ids.nextId();
    const [base] = await legacyBases(businessId, 1);
    await legacyDocuments(businessId, base!.id, 99);
    // Act
    const results = await Promise.allSettled(
      [1, 2, 3].map(async () => repo.insertDocument(businessId, await newDocument(base!.id), 'text')),
    );
    // Assert
    expect(outcomes(results)).toEqual(['QuotaExceededError', 'QuotaExceededError', 'ok']);
    expect(await stored(keys.knowledgeBase(businessId, base!.id), 'live_documents')).toBe(100);
    expect(await repo.listDocuments(businessId, base!.id)).toHaveLength(100);
  });

  it('seeds the document count on a delete of an old document, and uncounts it once when deletes race', async () => {
    // Arrange
    const businessId = await ids.nextId();
    const [base] = await legacyBases(businessId, 1);
    const [doc] = await legacyDocuments(businessId, base!.id, 4);
    // Act
    await Promise.all([1, 2, 3].map(() => repo.deleteDocument(businessId, base!.id, doc!.id)));
    // Assert
    expect(await stored(keys.knowledgeBase(businessId, base!.id), 'live_documents')).toBe(3);
    expect(await stored(keys.knowledgeBase(businessId, base!.id), 'version')).toBe(1);
  });
});

describe('documents of a base that is gone', () => {
  it("are refused (false, not a limit), and one deleted before the base's sweep reaches it is removed", async () => {
    // Arrange: the base's delete committed, its sweep has not run yet
    const businessId = await ids.nextId();
    const base = await newBase();
    await repo.insertBase(businessId, base);
    const doc = await newDocument(base.id);
    await repo.insertDocument(businessId, doc, 'text');
    await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: keys.knowledgeBase(businessId, base.id) }));
    // Act
    const added = await repo.insertDocument(businessId, await newDocument(base.id), 'text');
    await repo.deleteDocument(businessId, base.id, doc.id);
    // Assert
    expect(added).toBe(false);
    expect(await repo.listDocuments(businessId, base.id)).toEqual([]);
    expect(await repo.readSource(businessId, base.id, doc.id)).toBeUndefined();
    expect(await repo.findBase(businessId, base.id)).toBeUndefined();
  });

  it('go with a base deleted: it is uncounted once however many deletes race, and its document count goes with it', async () => {
    // Arrange
    const businessId = await ids.nextId();
    const [base, other] = [await newBase(), await newBase()];
    await Promise.all([repo.insertBase(businessId, base), repo.insertBase(businessId, other)]);
    await Promise.all([1, 2, 3].map(async () => repo.insertDocument(businessId, await newDocument(base.id), 'text')));
    // Act: two deletes at once
    await Promise.all([1, 2].map(() => repo.deleteBase(businessId, base.id)));
    // Assert
    expect(await stored(keys.knowledgeBaseCount(businessId), 'bases')).toBe(1);
    expect(await stored(keys.knowledgeBase(businessId, base.id), 'live_documents')).toBeUndefined();
    expect(await repo.listDocuments(businessId, base.id)).toEqual([]);
    expect(await stored(keys.knowledgeBase(businessId, other.id), 'live_documents')).toBe(0);
  });
});
