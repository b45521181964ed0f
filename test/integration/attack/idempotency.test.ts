import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiSandboxServer } from '../../../media-service/src/sandbox/openai-server';
import { createApiHarness, type ApiHarness, type TenantClient } from '../../support/api-harness';
import { knowledgeApi } from '../../support/knowledge-harness';

/**
 * Attack suite, retried and raced creates: a client (or a proxy) that repeats a create under one
 * Idempotency-Key, sequentially or many at once, must get one resource and one response on every
 * create route; another body under a used key is refused, and keys never cross routes.
 */

type Json = Record<string, any>;

let openai: OpenAiSandboxServer;
let harness: ApiHarness;
/** The API with a knowledge queue that only records jobs: documents are created, never ingested. */
let api: ReturnType<typeof knowledgeApi>;

beforeAll(async () => {
  openai = await OpenAiSandboxServer.start();
  harness = await createApiHarness({ unlimited: true });
  api = knowledgeApi(harness, openai, { queue: { enqueue: async () => undefined } });
});

afterAll(async () => {
  await openai?.close();
});

/** A create route: where it lives under a tenant, and two different valid bodies for it. */
interface CreateRoute {
  route: string;
  /** The collection to POST to and list, given a fresh tenant (made ready here: a base for documents). */
  prepare(tenant: TenantClient): Promise<{ path: string; bodies: [Json, Json] }>;
}

const workflow = (name: string) => ({
  name,
  start: 'hello',
  nodes: [
    { id: 'hello', type: 'say', text: 'Hello.', next: 'bye' },
    { id: 'bye', type: 'end', text: 'Goodbye.' },
  ],
});

const tool = (name: string) => ({ name, description: 'Looks up an order.', server_url: 'https://tools.example.com/lookup' });

const ROUTES: CreateRoute[] = [
  { route: 'POST /assistants', prepare: async () => ({ path: '/assistants', bodies: [{ name: 'Front desk' }, { name: 'Back office' }] }) },
  { route: 'POST /tools', prepare: async () => ({ path: '/tools', bodies: [tool('lookup_order'), tool('cancel_order')] }) },
  { route: 'POST /workflows', prepare: async () => ({ path: '/workflows', bodies: [workflow('Greet'), workflow('Farewell')] }) },
  { route: 'POST /knowledge-bases', prepare: async () => ({ path: '/knowledge-bases', bodies: [{ name: 'FAQ' }, { name: 'Prices' }] }) },
  {
    route: 'POST /knowledge-bases/{id}/documents',
    prepare: async (tenant) => {
      const base = (await (await send(tenant, 'POST', '/knowledge-bases', { name: 'Docs' })).json()) as Json;
      const bodies: [Json, Json] = [
        { name: 'Hours', text: 'Open 9 to 5.' },
        { name: 'Hours', text: 'Open 8 to 6.' },
      ];
      return { path: `/knowledge-bases/${base.id}/documents`, bodies };
    },
  },
  {
    route: 'POST /calls',
    prepare: async (tenant) => {
      const assistant = (await (await send(tenant, 'POST', '/assistants', {})).json()) as Json;
      return {
        path: '/calls',
        bodies: [
          { assistant_id: assistant.id, to: '+14155550101' },
          { assistant_id: assistant.id, to: '+14155550102' },
        ],
      };
    },
  },
];

function send(tenant: TenantClient, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return api.request(tenant.apiKey, method, path, body, headers);
}

/** What a client can compare of two responses: status, ETag and body. */
async function seen(response: Response): Promise<{ status: number; etag: string | null; body: Json }> {
  return { status: response.status, etag: response.headers.get('etag'), body: (await response.json()) as Json };
}

async function count(tenant: TenantClient, path: string): Promise<number> {
  return ((await (await send(tenant, 'GET', path)).json()) as Json).data.length;
}

describe.each(ROUTES)('Idempotency-Key on $route', ({ prepare }) => {
  it('gives one resource and the same response when the same request is sent twice', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    const { path, bodies } = await prepare(tenant);
    const headers = { 'idempotency-key': 'retry-1' };
    // Act
    const first = await seen(await send(tenant, 'POST', path, bodies[0], headers));
    const second = await seen(await send(tenant, 'POST', path, bodies[0], headers));
    // Assert
    expect(first.status).toBe(200);
    expect(second).toEqual(first);
    expect(await count(tenant, path)).toBe(1);
  });

  it('gives one resource and identical responses to 10 copies sent at once', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    const { path, bodies } = await prepare(tenant);
    // Act
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => send(tenant, 'POST', path, bodies[0], { 'idempotency-key': 'race-1' }).then(seen)),
    );
    // Assert
    expect(responses[0]!.status).toBe(200);
    for (const response of responses) expect(response).toEqual(responses[0]);
    expect(await count(tenant, path)).toBe(1);
  });

  it('refuses another body under a used key with 409 idempotency_conflict, creating nothing', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    const { path, bodies } = await prepare(tenant);
    const headers = { 'idempotency-key': 'reused' };
    await send(tenant, 'POST', path, bodies[0], headers);
    // Act
    const response = await seen(await send(tenant, 'POST', path, bodies[1], headers));
    // Assert
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ code: 'idempotency_conflict', detail: expect.stringContaining('different request body') });
    expect(await count(tenant, path)).toBe(1);
  });
});

describe('Idempotency-Key scope', () => {
  it('keeps one key on /assistants and /tools independent', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    const headers = { 'idempotency-key': 'same-everywhere' };
    // Act
    const assistant = await send(tenant, 'POST', '/assistants', { name: 'A' }, headers);
    const created = await send(tenant, 'POST', '/tools', tool('lookup_order'), headers);
    // Assert
    expect(assistant.status).toBe(200);
    expect(created.status).toBe(200);
    expect(await count(tenant, '/tools')).toBe(1);
  });

  it('keeps one key on the documents of two bases apart (path parameters are part of the request)', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    const [a, b] = await Promise.all(
      ['A', 'B'].map(async (name) => ((await (await send(tenant, 'POST', '/knowledge-bases', { name })).json()) as Json).id),
    );
    const headers = { 'idempotency-key': 'doc-1' };
    const body = { name: 'Hours', text: 'Open 9 to 5.' };
    await send(tenant, 'POST', `/knowledge-bases/${a}/documents`, body, headers);
    // Act
    const other = await send(tenant, 'POST', `/knowledge-bases/${b}/documents`, body, headers);
    // Assert
    expect(other.status).toBe(409);
    expect(await count(tenant, `/knowledge-bases/${b}/documents`)).toBe(0);
  });

  it('does not remember a refused create, so the fixed request runs under the same key', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    const headers = { 'idempotency-key': 'fix-and-retry' };
    const refused = await send(tenant, 'POST', '/assistants', { name: 'x'.repeat(121) }, headers);
    // Act
    const fixed = await send(tenant, 'POST', '/assistants', { name: 'x'.repeat(120) }, headers);
    // Assert
    expect(refused.status).toBe(422);
    expect(fixed.status).toBe(200);
  });

  it('refuses an empty or over-long key with a 422 at the header on every create', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const empty = await send(tenant, 'POST', '/tools', tool('t1'), { 'idempotency-key': '' });
    const long = await send(tenant, 'POST', '/workflows', workflow('W'), { 'idempotency-key': 'k'.repeat(256) });
    // Assert
    expect(empty.status).toBe(422);
    expect(((await empty.json()) as Json).detail[0]).toMatchObject({ loc: ['header', 'idempotency-key'], type: 'string_too_short' });
    expect(long.status).toBe(422);
    expect(((await long.json()) as Json).detail[0]).toMatchObject({ loc: ['header', 'idempotency-key'], type: 'string_too_long' });
  });
});
