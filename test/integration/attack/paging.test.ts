import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAGE_BYTES } from '../../../shared/domain/paging';
import { keys } from '../../../shared/db/table';
import { initialCallRecord } from '../../../shared/services/call-views';
import { createApiHarness, type ApiHarness, type TenantClient } from '../../support/api-harness';
import { countItemsRead as itemsRead } from '../../support/items-read';

/**
 * Attack suite, list paging: every list walks to its end by cursor (more than the old 1,200-call
 * reach), a cursor cannot be forged, altered or carried to another business, list or filter, an
 * unknown parameter is a 422, a page reads O(limit) items and stays under the byte budget.
 */

let harness: ApiHarness;
let tenant: TenantClient;
/** Calls seeded for `tenant`: ids in creation order, every tenth one ended `resolved`. */
const seeded: number[] = [];
const CALLS = 1_300;

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

/** Writes `CALLS` calls straight into DynamoDB (25 per batch), one second apart, the newest last. */
async function seedCalls(businessId: number, assistantId: number): Promise<void> {
  const items = Array.from({ length: CALLS }, (_, i) => {
    const id = 1_000_000 + i;
    seeded.push(id);
    const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    const base = initialCallRecord({
      id,
      business_id: businessId,
      assistant_id: assistantId,
      direction: i % 2 === 0 ? 'inbound' : 'outbound',
      from_number: '+15550100001',
      to_number: '+15550100002',
      phone_number_id: null,
      variables: {},
      now: at,
    });
    const record =
      i % 10 === 0 ? { ...base, status: 'ended' as const, outcome: 'resolved' as const, ended_reason: 'caller_hung_up' as const } : base;
    return {
      ...keys.call(businessId, id),
      ...keys.callByBusiness(businessId, at, id),
      ...keys.callByAssistant(businessId, assistantId, at, id),
      entity: 'call',
      ...record,
    };
  });
  for (let i = 0; i < items.length; i += 25) {
    const batch = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    await harness.core.db.doc.send(new BatchWriteCommand({ RequestItems: { [harness.core.db.tableName]: batch } }));
  }
}

/** The items DynamoDB read while `work` ran (through the harness's client). */
const countItemsRead = (work: () => Promise<void>) => itemsRead(harness.core.db, work);

/** Every page of `path` by cursor; the ids in order. */
async function walk(client: TenantClient, path: string): Promise<{ ids: number[]; pages: Json[] }> {
  const ids: number[] = [];
  const pages: Json[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const response = await client.request('GET', cursor === null ? path : `${path}${separator}cursor=${encodeURIComponent(cursor)}`);
    expect(response.status).toBe(200);
    const page = await json(response);
    pages.push(page);
    ids.push(...page.data.map((item: Json) => item.id));
    expect(page.next_cursor === null).toBe(!page.has_more);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return { ids, pages };
}

let assistantId: number;

beforeAll(async () => {
  harness = await createApiHarness({ unlimited: true });
  tenant = await harness.newTenant();
  assistantId = (await json(await tenant.request('POST', '/assistants', { name: 'Pager' }))).id;
  await seedCalls(tenant.businessId, assistantId);
}, 120_000);

describe('attack: lists walked by cursor', () => {
  it('reaches every one of 1,300 calls, newest first, 200 a page', async () => {
    // Act
    const { ids, pages } = await walk(tenant, '/calls?limit=200');
    // Assert
    expect(ids).toEqual([...seeded].reverse());
    expect(pages).toHaveLength(7);
    expect(pages.at(-1)).toMatchObject({ has_more: false, next_cursor: null, limit: 200, offset: 0 });
  });

  it('serves a deep offset (past the old bound of 1,000), reading only keys to skip', async () => {
    // Act
    const deep = await json(await tenant.request('GET', '/calls?offset=1250&limit=10'));
    const beyond = await json(await tenant.request('GET', '/calls?offset=5000'));
    // Assert
    expect(deep.data.map((call: Json) => call.id)).toEqual([...seeded].reverse().slice(1250, 1260));
    expect(deep).toMatchObject({ offset: 1250, has_more: true });
    expect(beyond).toMatchObject({ data: [], has_more: false, next_cursor: null });
  });

  it('filters by status, outcome, direction and a creation window, walking the filtered list by cursor', async () => {
    // Arrange: calls 100..199 were created in [00:01:40, 00:03:20) on 1 January 2026
    const window = 'created_after=2026-01-01T00:01:40Z&created_before=2026-01-01T00:03:20Z';
    // Act
    const ended = await walk(tenant, '/calls?status=ended&outcome=resolved&limit=50');
    const inWindow = await walk(tenant, `/calls?${window}&direction=outbound&limit=20`);
    const empty = await json(await tenant.request('GET', '/calls?created_after=2026-01-01T00:01:40Z&created_before=2026-01-01T00:01:40Z'));
    // Assert
    expect(ended.ids).toEqual(seeded.filter((_, i) => i % 10 === 0).reverse());
    expect(inWindow.ids).toEqual(seeded.filter((_, i) => i >= 100 && i < 200 && i % 2 === 1).reverse());
    expect(empty).toMatchObject({ data: [], has_more: false });
  });

  it.each([
    ['created_after after created_before', '/calls?created_after=2026-02-01&created_before=2026-01-01', 'created_after', 'value_error'],
    ['an unknown status', '/calls?status=lost', 'status', 'literal_error'],
    ['an unknown outcome', '/calls?outcome=great', 'outcome', 'literal_error'],
    ['a creation time that is no date', '/calls?created_after=yesterday', 'created_after', 'string_pattern_mismatch'],
    ['offset with a cursor', '/calls?offset=1&cursor=abc.def', 'cursor', 'value_error'],
    ['messages from after to', '/messages?from=2030-01-01&to=2020-01-01', 'from', 'value_error'],
    ['bookings from after to', '/bookings?from=2030-01-01&to=2020-01-01', 'from', 'value_error'],
    ['bookings from after to (timestamps)', '/bookings?from=2026-12-02T10:00:00Z&to=2026-12-02T09:00:00Z', 'from', 'value_error'],
  ])('refuses %s with a 422', async (_case, path, name, type) => {
    // Act
    const response = await tenant.request('GET', path);
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0]).toMatchObject({ loc: ['query', name], type });
  });

  it('walks every other list to its end', async () => {
    // Arrange: five of each, written through the API
    for (let i = 0; i < 5; i++) {
      await tenant.request('POST', '/assistants', { name: `A${i}` });
      await tenant.request('POST', '/knowledge-bases', { name: `KB${i}` });
    }
    // Act
    const assistants = await walk(tenant, '/assistants?limit=2');
    const bases = await walk(tenant, '/knowledge-bases?limit=2');
    const numbers = await walk(tenant, '/phone-numbers?limit=1');
    const tools = await walk(tenant, '/tools?limit=2');
    const workflows = await walk(tenant, '/workflows?limit=2');
    // Assert
    expect(assistants.ids).toHaveLength(6);
    expect(assistants.ids).toEqual([...assistants.ids].sort((a, b) => b - a));
    expect(bases.ids).toHaveLength(5);
    expect(numbers.ids).toHaveLength(1);
    expect(tools.pages).toEqual([{ data: [], has_more: false, next_cursor: null }]);
    expect(workflows.pages).toEqual([{ data: [], has_more: false, next_cursor: null }]);
  });
});

describe('attack: cursors that are not this list page', () => {
  it.each([
    ['forged', () => `${Buffer.from(JSON.stringify({ pk: 'x', sk: 'y' })).toString('base64url')}.${'A'.repeat(43)}`],
    ['garbage', () => 'not-a-cursor'],
  ])('refuses a %s cursor with a 422 at cursor', async (_case, make) => {
    // Act
    const response = await tenant.request('GET', `/calls?cursor=${encodeURIComponent(make())}`);
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0].loc).toEqual(['query', 'cursor']);
  });

  it('refuses a tampered cursor, another business’s, another list’s and another filter’s', async () => {
    // Arrange: a real cursor of this business's calls
    const cursor: string = (await json(await tenant.request('GET', '/calls?limit=1'))).next_cursor;
    const [payload, mac] = cursor.split('.') as [string, string];
    const key = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, string>;
    const moved = Buffer.from(JSON.stringify({ ...key, gsi1sk: key.gsi1sk!.replace('2026', '2025') })).toString('base64url');
    const other = await harness.newTenant();
    // Act
    const statuses = await Promise.all([
      tenant.request('GET', `/calls?cursor=${moved}.${mac}`),
      other.request('GET', `/calls?cursor=${cursor}`),
      tenant.request('GET', `/messages?cursor=${cursor}`),
      tenant.request('GET', `/assistants?cursor=${cursor}`),
      tenant.request('GET', `/calls?direction=inbound&cursor=${cursor}`),
    ]);
    const bodies = await Promise.all(statuses.map(json));
    // Assert
    expect(statuses.map((response) => response.status)).toEqual([422, 422, 422, 422, 422]);
    for (const body of bodies) expect(body.detail[0].loc).toEqual(['query', 'cursor']);
  });
});

describe('attack: unknown query parameters', () => {
  it.each([
    ['/calls?page=2'],
    ['/assistants?sort=asc'],
    ['/messages?status=new'],
    ['/bookings?q=x'],
    ['/tools?offset=5'],
    ['/workflows?x=1'],
    ['/knowledge-bases?y=1'],
    ['/phone-numbers?z=1'],
    ['/usage?verbose=true'],
    ['/business?fields=name'],
  ])('%s is a 422 extra_forbidden', async (path) => {
    // Act
    const response = await tenant.request('GET', path);
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0]).toMatchObject({ type: 'extra_forbidden', loc: ['query', path.split('?')[1]!.split('=')[0]] });
  });

  it('is a 422 on an item read and a create too, while an unknown path stays a 404', async () => {
    // Act
    const read = await tenant.request('GET', `/assistants/${assistantId}?expand=config`);
    const create = await tenant.request('POST', '/assistants?dry_run=true', { name: 'x' });
    const missing = await tenant.request('GET', '/nowhere?x=1');
    // Assert
    expect([read.status, create.status, missing.status]).toEqual([422, 422, 404]);
  });
});

describe('attack: what a page reads and returns', () => {
  it('GET /assistants?limit=1 reads O(1) items however many large assistants the business has', async () => {
    // Arrange: 40 assistants of ~100 KB each (a long system prompt)
    const big = await harness.newTenant();
    const prompt = 'Answer politely. '.repeat(1_700);
    for (let i = 0; i < 40; i++) {
      const response = await big.request('POST', '/assistants', { name: `Big ${i}`, template: 'blank' });
      const created = await json(response);
      const patched = await big.request('PATCH', `/assistants/${created.id}`, { config: { ...created.config, system_prompt: prompt } });
      expect(patched.status).toBe(200);
    }
    // Act
    let page: Json = {};
    const read = await countItemsRead(async () => {
      page = await json(await big.request('GET', '/assistants?limit=1'));
    });
    // Assert: the key lookup, the business and a page of limit + 1
    expect(page.data).toHaveLength(1);
    expect(page.has_more).toBe(true);
    expect(read).toBeLessThanOrEqual(4);
  });

  it('keeps every page under the byte budget and continues right after the last item returned', async () => {
    // Arrange: 45 assistants whose prompts are 29,000 quotes: ~116 KB each once escaped twice, ~5.2 MB in all
    const big = await harness.newTenant();
    const prompt = '"'.repeat(29_000);
    for (let i = 0; i < 45; i++) {
      const created = await json(await big.request('POST', '/assistants', { name: `Heavy ${i}`, template: 'blank' }));
      const patched = await big.request('PATCH', `/assistants/${created.id}`, { config: { ...created.config, system_prompt: prompt } });
      expect(patched.status).toBe(200);
    }
    // Act
    const { ids, pages } = await walk(big, '/assistants?limit=200');
    // Assert
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect(Buffer.byteLength(JSON.stringify(JSON.stringify(page.data)))).toBeLessThanOrEqual(MAX_PAGE_BYTES + 2);
    expect(ids).toHaveLength(45);
    expect(new Set(ids).size).toBe(45);
  });
});
