import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiSandboxServer } from '../../../media-service/src/sandbox/openai-server';
import { KNOWLEDGE_LIMITS } from '../../../shared/domain/knowledge';
import { createApiHarness, type TenantClient } from '../../support/api-harness';
import { KNOWLEDGE_FIXTURES, knowledgeApi, startFixtureServer } from '../../support/knowledge-harness';
import { strictResponseErrors } from '../../support/openapi-strict';

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

let openai: OpenAiSandboxServer;
let fixtures: Awaited<ReturnType<typeof startFixtureServer>>;
/** The local stack's URL policy (private URLs allowed), so the fixture server on loopback can be fetched. */
let local: ReturnType<typeof knowledgeApi>;
/** Production's URL policy, with a resolver that puts `intranet.example.com` on a private address. */
let production: ReturnType<typeof knowledgeApi>;
let owner: TenantClient;
let intruder: TenantClient;
let prodTenant: TenantClient;
let kb: Json;
const docs: Record<string, Json> = {};

const call = (tenant: TenantClient, method: string, path: string, body?: unknown) => local.request(tenant.apiKey, method, path, body);

beforeAll(async () => {
  openai = await OpenAiSandboxServer.start();
  fixtures = await startFixtureServer();
  const localHarness = await createApiHarness({ allowPrivateUrls: true });
  const prodHarness = await createApiHarness();
  local = knowledgeApi(localHarness, openai);
  production = knowledgeApi(prodHarness, openai, {
    lookup: async (host) => [{ address: host === 'intranet.example.com' ? '10.0.0.7' : '93.184.216.34', family: 4 }],
  });
  [owner, intruder] = await Promise.all([localHarness.newTenant({ numbers: 0 }), localHarness.newTenant({ numbers: 0 })]);
  prodTenant = await prodHarness.newTenant({ numbers: 0 });
  kb = await json(await call(owner, 'POST', '/knowledge-bases', { name: 'Clinic', description: 'What the front desk knows.' }));
  const bodies: Record<string, Json> = {
    faq: { name: 'FAQ', text: readFileSync(join(KNOWLEDGE_FIXTURES, 'faq.md'), 'utf8') },
    services: { name: 'Prices', text: readFileSync(join(KNOWLEDGE_FIXTURES, 'services.txt'), 'utf8') },
    about: { name: 'About us', url: `${fixtures.url}/about.html` },
    policies: { name: 'Policies', url: `${fixtures.url}/policies.pdf` },
  };
  for (const [key, body] of Object.entries(bodies))
    docs[key] = await json(await call(owner, 'POST', `/knowledge-bases/${kb.id}/documents`, body));
  await local.idle();
}, 60_000);

afterAll(async () => {
  await fixtures?.close();
  await openai?.close();
});

describe('knowledge bases', () => {
  it('creates, reads, lists and renames a knowledge base, every field documented', async () => {
    // Act
    const read = await json(await call(owner, 'GET', `/knowledge-bases/${kb.id}`));
    const listed = await json(await call(owner, 'GET', '/knowledge-bases'));
    const renamed = await json(await call(owner, 'PATCH', `/knowledge-bases/${kb.id}`, { name: 'Clinic desk' }));
    // Assert
    expect(read).toEqual(kb);
    expect(strictResponseErrors('KnowledgeBase', kb)).toEqual([]);
    expect(strictResponseErrors('KnowledgeBaseList', listed)).toEqual([]);
    expect(listed.data.map((base: Json) => base.id)).toContain(kb.id);
    expect(renamed).toMatchObject({ id: kb.id, name: 'Clinic desk', description: 'What the front desk knows.' });
    expect(renamed.updated_at > kb.updated_at).toBe(true);
  });

  it('answers a new document as processing, then ingests text, Markdown, HTML and PDF to ready', async () => {
    // Assert: the POST answered before ingestion
    expect(docs.faq).toMatchObject({ status: 'processing', chunk_count: 0, source: 'text', url: null });
    expect(strictResponseErrors('KnowledgeDocument', docs.faq!)).toEqual([]);
    // Act
    const listed = await json(await call(owner, 'GET', `/knowledge-bases/${kb.id}/documents`));
    // Assert
    expect(strictResponseErrors('KnowledgeDocumentList', listed)).toEqual([]);
    const byName = Object.fromEntries(listed.data.map((doc: Json) => [doc.name, doc]));
    for (const name of ['FAQ', 'Prices', 'About us', 'Policies']) {
      expect(byName[name], name).toMatchObject({ status: 'ready', failure_reason: null });
      expect(byName[name].chunk_count, name).toBeGreaterThan(0);
    }
    expect(byName.FAQ.chunk_count).toBe(3); // one per heading section
    expect(byName['About us']).toMatchObject({ source: 'url', url: `${fixtures.url}/about.html` });
  });

  it('keeps the words of an HTML page and drops its script, style, navigation and footer', async () => {
    // Act
    const hits = await json(await call(owner, 'POST', `/knowledge-bases/${kb.id}/search`, { query: 'orthodontist braces', top_k: 10 }));
    const all = hits.data.map((hit: Json) => hit.text).join('\n');
    // Assert
    expect(all).toContain('Dr. Kenji Sato is our orthodontist');
    for (const hidden of ['should not appear', 'color: red', 'Book now', 'Copyright']) expect(all).not.toContain(hidden);
  });

  it('reads the text of a PDF', async () => {
    // Act
    const hits = await json(await call(owner, 'POST', `/knowledge-bases/${kb.id}/search`, { query: 'late cancellation fee', top_k: 1 }));
    // Assert
    expect(hits.data[0]).toMatchObject({ document_id: docs.policies!.id, document_name: 'Policies' });
    expect(hits.data[0].text).toContain('Late cancellations are charged a fee of 40 dollars.');
    expect(strictResponseErrors('KnowledgeSearchResult', hits)).toEqual([]);
  });

  it('finds the passage for paraphrased questions: recall@3 of 12 of 12', async () => {
    // Arrange: a caller's wording, and a phrase only the right passage holds
    const questions: [string, string][] = [
      ['When are you open on Saturdays?', 'Saturday from 9 am'],
      ['Is there somewhere to park?', 'Free parking'],
      ['How much does whitening cost?', 'whitening costs 350'],
      ['Do you take cheques or credit cards?', 'We do not accept cheques'],
      ['Which languages do your staff speak?', 'Spanish and Japanese'],
      ['Who can fit me with braces?', 'Kenji Sato'],
      ['What happens if I cancel my appointment late?', 'fee of 40 dollars'],
      ['What should a new patient bring along?', 'photo ID'],
      ['Is the check-up free for children?', 'first check-up free'],
      ['Which insurance do you bill directly?', 'Delta Dental'],
      ['Can I get an emergency appointment today?', 'same day'],
      ['Who founded the clinic?', 'Maria Lopez'],
    ];
    // Act
    const found = await Promise.all(
      questions.map(async ([query, phrase]) => {
        const hits = await json(await call(owner, 'POST', `/knowledge-bases/${kb.id}/search`, { query, top_k: 3 }));
        return {
          query,
          rank: hits.data.findIndex((hit: Json) => hit.text.includes(phrase)),
          scores: hits.data.map((hit: Json) => hit.score),
        };
      }),
    );
    // Assert
    expect(found.filter((result) => result.rank === -1)).toEqual([]);
    expect(found.filter((result) => result.rank === 0).length).toBeGreaterThanOrEqual(10);
    for (const result of found) expect([...result.scores].sort((a, b) => b - a)).toEqual(result.scores);
  });

  it('deletes a document: its passages are no longer found', async () => {
    // Arrange
    const doc = await json(
      await call(owner, 'POST', `/knowledge-bases/${kb.id}/documents`, { name: 'Temp', text: 'The zebra mascot is called Ziggy.' }),
    );
    await local.idle();
    const before = await json(await call(owner, 'POST', `/knowledge-bases/${kb.id}/search`, { query: 'zebra mascot', top_k: 1 }));
    // Act
    const deleted = await json(await call(owner, 'DELETE', `/knowledge-bases/${kb.id}/documents/${doc.id}`));
    const after = await json(await call(owner, 'POST', `/knowledge-bases/${kb.id}/search`, { query: 'zebra mascot', top_k: 3 }));
    // Assert
    expect(before.data[0].text).toContain('Ziggy');
    expect(deleted).toEqual({ id: doc.id, deleted: true });
    expect(after.data.map((hit: Json) => hit.text).join(' ')).not.toContain('Ziggy');
    expect((await call(owner, 'GET', `/knowledge-bases/${kb.id}/documents/${doc.id}`)).status).toBe(404);
  });

  it('answers one of several deletes at once with 200 and the others 404, for a document and for a base', async () => {
    // Arrange
    const base = await json(await call(owner, 'POST', '/knowledge-bases', { name: 'Raced' }));
    const doc = await json(await call(owner, 'POST', `/knowledge-bases/${base.id}/documents`, { name: 'Temp', text: 'Raced.' }));
    await local.idle();
    // Act
    const docDeletes = await Promise.all([1, 2, 3].map(() => call(owner, 'DELETE', `/knowledge-bases/${base.id}/documents/${doc.id}`)));
    const baseDeletes = await Promise.all([1, 2, 3].map(() => call(owner, 'DELETE', `/knowledge-bases/${base.id}`)));
    // Assert
    expect(docDeletes.map((response) => response.status).sort()).toEqual([200, 404, 404]);
    expect(baseDeletes.map((response) => response.status).sort()).toEqual([200, 404, 404]);
  });

  it('marks a document failed with a reason when its URL answers a redirect or nothing to read', async () => {
    // Act
    const moved = await json(
      await call(owner, 'POST', `/knowledge-bases/${kb.id}/documents`, { name: 'Moved', url: `${fixtures.url}/moved` }),
    );
    const missing = await json(
      await call(owner, 'POST', `/knowledge-bases/${kb.id}/documents`, { name: 'Gone', url: `${fixtures.url}/gone.html` }),
    );
    await local.idle();
    // Assert
    expect(await json(await call(owner, 'GET', `/knowledge-bases/${kb.id}/documents/${moved.id}`))).toMatchObject({
      status: 'failed',
      failure_reason: expect.stringContaining('redirect'),
    });
    expect(await json(await call(owner, 'GET', `/knowledge-bases/${kb.id}/documents/${missing.id}`))).toMatchObject({
      status: 'failed',
      failure_reason: 'the URL answered 404',
    });
    await call(owner, 'DELETE', `/knowledge-bases/${kb.id}/documents/${moved.id}`);
    await call(owner, 'DELETE', `/knowledge-bases/${kb.id}/documents/${missing.id}`);
  });
});

describe('validation', () => {
  it.each<[string, string, Json, (string | number)[], string]>([
    ['no name', '/knowledge-bases', { description: 'x' }, ['body', 'name'], 'missing'],
    ['a name of 101 characters', '/knowledge-bases', { name: 'n'.repeat(101) }, ['body', 'name'], 'string_too_long'],
    ['an unknown field', '/knowledge-bases', { name: 'x', colour: 'red' }, ['body', 'colour'], 'extra_forbidden'],
    ['both text and url', 'DOCS', { name: 'x', text: 'a', url: 'https://example.com' }, ['body'], 'value_error'],
    ['neither text nor url', 'DOCS', { name: 'x' }, ['body'], 'value_error'],
    ['text over the cap', 'DOCS', { name: 'x', text: 't'.repeat(KNOWLEDGE_LIMITS.textChars + 1) }, ['body', 'text'], 'string_too_long'],
    ['an empty query', 'SEARCH', { query: '' }, ['body', 'query'], 'string_too_short'],
    ['top_k of 11', 'SEARCH', { query: 'hours', top_k: 11 }, ['body', 'top_k'], 'less_than_equal'],
  ])('refuses %s with 422 at its loc', async (_label, path, body, loc, type) => {
    // Act
    const target = path === 'DOCS' ? `/knowledge-bases/${kb.id}/documents` : path === 'SEARCH' ? `/knowledge-bases/${kb.id}/search` : path;
    const response = await call(owner, 'POST', target, body);
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0]).toMatchObject({ loc, type });
  });

  it('is 422 for a malformed id in the path', async () => {
    expect((await call(owner, 'GET', '/knowledge-bases/01')).status).toBe(422);
    expect((await call(owner, 'GET', `/knowledge-bases/${kb.id}/documents/abc`)).status).toBe(422);
  });
});

describe('SSRF', () => {
  it('refuses a private URL at save time under the production policy (422 at body.url)', async () => {
    // Arrange
    const base = await json(await production.request(prodTenant.apiKey, 'POST', '/knowledge-bases', { name: 'Prod' }));
    // Act
    const response = await production.request(prodTenant.apiKey, 'POST', `/knowledge-bases/${base.id}/documents`, {
      name: 'Metadata',
      url: 'http://169.254.169.254/latest/meta-data/',
    });
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0].loc).toEqual(['body', 'url']);
  });

  it('fails a document whose public name resolves to a private address when fetched, without connecting', async () => {
    // Arrange
    const base = await json(await production.request(prodTenant.apiKey, 'POST', '/knowledge-bases', { name: 'Prod 2' }));
    // Act
    const doc = await json(
      await production.request(prodTenant.apiKey, 'POST', `/knowledge-bases/${base.id}/documents`, {
        name: 'Intranet',
        url: 'https://intranet.example.com/wiki',
      }),
    );
    await production.idle();
    // Assert
    expect(doc.status).toBe('processing');
    const after = await json(await production.request(prodTenant.apiKey, 'GET', `/knowledge-bases/${base.id}/documents/${doc.id}`));
    expect(after).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('refused') });
  });
});

describe('assistants and knowledge_ids', () => {
  it("accepts the business's own knowledge base, refuses another's, and refuses deleting one in use (409)", async () => {
    // Arrange
    const own = await json(await call(owner, 'POST', '/knowledge-bases', { name: 'Attached' }));
    // Act
    const assistant = await call(owner, 'POST', '/assistants', { name: 'Knows things', config: { knowledge_ids: [own.id] } });
    const foreign = await call(intruder, 'POST', '/assistants', { name: 'Steals', config: { knowledge_ids: [own.id] } });
    const created = await json(assistant);
    const refused = await call(owner, 'DELETE', `/knowledge-bases/${own.id}`);
    await call(owner, 'PATCH', `/assistants/${created.id}`, { config: { knowledge_ids: [] } });
    const deleted = await call(owner, 'DELETE', `/knowledge-bases/${own.id}`);
    // Assert
    expect(assistant.status).toBe(200);
    expect(created.config.knowledge_ids).toEqual([own.id]);
    expect(foreign.status).toBe(422);
    expect((await json(foreign)).detail[0].loc).toEqual(['body', 'config', 'knowledge_ids', 0]);
    expect(refused.status).toBe(409);
    const body = await json(refused);
    expect(body).toMatchObject({ code: 'knowledge_base_in_use' });
    expect(body.detail).toContain(String(created.id));
    expect(await json(deleted)).toEqual({ id: own.id, deleted: true });
    expect((await call(owner, 'GET', `/knowledge-bases/${own.id}`)).status).toBe(404);
  });
});

describe('tenancy', () => {
  it("is 404 for another business's knowledge base and documents on every route, and nothing changes", async () => {
    // Arrange
    const doc = docs.faq!;
    const routes: [string, string, unknown?][] = [
      ['GET', `/knowledge-bases/${kb.id}`],
      ['PATCH', `/knowledge-bases/${kb.id}`, { name: 'Mine now' }],
      ['DELETE', `/knowledge-bases/${kb.id}`],
      ['GET', `/knowledge-bases/${kb.id}/documents`],
      ['POST', `/knowledge-bases/${kb.id}/documents`, { name: 'Planted', text: 'planted text' }],
      ['GET', `/knowledge-bases/${kb.id}/documents/${doc.id}`],
      ['DELETE', `/knowledge-bases/${kb.id}/documents/${doc.id}`],
      ['POST', `/knowledge-bases/${kb.id}/search`, { query: 'opening hours' }],
    ];
    // Act
    const statuses = await Promise.all(routes.map(async ([method, path, body]) => (await call(intruder, method, path, body)).status));
    const listed = await json(await call(intruder, 'GET', '/knowledge-bases'));
    // Assert
    expect(statuses).toEqual(routes.map(() => 404));
    expect(listed.data.map((base: Json) => base.id)).not.toContain(kb.id);
    expect(await json(await call(owner, 'GET', `/knowledge-bases/${kb.id}/documents/${doc.id}`))).toMatchObject({ status: 'ready' });
    expect((await json(await call(owner, 'GET', `/knowledge-bases/${kb.id}/documents`))).data.map((d: Json) => d.name)).not.toContain(
      'Planted',
    );
  });

  it('needs a key on every route', async () => {
    expect((await local.request('nope', 'GET', '/knowledge-bases')).status).toBe(401);
  });
});
