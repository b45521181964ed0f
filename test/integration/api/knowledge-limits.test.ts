import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiSandboxServer } from '../../../media-service/src/sandbox/openai-server';
import { keys } from '../../../shared/db/table';
import { createApiHarness, type ApiHarness, type TenantClient } from '../../support/api-harness';
import { knowledgeApi } from '../../support/knowledge-harness';

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

let openai: OpenAiSandboxServer;
let harness: ApiHarness;
let api: ReturnType<typeof knowledgeApi>;
/** The same API with a queue that only records its jobs: where the count matters and ingestion does not. */
let unqueued: ReturnType<typeof knowledgeApi>;
const recorded: unknown[] = [];

const call = (tenant: TenantClient, method: string, path: string, body?: unknown) => api.request(tenant.apiKey, method, path, body);

/** One stored item's attribute, read straight from the table (the counts are not in any response). */
async function stored(key: { pk: string; sk: string }, attribute: string): Promise<unknown> {
  const result = await harness.core.db.doc.send(new GetCommand({ TableName: harness.core.db.tableName, Key: key }));
  return result.Item?.[attribute];
}

const statusCounts = (responses: Response[]) =>
  responses.reduce<Record<number, number>>((counts, r) => ({ ...counts, [r.status]: (counts[r.status] ?? 0) + 1 }), {});

beforeAll(async () => {
  openai = await OpenAiSandboxServer.start();
  harness = await createApiHarness({ allowPrivateUrls: true });
  api = knowledgeApi(harness, openai);
  unqueued = knowledgeApi(harness, openai, { queue: { enqueue: async (job) => void recorded.push(job) } });
});

afterAll(async () => {
  await api?.idle();
  await openai?.close();
});

describe('the limit of 50 knowledge bases a business', () => {
  it('holds under 60 concurrent creates, and a base deleted (twice at once) frees exactly one place', { timeout: 120_000 }, async () => {
    // Arrange
    const tenant = await harness.newTenant({ numbers: 0 });
    // Act: 60 creates at once
    const created = await Promise.all(
      Array.from({ length: 60 }, (_, i) => call(tenant, 'POST', '/knowledge-bases', { name: `Base ${i}` })),
    );
    const first = await json(created.find((r) => r.status === 200)!);
    const deletes = await Promise.all([1, 2].map(() => call(tenant, 'DELETE', `/knowledge-bases/${first.id}`)));
    const again = await call(tenant, 'POST', '/knowledge-bases', { name: 'Again' });
    const over = await call(tenant, 'POST', '/knowledge-bases', { name: 'Over' });
    // Assert
    expect(statusCounts(created)).toEqual({ 200: 50, 409: 10 });
    expect(await json(created.find((r) => r.status === 409)!)).toEqual({
      code: 'quota_exceeded',
      detail: 'This business has reached its quota of 50 knowledge bases (quota: knowledge_bases = 50).',
    });
    // Both deletes answer as a delete or a 404 (the loser finds it gone); the base is uncounted once
    expect(deletes.every((r) => [200, 404].includes(r.status))).toBe(true);
    expect(again.status).toBe(200);
    expect(over.status).toBe(409);
    expect((await json(await call(tenant, 'GET', '/knowledge-bases'))).data).toHaveLength(50);
    expect(await stored(keys.knowledgeBaseCount(tenant.businessId), 'bases')).toBe(50);
  });

  it('keeps the count exact through deletes, and counts only its own business', { timeout: 120_000 }, async () => {
    // Arrange
    const [tenant, other] = await Promise.all([harness.newTenant({ numbers: 0 }), harness.newTenant({ numbers: 0 })]);
    const bases = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => json(await call(tenant, 'POST', '/knowledge-bases', { name: `B${i}` }))),
    );
    await call(other, 'POST', '/knowledge-bases', { name: 'Elsewhere' });
    // Act: delete 5, three of them twice at once
    await Promise.all(
      bases
        .slice(0, 5)
        .flatMap((base, i) => (i < 3 ? [base, base] : [base]))
        .map((base) => call(tenant, 'DELETE', `/knowledge-bases/${base.id}`)),
    );
    // Assert
    expect((await json(await call(tenant, 'GET', '/knowledge-bases'))).data).toHaveLength(3);
    expect(await stored(keys.knowledgeBaseCount(tenant.businessId), 'bases')).toBe(3);
    expect(await stored(keys.knowledgeBaseCount(other.businessId), 'bases')).toBe(1);
  });
});

describe('the limit of 100 documents a base', () => {
  // 120 creates racing on one counter: seconds on a quiet machine, far longer on a busy one.
  it(
    'holds under 120 concurrent creates, and a document deleted (twice at once) frees exactly one place',
    { timeout: 120_000 },
    async () => {
      // Arrange: documents queued but not ingested (the count is the point; 100 ingestions took ~20 s)
      const tenant = await harness.newTenant({ numbers: 0 });
      const kb = await json(await unqueued.request(tenant.apiKey, 'POST', '/knowledge-bases', { name: 'Full' }));
      const docs = `/knowledge-bases/${kb.id}/documents`;
      // Act: 120 creates at once
      const created = await Promise.all(
        Array.from({ length: 120 }, (_, i) => unqueued.request(tenant.apiKey, 'POST', docs, { name: `D${i}`, text: `Fact ${i}.` })),
      );
      const first = await json(created.find((r) => r.status === 200)!);
      const deletes = await Promise.all([1, 2].map(() => unqueued.request(tenant.apiKey, 'DELETE', `${docs}/${first.id}`)));
      const again = await unqueued.request(tenant.apiKey, 'POST', docs, { name: 'Again', text: 'Again.' });
      const over = await unqueued.request(tenant.apiKey, 'POST', docs, { name: 'Over', text: 'Over.' });
      // Assert
      expect(statusCounts(created)).toEqual({ 200: 100, 409: 20 });
      expect(await json(created.find((r) => r.status === 409)!)).toEqual({
        code: 'quota_exceeded',
        detail: 'This knowledge base has reached its quota of 100 documents (quota: documents = 100, per knowledge base).',
      });
      expect(deletes.every((r) => [200, 404].includes(r.status))).toBe(true);
      expect(again.status).toBe(200);
      expect(over.status).toBe(409);
      const listed = (await json(await unqueued.request(tenant.apiKey, 'GET', docs))).data as Json[];
      expect(listed).toHaveLength(100);
      expect(listed.every((doc) => doc.status === 'processing')).toBe(true);
      expect(recorded.length).toBeGreaterThanOrEqual(101);
      expect(await stored(keys.knowledgeBase(tenant.businessId, kb.id), 'live_documents')).toBe(100);
    },
  );

  it(
    'keeps the count exact through deletes, and a deleted base takes its documents and its document count with it',
    { timeout: 120_000 },
    async () => {
      // Arrange
      const tenant = await harness.newTenant({ numbers: 0 });
      const [kb, kept] = await Promise.all([
        json(await call(tenant, 'POST', '/knowledge-bases', { name: 'Gone soon' })),
        json(await call(tenant, 'POST', '/knowledge-bases', { name: 'Kept' })),
      ]);
      const docs = await Promise.all(
        Array.from({ length: 6 }, async (_, i) =>
          json(await call(tenant, 'POST', `/knowledge-bases/${kb.id}/documents`, { name: `D${i}`, text: `Fact ${i}.` })),
        ),
      );
      // Act: delete 4 documents, two of them twice at once, then the base
      await Promise.all(
        docs
          .slice(0, 4)
          .flatMap((doc, i) => (i < 2 ? [doc, doc] : [doc]))
          .map((doc) => call(tenant, 'DELETE', `/knowledge-bases/${kb.id}/documents/${doc.id}`)),
      );
      const afterDeletes = await stored(keys.knowledgeBase(tenant.businessId, kb.id), 'live_documents');
      await api.idle();
      const deleted = await call(tenant, 'DELETE', `/knowledge-bases/${kb.id}`);
      // Assert
      expect(afterDeletes).toBe(2);
      expect(deleted.status).toBe(200);
      expect(await stored(keys.knowledgeBase(tenant.businessId, kb.id), 'live_documents')).toBeUndefined();
      expect(await api.repo.listDocuments(tenant.businessId, kb.id)).toEqual([]);
      expect(await api.repo.loadChunks(tenant.businessId, kb.id)).toEqual([]);
      expect(await stored(keys.knowledgeBaseCount(tenant.businessId), 'bases')).toBe(1);
      expect(await stored(keys.knowledgeBase(tenant.businessId, kept.id), 'live_documents')).toBe(0);
    },
  );
});

describe('the limit of 10,000 passages a base', () => {
  it('fails a document that would pass it with a reason and no passages stored; a deleted document gives its passages back', async () => {
    // Arrange: a base holding 9,990 passages (their chunks are not needed, only their count)
    const tenant = await harness.newTenant({ numbers: 0 });
    const kb = await json(await call(tenant, 'POST', '/knowledge-bases', { name: 'Nearly full' }));
    const filler = await Promise.all(
      [2000, 2000, 2000, 2000, 1990].map(async (chunks, i) => {
        const doc = await json(await call(tenant, 'POST', `/knowledge-bases/${kb.id}/documents`, { name: `Big ${i}`, text: 'x' }));
        await api.idle();
        await api.repo.deleteChunks(tenant.businessId, kb.id, doc.id);
        await harness.core.db.doc.send(
          new UpdateCommand({
            TableName: harness.core.db.tableName,
            Key: keys.knowledgeDocument(tenant.businessId, kb.id, doc.id),
            UpdateExpression: 'SET chunk_count = :n',
            ExpressionAttributeValues: { ':n': chunks },
          }),
        );
        return doc;
      }),
    );
    await harness.core.db.doc.send(
      new UpdateCommand({
        TableName: harness.core.db.tableName,
        Key: keys.knowledgeBase(tenant.businessId, kb.id),
        UpdateExpression: 'SET chunks = :n',
        ExpressionAttributeValues: { ':n': 9990 },
      }),
    );
    const text = Array.from(
      { length: 12 },
      (_, i) => `## Topic ${i}\n\n${`Sentence ${i} about the clinic and its opening hours. `.repeat(20)}`,
    ).join('\n\n');
    const docs = `/knowledge-bases/${kb.id}/documents`;
    // Act
    const refused = await json(await call(tenant, 'POST', docs, { name: 'Too much', text }));
    await api.idle();
    const afterRefusal = await json(await call(tenant, 'GET', `${docs}/${refused.id}`));
    const chunksOfRefused = (await api.repo.loadChunks(tenant.businessId, kb.id)).filter((entry) => entry.documentId === refused.id);
    await call(tenant, 'DELETE', `${docs}/${filler[4]!.id}`);
    const accepted = await json(await call(tenant, 'POST', docs, { name: 'Fits now', text }));
    await api.idle();
    const afterDelete = await json(await call(tenant, 'GET', `${docs}/${accepted.id}`));
    // Assert
    expect(afterRefusal).toMatchObject({ status: 'failed', chunk_count: 0 });
    expect(afterRefusal.failure_reason).toMatch(
      /^the knowledge base would hold more than 10,000 passages \(it has 9,990; this document has \d+\); split the document across knowledge bases or remove documents$/,
    );
    expect(chunksOfRefused).toEqual([]);
    expect(afterDelete.status).toBe('ready');
    expect(await stored(keys.knowledgeBase(tenant.businessId, kb.id), 'chunks')).toBe(8000 + afterDelete.chunk_count);
  });
});

describe('a document whose ingestion cannot be queued', () => {
  it('is a 503 ingestion_unavailable and is not kept, so none waits processing with no job', async () => {
    // Arrange: a queue that refuses every job (SQS unreachable)
    const refusing = knowledgeApi(harness, openai, {
      queue: {
        enqueue: async () => {
          throw new Error('queue unreachable');
        },
      },
    });
    const tenant = await harness.newTenant({ numbers: 0 });
    const kb = await json(await refusing.request(tenant.apiKey, 'POST', '/knowledge-bases', { name: 'Queue down' }));
    // Act
    const response = await refusing.request(tenant.apiKey, 'POST', `/knowledge-bases/${kb.id}/documents`, { name: 'Doc', text: 'Hello.' });
    // Assert
    expect(response.status).toBe(503);
    expect(await json(response)).toMatchObject({ code: 'ingestion_unavailable' });
    expect((await json(await refusing.request(tenant.apiKey, 'GET', `/knowledge-bases/${kb.id}/documents`))).data).toEqual([]);
    expect(await stored(keys.knowledgeBase(tenant.businessId, kb.id), 'live_documents')).toBe(0);
  });
});
