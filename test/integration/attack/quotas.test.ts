import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../../shared/db/table';
import { processingDocument } from '../../../shared/domain/knowledge';
import { QuotaExceededError } from '../../../shared/errors';
import { createApiHarness, type ApiHarness, type TenantClient } from '../../support/api-harness';
import { countItemsRead as itemsRead } from '../../support/items-read';

/**
 * Attack suite, quotas: parallel creates past a business's quota, deletes that give places back,
 * ops raising and lowering quotas, and the in-use check of a delete that must not read every
 * assistant of the business (the attack: 230 assistants of 128 KiB made each such read seconds).
 */

let harness: ApiHarness;

beforeAll(async () => {
  harness = await createApiHarness({ unlimited: true });
});

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

const workflowBody = (name = 'W'): Json => ({ name, start: 'bye', nodes: [{ id: 'bye', type: 'end', text: 'Goodbye.' }] });
const toolBody = (name: string): Json => ({
  name,
  description: 'Looks up the status of an order by its id.',
  server_url: 'https://tools.example.com/lookup',
});

/** The items DynamoDB read while `work` ran (through the harness's client). */
const countItemsRead = (work: () => Promise<void>) => itemsRead(harness.core.db, work);

/** `count` creates one after another, each expected to succeed. */
async function createInOrder(tenant: TenantClient, path: string, body: (i: number) => Json, count: number): Promise<Json[]> {
  const created: Json[] = [];
  for (let i = 0; i < count; i++) {
    const response = await tenant.request('POST', path, body(i));
    expect(response.status).toBe(200);
    created.push(await json(response));
  }
  return created;
}

describe.each([
  { resource: 'workflows', path: '/workflows', body: (i: number) => workflowBody(`W${i}`) },
  { resource: 'assistants', path: '/assistants', body: (i: number) => ({ name: `A${i}`, template: 'blank' }) },
] as const)('attack: 60 parallel creates of $resource at its quota less 3', ({ resource, path, body }) => {
  it(
    'make exactly 3 more; the other 57 are 409 quota_exceeded naming the quota; a delete gives one place back',
    { timeout: 120_000 },
    async () => {
      // Arrange: a quota of 10, 7 held
      const tenant = await harness.newTenant({ numbers: 0 });
      await harness.admin.setQuota(tenant.businessId, { [resource]: 10 });
      const held = await createInOrder(tenant, path, body, 7);
      // Act
      const raced = await Promise.all(Array.from({ length: 60 }, (_, i) => tenant.request('POST', path, body(100 + i))));
      const deleted = await tenant.request('DELETE', `${path}/${held[1]!.id}`);
      const again = await tenant.request('POST', path, body(200));
      const over = await tenant.request('POST', path, body(201));
      // Assert
      const statuses = raced.map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(3);
      expect(statuses.filter((status) => status === 409)).toHaveLength(57);
      expect(await json(raced[statuses.indexOf(409)]!)).toEqual({
        code: 'quota_exceeded',
        detail: `This business has reached its quota of 10 ${resource} (quota: ${resource} = 10).`,
      });
      expect(deleted.status).toBe(200);
      expect(again.status).toBe(200);
      expect(over.status).toBe(409);
      expect((await json(await tenant.request('GET', `${path}?limit=200`))).data).toHaveLength(10);
    },
  );
});

describe('attack: ops change a quota', () => {
  it('raising it lets creates through at once; lowering it below what is held refuses creates and deletes nothing', async () => {
    // Arrange
    const tenant = await harness.newTenant({ numbers: 0 });
    await harness.admin.setQuota(tenant.businessId, { tools: 2 });
    await createInOrder(tenant, '/tools', (i) => toolBody(`t${i}`), 2);
    const atQuota = await tenant.request('POST', '/tools', toolBody('t_over'));
    // Act
    const raised = await harness.admin.setQuota(tenant.businessId, { tools: 3 });
    const afterRaise = await tenant.request('POST', '/tools', toolBody('t_raised'));
    const lowered = await harness.admin.setQuota(tenant.businessId, { tools: 1 });
    const afterLower = await tenant.request('POST', '/tools', toolBody('t_lowered'));
    // Assert
    expect(atQuota.status).toBe(409);
    expect(raised).toMatchObject({ business_id: tenant.businessId, quotas: { tools: 3, workflows: 100 }, held: { tools: 2 } });
    expect(afterRaise.status).toBe(200);
    expect(lowered).toMatchObject({ quotas: { tools: 1 }, held: { tools: 3 } });
    expect(await json(afterLower)).toEqual({
      code: 'quota_exceeded',
      detail: 'This business has reached its quota of 1 tools (quota: tools = 1).',
    });
    expect((await json(await tenant.request('GET', '/tools'))).data).toHaveLength(3);
  });

  it('refuses a quota outside 0 to 1000 and a business that does not exist', async () => {
    // Arrange
    const tenant = await harness.newTenant({ numbers: 0 });
    // Act / Assert
    await expect(harness.admin.setQuota(tenant.businessId, { assistants: 1001 })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(harness.admin.setQuota(tenant.businessId, {})).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(harness.admin.setQuota(999_999_999, { assistants: 5 })).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('attack: the in-use check of a delete reads no assistant', () => {
  it(
    'deleting a tool, a workflow and a knowledge base reads the same few items with 2 assistants or 30',
    { timeout: 120_000 },
    async () => {
      // Arrange: two businesses, one with 2 assistants, one with 30
      const costs: number[][] = [];
      for (const assistants of [2, 30]) {
        const tenant = await harness.newTenant({ numbers: 0 });
        await createInOrder(tenant, '/assistants', (i) => ({ name: `A${i}`, template: 'blank' }), assistants);
        const tool = await json(await tenant.request('POST', '/tools', toolBody('unused')));
        const workflow = await json(await tenant.request('POST', '/workflows', workflowBody()));
        const kb = await json(await tenant.request('POST', '/knowledge-bases', { name: 'Unused' }));
        // Act
        const cost: number[] = [];
        for (const path of [`/tools/${tool.id}`, `/workflows/${workflow.id}`, `/knowledge-bases/${kb.id}`])
          cost.push(await countItemsRead(async () => expect((await tenant.request('DELETE', path)).status).toBe(200)));
        costs.push(cost);
      }
      // Assert: the same cost whatever the number of assistants (the resource, its quota override, its auth)
      expect(costs[1]).toEqual(costs[0]);
      for (const cost of costs[1]!) expect(cost).toBeLessThanOrEqual(4);
    },
  );

  it('a tool named by assistants is refused with their ids (409 tool_in_use), and deleted once they let go of it', async () => {
    // Arrange
    const tenant = await harness.newTenant({ numbers: 0 });
    const tool = await json(await tenant.request('POST', '/tools', toolBody('named')));
    const users = await createInOrder(tenant, '/assistants', (i) => ({ name: `U${i}`, config: { tool_ids: [tool.id] } }), 3);
    await createInOrder(tenant, '/assistants', (i) => ({ name: `Other${i}`, template: 'blank' }), 5);
    // Act
    let refused: Response | undefined;
    const reads = await countItemsRead(async () => {
      refused = await tenant.request('DELETE', `/tools/${tool.id}`);
    });
    await tenant.request('DELETE', `/assistants/${users[0]!.id}`);
    await tenant.request('PATCH', `/assistants/${users[1]!.id}`, { config: { tool_ids: [] } });
    const stillUsed = await tenant.request('DELETE', `/tools/${tool.id}`);
    await tenant.request('PATCH', `/assistants/${users[2]!.id}`, { config: {} });
    const freed = await tenant.request('DELETE', `/tools/${tool.id}`);
    // Assert
    expect(refused!.status).toBe(409);
    expect(await json(refused!)).toEqual({
      code: 'tool_in_use',
      detail: `Tool ${tool.id} is in the tool_ids of assistants ${users.map((u) => u.id).join(', ')}; remove it from their config first.`,
    });
    expect(reads).toBeLessThanOrEqual(4);
    expect((await json(stillUsed)).detail).toContain(`assistant ${users[2]!.id};`);
    expect(freed.status).toBe(200);
  });
});

describe('attack: failed documents', () => {
  it('give their place under the documents quota back when they fail, and once only when deleted', async () => {
    // Arrange: a quota of 1 document a base
    const tenant = await harness.newTenant({ numbers: 0 });
    await harness.admin.setQuota(tenant.businessId, { documents: 1 });
    const kb = await json(await tenant.request('POST', '/knowledge-bases', { name: 'Docs' }));
    const repo = harness.core.knowledge.repo;
    const document = async (id: number) =>
      processingDocument({ id, knowledgeBaseId: kb.id, name: `D${id}`, url: null, now: new Date().toISOString() });
    const failing = await document(await harness.core.ids.nextId());
    await repo.insertDocument(tenant.businessId, failing, 'Text.');
    const refused = await repo.insertDocument(tenant.businessId, await document(await harness.core.ids.nextId()), 'Text.').catch((e) => e);
    // Act
    await repo.finishDocument(tenant.businessId, failing, {
      status: 'failed',
      failure_reason: 'unreadable',
      chunk_count: 0,
      characters: 0,
      updated_at: new Date().toISOString(),
    });
    const afterFailure = await repo.insertDocument(tenant.businessId, await document(await harness.core.ids.nextId()), 'Text.');
    await repo.deleteDocument(tenant.businessId, kb.id, failing.id);
    const afterDelete = await repo
      .insertDocument(tenant.businessId, await document(await harness.core.ids.nextId()), 'Text.')
      .catch((e) => e);
    // Assert
    expect(refused).toBeInstanceOf(QuotaExceededError);
    expect(afterFailure).toBe(true);
    expect(afterDelete).toBeInstanceOf(QuotaExceededError);
    const base = await harness.core.db.doc.send(
      new GetCommand({ TableName: harness.core.db.tableName, Key: keys.knowledgeBase(tenant.businessId, kb.id), ConsistentRead: true }),
    );
    expect(base.Item?.live_documents).toBe(1);
  });
});
