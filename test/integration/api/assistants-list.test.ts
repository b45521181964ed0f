import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAGE_BYTES } from '../../../shared/domain/paging';
import { createApiHarness, type ApiHarness, type TenantClient } from '../../support/api-harness';

let harness: ApiHarness;

beforeAll(async () => {
  harness = await createApiHarness();
});

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

/** Lambda's limit on a synchronous response (6 MB), which API Gateway answers with a 5xx when passed. */
const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;

/** Bytes of the body once carried as a JSON string in the Lambda proxy response, as Lambda counts them. */
const lambdaBytes = (body: string) => Buffer.byteLength(JSON.stringify(body));

async function createAssistants(tenant: TenantClient, bodies: Json[]): Promise<number[]> {
  const created = await Promise.all(bodies.map(async (body) => tenant.request('POST', '/assistants', body)));
  expect(created.map((response) => response.status)).toEqual(bodies.map(() => 200));
  return Promise.all(created.map(async (response) => (await json(response)).id as number));
}

/** Every page from offset 0, each next page at `offset + data.length`, with the raw bodies. */
async function walkPages(tenant: TenantClient, limit: number): Promise<{ pages: Json[]; raws: string[] }> {
  const pages: Json[] = [];
  const raws: string[] = [];
  for (let offset = 0; ;) {
    const response = await tenant.request('GET', `/assistants?limit=${limit}&offset=${offset}`);
    expect(response.status).toBe(200);
    const raw = await response.text();
    const page = JSON.parse(raw) as Json;
    pages.push(page);
    raws.push(raw);
    if (!page.has_more) return { pages, raws };
    offset += page.data.length;
  }
}

const newestFirst = (a: Json, b: Json) => b.created_at.localeCompare(a.created_at) || b.id - a.id;

describe('GET /assistants pages', () => {
  it('newest first with limit, offset and has_more; no limit is the default of 200', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    for (const name of ['a', 'b', 'c', 'd', 'e']) await createAssistants(tenant, [{ name }]);
    // Act
    const all = await json(await tenant.request('GET', '/assistants'));
    const first = await json(await tenant.request('GET', '/assistants?limit=2'));
    const last = await json(await tenant.request('GET', '/assistants?limit=2&offset=4'));
    const beyond = await json(await tenant.request('GET', '/assistants?offset=9'));
    // Assert
    expect(all).toMatchObject({ limit: 200, offset: 0, has_more: false });
    expect(all.data.map((a: Json) => a.name)).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(first).toMatchObject({ limit: 2, offset: 0, has_more: true });
    expect(first.data.map((a: Json) => a.name)).toEqual(['e', 'd']);
    expect(last).toMatchObject({ limit: 2, offset: 4, has_more: false });
    expect(last.data.map((a: Json) => a.name)).toEqual(['a']);
    expect(beyond).toEqual({ data: [], limit: 200, offset: 9, has_more: false, next_cursor: null });
    expect(first.data[0]).toEqual(all.data[0]);
  });

  it('stops a page before the assistant that would pass the byte budget, so no page can pass Lambda’s 6 MB', async () => {
    // Arrange: the audit's case, 55 assistants whose configs together pass 6 MB in a Lambda response.
    // A prompt of quotes doubles once escaped in the body and doubles again in Lambda's JSON
    // envelope (60 KB of body, 120 KB as Lambda counts it, each), so only the envelope's bytes tell.
    const tenant = await harness.newTenant();
    const config = { system_prompt: '"'.repeat(30_000) };
    const ids = await createAssistants(
      tenant,
      Array.from({ length: 55 }, (_, index) => ({ name: `big ${index}`, config })),
    );
    // Act
    const { pages, raws } = await walkPages(tenant, 200);
    // Assert
    const seen = pages.flatMap((page) => page.data);
    expect(seen.map((a) => a.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(seen.map((a) => a.id)).toEqual([...seen].sort(newestFirst).map((a) => a.id));
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0]).toMatchObject({ limit: 200, offset: 0, has_more: true });
    expect(pages[0]!.data.length).toBeLessThan(55);
    for (const raw of raws) {
      expect(lambdaBytes(raw)).toBeLessThanOrEqual(MAX_PAGE_BYTES + 1024);
      expect(lambdaBytes(raw)).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
    }
    // The first page is as full as the budget allows: one more assistant would have passed it.
    const firstPageAndNext = JSON.stringify({ ...pages[0], data: [...pages[0]!.data, pages[1]!.data[0]] });
    expect(lambdaBytes(firstPageAndNext)).toBeGreaterThan(MAX_PAGE_BYTES);
    // All of them in one body would have been over Lambda's limit (the finding).
    expect(lambdaBytes(JSON.stringify({ data: seen }))).toBeGreaterThan(LAMBDA_RESPONSE_LIMIT);
  }, 120_000);

  it("lists only the caller's own assistants, and pages over them alone", async () => {
    // Arrange
    const mine = await harness.newTenant();
    const theirs = await harness.newTenant();
    const myIds = await createAssistants(mine, [{ name: 'mine 1' }, { name: 'mine 2' }]);
    await createAssistants(theirs, [{ name: 'theirs 1' }, { name: 'theirs 2' }, { name: 'theirs 3' }]);
    // Act
    const page = await json(await mine.request('GET', '/assistants?limit=2'));
    const next = await json(await mine.request('GET', '/assistants?limit=2&offset=2'));
    // Assert
    expect(page.data.map((a: Json) => a.id).sort()).toEqual([...myIds].sort());
    expect(page.has_more).toBe(false);
    expect(next).toEqual({ data: [], limit: 2, offset: 2, has_more: false, next_cursor: null });
  });

  it.each([
    ['limit=0', 'limit', 'greater_than_equal'],
    ['limit=201', 'limit', 'less_than_equal'],
    ['limit=abc', 'limit', 'int_parsing'],
    ['limit=2.5', 'limit', 'int_parsing'],
    ['offset=-1', 'offset', 'greater_than_equal'],
    ['offset=1001', 'offset', 'less_than_equal'],
    ['offset=x', 'offset', 'int_parsing'],
  ])('GET /assistants?%s is a 422 on query.%s', async (query, field, type) => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const response = await tenant.request('GET', `/assistants?${query}`);
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail).toEqual([expect.objectContaining({ loc: ['query', field], type })]);
  });

  it('reports a bad limit and a bad offset together, in parameter order', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const response = await tenant.request('GET', '/assistants?offset=-5&limit=0');
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail.map((item: Json) => item.loc)).toEqual([
      ['query', 'limit'],
      ['query', 'offset'],
    ]);
  });
});
