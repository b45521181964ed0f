import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiSandboxServer } from '../../../media-service/src/sandbox/openai-server';
import { HEADING_CHARS } from '../../../shared/knowledge/chunker';
import { KnowledgeRepository } from '../../../shared/db/knowledge-repository';
import { keys } from '../../../shared/db/table';
import { KNOWLEDGE_LIMITS, type Chunk } from '../../../shared/domain/knowledge';
import { EMBEDDING_MODEL } from '../../../shared/knowledge/embeddings';
import { OpenAiEmbedder } from '../../../shared/llm/embeddings-client';
import type { LookupAll } from '../../../shared/security/ssrf';
import { freePort } from '../../../scripts/local/stand-ins/dynamodb-local';
import { createApiHarness, type ApiHarness, type TenantClient } from '../../support/api-harness';
import { knowledgeApi } from '../../support/knowledge-harness';
import { SANDBOX_OPENAI_API_KEY } from '../../../media-service/src/sandbox/openai-auth';

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

/**
 * A repository whose chunk write carries one more chunk, too big for any DynamoDB item (a heading
 * of 110,000 emoji, 440 KB), as a chunker without bounds made: DynamoDB Local refuses its page
 * after the first 25 pages are written. Records how many chunks were stored at the refusal.
 */
class OversizeRepository extends KnowledgeRepository {
  storedWhenRefused: number | undefined;

  override async putChunks(businessId: number, kbId: number, docId: number, chunks: Chunk[], vectors: Float32Array[], dimensions: number) {
    const giant: Chunk = { heading: '🦷'.repeat(110_000), text: 'Open on Saturdays.' };
    try {
      await super.putChunks(businessId, kbId, docId, [...chunks, giant], [...vectors, vectors[0]!], dimensions);
    } catch (error) {
      const stored = await this.loadChunks(businessId, kbId);
      this.storedWhenRefused = stored.reduce((sum, doc) => sum + doc.chunks.length, 0);
      throw error;
    }
  }
}

/** Resolves `nowhere.example` as a resolver that finds no such name does. */
const lookup: LookupAll = async (hostname) => {
  if (hostname === 'nowhere.example') throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return [{ address: '127.0.0.1', family: 4 }];
};

let openai: OpenAiSandboxServer;
let harness: ApiHarness;
let api: ReturnType<typeof knowledgeApi>;
let oversize: OversizeRepository;
let oversizeApi: ReturnType<typeof knowledgeApi>;
let owner: TenantClient;
let resetting: NetServer;
let cutShort: Server;

const listening = async <T extends NetServer | Server>(server: T): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

beforeAll(async () => {
  openai = await OpenAiSandboxServer.start();
  harness = await createApiHarness({ allowPrivateUrls: true });
  api = knowledgeApi(harness, openai, { lookup });
  oversize = new OversizeRepository(harness.core.db);
  oversizeApi = knowledgeApi(harness, openai, { repo: oversize });
  owner = await harness.newTenant({ numbers: 0 });
  // Accepts and closes at once: the client sees "socket hang up" (ECONNRESET).
  resetting = createNetServer((socket) => socket.destroy());
  // Sends the head and part of the body, then closes.
  cutShort = createHttpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
    res.write('Opening hours', () => res.destroy());
  });
});

afterAll(async () => {
  await Promise.all([api?.idle(), oversizeApi?.idle()]);
  await openai?.close();
  resetting?.close();
  cutShort?.close();
});

/** Adds a document to a new base and waits for its ingestion. */
async function ingested(target: ReturnType<typeof knowledgeApi>, body: Json): Promise<{ kbId: number; doc: Json }> {
  const kb = await json(await target.request(owner.apiKey, 'POST', '/knowledge-bases', { name: 'Sizes' }));
  const created = await json(await target.request(owner.apiKey, 'POST', `/knowledge-bases/${kb.id}/documents`, body));
  await target.idle();
  const doc = await json(await target.request(owner.apiKey, 'GET', `/knowledge-bases/${kb.id}/documents/${created.id}`));
  return { kbId: kb.id, doc };
}

describe('a very long heading', () => {
  it('is cut to 150 characters, and the document with a 50,000-character heading is ready', async () => {
    // Arrange
    const heading = Array.from({ length: 5_000 }, (_, i) => `word${i}`)
      .join(' ')
      .slice(0, 50_000);
    // Act
    const { kbId, doc } = await ingested(api, { name: 'Long heading', text: `# ${heading}\n\nWe are open on Saturdays from 9 to 1.` });
    // Assert
    expect(doc).toMatchObject({ status: 'ready', failure_reason: null, chunk_count: 1 });
    const [stored] = await api.repo.loadChunks(owner.businessId, kbId);
    expect(stored!.chunks[0]!.heading.length).toBeLessThanOrEqual(HEADING_CHARS.title);
    expect(stored!.chunks[0]!.heading).toMatch(/^word0 word1 .*…$/);
    const search = await json(await api.request(owner.apiKey, 'POST', `/knowledge-bases/${kbId}/search`, { query: 'open on saturdays' }));
    expect(search.data[0].text).toContain('Saturdays');
  });

  it('leaves a document of a 15,000-emoji heading over 300 sections ready, every heading bounded', async () => {
    // Arrange: 15,000 emoji (60 KB, 30,000 UTF-16 units) as the top heading, then 300 sections under it
    const sections = Array.from({ length: 300 }, (_, i) => `## Section ${i} ${'字'.repeat(20)}\n\nFact ${i}: ${'語'.repeat(40)}.`);
    const text = `# ${'🦷'.repeat(15_000)}\n\n${sections.join('\n\n')}`;
    // Act
    const { kbId, doc } = await ingested(api, { name: 'Emoji heading', text });
    // Assert
    expect(doc).toMatchObject({ status: 'ready', failure_reason: null, chunk_count: 300 });
    const [stored] = await api.repo.loadChunks(owner.businessId, kbId);
    expect(stored!.chunks).toHaveLength(300);
    expect(Math.max(...stored!.chunks.map((chunk) => chunk.heading.length))).toBeLessThanOrEqual(HEADING_CHARS.path);
    expect(stored!.chunks[299]!.heading).toMatch(/🦷… > Section 299 字+$/);
  });
});

describe('a document longer than what is kept: truncated', () => {
  const { chunksPerDocument } = KNOWLEDGE_LIMITS;
  /** `count` sections of one passage each (a passage never crosses a heading): 2,100 are ~44,000 characters. */
  const sections = (count: number) => Array.from({ length: count }, (_, i) => `# S${i}\n\nFact number ${i}.`).join('\n\n');

  it('ends ready with its first 2,000 passages and truncated true, listed so too', async () => {
    // Arrange
    const kb = await json(await api.request(owner.apiKey, 'POST', '/knowledge-bases', { name: 'Long' }));
    // Act
    const created = await json(
      await api.request(owner.apiKey, 'POST', `/knowledge-bases/${kb.id}/documents`, {
        name: 'Long',
        text: sections(chunksPerDocument + 100),
      }),
    );
    await api.idle();
    // Assert
    expect(created).toMatchObject({ status: 'processing', truncated: false });
    const doc = await json(await api.request(owner.apiKey, 'GET', `/knowledge-bases/${kb.id}/documents/${created.id}`));
    expect(doc).toMatchObject({ status: 'ready', failure_reason: null, chunk_count: chunksPerDocument, truncated: true });
    const listed = await json(await api.request(owner.apiKey, 'GET', `/knowledge-bases/${kb.id}/documents`));
    expect(listed.data).toEqual([doc]);
    const [stored] = await api.repo.loadChunks(owner.businessId, kb.id);
    expect(stored!.chunks).toHaveLength(chunksPerDocument);
    expect(stored!.chunks.at(-1)).toEqual({ heading: `S${chunksPerDocument - 1}`, text: `Fact number ${chunksPerDocument - 1}.` });
  });

  it('leaves a short document truncated false (exactly 2,000 passages is false too: test/unit/shared/knowledge-extract.test.ts)', async () => {
    // Act
    const short = await ingested(api, { name: 'Short', text: '## Hours\n\nWe are open on Saturdays.' });
    // Assert
    expect(short.doc).toMatchObject({ status: 'ready', chunk_count: 1, truncated: false });
  });

  it('leaves a failed document truncated false', async () => {
    // Act: headings only, nothing to search
    const { doc } = await ingested(api, { name: 'Headings', text: '# One\n\n## Two' });
    // Assert
    expect(doc).toMatchObject({ status: 'failed', failure_reason: 'the document has no text to search', truncated: false });
  });

  it('reads a document stored before the field (no truncated attribute) as truncated false', async () => {
    // Arrange: a ready document whose item loses the attribute, as items written before it have none
    const { kbId, doc } = await ingested(api, { name: 'Old', text: sections(3) });
    await harness.core.db.doc.send(
      new UpdateCommand({
        TableName: harness.core.db.tableName,
        Key: keys.knowledgeDocument(owner.businessId, kbId, doc.id),
        UpdateExpression: 'REMOVE truncated',
        ConditionExpression: 'attribute_exists(truncated)',
      }),
    );
    // Act
    const read = await api.request(owner.apiKey, 'GET', `/knowledge-bases/${kbId}/documents/${doc.id}`);
    const listed = await api.request(owner.apiKey, 'GET', `/knowledge-bases/${kbId}/documents`);
    // Assert
    expect(read.status).toBe(200);
    expect(await json(read)).toEqual({ ...doc, truncated: false });
    expect(listed.status).toBe(200);
    expect((await json(listed)).data).toEqual([{ ...doc, truncated: false }]);
  });
});

describe('a chunk page DynamoDB refuses as too large', () => {
  it('fails the document with a plain reason and removes the pages already written', async () => {
    // Arrange: 700 sections, so 28 pages are written before the refused one
    const text = Array.from({ length: 700 }, (_, i) => `# S${i}\n\nFact ${i}.`).join('\n\n');
    // Act
    const { kbId, doc } = await ingested(oversizeApi, { name: 'Refused', text });
    // Assert
    expect(doc).toMatchObject({
      status: 'failed',
      failure_reason: 'the document could not be stored (a passage is too large)',
      chunk_count: 0,
      truncated: false,
    });
    expect(oversize.storedWhenRefused).toBe(625);
    expect(await oversize.loadChunks(owner.businessId, kbId)).toEqual([]);
  });
});

describe('a URL that cannot be fetched', () => {
  it.each([
    ['a closed port', async () => `http://127.0.0.1:${await freePort()}/faq.txt`, 'the server refused the connection'],
    ['a name that does not resolve', async () => 'http://nowhere.example/faq.txt', 'the host name could not be resolved'],
    [
      'a server that closes the connection',
      async () => `http://127.0.0.1:${await listening(resetting)}/faq.txt`,
      'the connection was closed before the document arrived',
    ],
    [
      'a server that closes mid-body',
      async () => `http://127.0.0.1:${await listening(cutShort)}/faq.txt`,
      'the connection was closed before the document arrived',
    ],
  ])('fails for %s with a fixed reason that names no address or port', async (_label, urlOf, reason) => {
    // Arrange
    const url = await urlOf();
    // Act
    const { doc } = await ingested(api, { name: 'Unreachable', url });
    // Assert
    expect(doc).toMatchObject({ status: 'failed', failure_reason: reason });
    expect(doc.failure_reason).not.toMatch(/\d{2,}|127\.0|nowhere/);
  });
});

describe('the sandbox OpenAI embeddings limits, as OpenAI has them', () => {
  const client = () => new OpenAI({ apiKey: SANDBOX_OPENAI_API_KEY, baseURL: openai.baseUrl, maxRetries: 0 });

  it('refuses an input over 8,191 tokens with a 400 and an error object', async () => {
    // Act
    const error = await client()
      .embeddings.create({ model: EMBEDDING_MODEL, input: ['字'.repeat(3_000)] })
      .catch((e: unknown) => e);
    // Assert
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toMatch(/maximum context length is 8191 tokens/);
  });

  it('refuses a request over 300,000 tokens (max_tokens_per_request)', async () => {
    // Act
    const error = await client()
      .embeddings.create({ model: EMBEDDING_MODEL, input: Array.from({ length: 40 }, () => 'x'.repeat(8_000)) })
      .catch((e: unknown) => e);
    // Assert
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('max_tokens_per_request');
  });

  it('takes 120 texts of 7,000 bytes (840,000 in all) from the embedder, split into requests within the limits', async () => {
    // Arrange
    const embedder = new OpenAiEmbedder({ apiKey: SANDBOX_OPENAI_API_KEY, baseURL: openai.baseUrl });
    const before = openai.embeddingRequests;
    // Act
    const vectors = await embedder.embed(Array.from({ length: 120 }, (_, i) => `${i} ${'字'.repeat(2_333)}`));
    // Assert
    expect(vectors).toHaveLength(120);
    expect(openai.embeddingRequests - before).toBeGreaterThanOrEqual(4);
  });
});
