import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { createDb } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';
import { keys } from '../../../shared/db/table';
import { ToolRepository } from '../../../shared/db/tool-repository';
import type { Tool } from '../../../shared/domain/tool';
import { NotFoundError, QuotaExceededError } from '../../../shared/errors';

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
const repo = new ToolRepository(db);
const ids = new IdAllocator(db);
const now = new Date().toISOString();
const MAX = 100;

const newTool = async (): Promise<Tool> => {
  const id = await ids.nextId();
  return {
    id,
    name: `tool_${id}`,
    description: 'Looks something up.',
    parameters: { type: 'object', properties: {} },
    server_url: 'https://tools.example.com/hook',
    timeout_ms: 5000,
    filler: null,
    created_at: now,
    updated_at: now,
  };
};

const toolCount = async (businessId: number) =>
  (await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keys.toolCount(businessId), ConsistentRead: true }))).Item?.tools;

/** Tools written before the count existed: inserted, then the count item removed. */
async function legacyTools(businessId: number, count: number): Promise<Tool[]> {
  const tools: Tool[] = [];
  for (let i = 0; i < count; i++) {
    const tool = await newTool();
    await repo.insertTool(businessId, tool);
    tools.push(tool);
  }
  await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: keys.toolCount(businessId) }));
  return tools;
}

describe('the tool count of a business whose tools predate it', () => {
  it('is seeded from its tools by a delete that comes first, not set to zero', async () => {
    const businessId = await ids.nextId();
    const tools = await legacyTools(businessId, 3);
    await repo.deleteTool(businessId, tools[0]!);
    expect(await toolCount(businessId)).toBe(2);
  });

  it('lets parallel creates reach the cap exactly, counting the older tools', { timeout: 120_000 }, async () => {
    const businessId = await ids.nextId();
    await legacyTools(businessId, 97);
    const results = await Promise.allSettled(Array.from({ length: 6 }, async () => repo.insertTool(businessId, await newTool())));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    for (const result of results) if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(QuotaExceededError);
    expect(await toolCount(businessId)).toBe(MAX);
    expect(await repo.listTools(businessId)).toHaveLength(MAX);
  });

  it('counts down once when one tool is deleted twice at once', async () => {
    const businessId = await ids.nextId();
    const tools = await legacyTools(businessId, 2);
    const results = await Promise.allSettled([repo.deleteTool(businessId, tools[1]!), repo.deleteTool(businessId, tools[1]!)]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results) if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(NotFoundError);
    expect(await toolCount(businessId)).toBe(1);
  });
});

const nameClaim = async (businessId: number, name: string) =>
  (await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keys.toolName(businessId, name), ConsistentRead: true }))).Item;

describe('deleting a tool renamed since it was read', () => {
  it('releases the new name, not only the one read, and counts down once', async () => {
    const businessId = await ids.nextId();
    const read = await newTool();
    await repo.insertTool(businessId, read);
    const renamed = { ...read, name: `${read.name}_renamed`, updated_at: new Date(Date.parse(now) + 1000).toISOString() };
    await repo.replaceTool(businessId, read, renamed);
    await repo.deleteTool(businessId, read);
    expect(await repo.findTool(businessId, read.id)).toBeUndefined();
    expect(await nameClaim(businessId, renamed.name)).toBeUndefined();
    expect(await nameClaim(businessId, read.name)).toBeUndefined();
    expect(await toolCount(businessId)).toBe(0);
    // The new name is free again.
    await repo.insertTool(businessId, { ...(await newTool()), name: renamed.name });
  });

  it('leaves no claim behind when renames and deletes race', async () => {
    const businessId = await ids.nextId();
    const tools = await Promise.all(Array.from({ length: 8 }, () => newTool()));
    for (const tool of tools) await repo.insertTool(businessId, tool);
    const later = new Date(Date.parse(now) + 1000).toISOString();
    await Promise.allSettled(
      tools.flatMap((tool) => [
        repo.replaceTool(businessId, tool, { ...tool, name: `${tool.name}_b`, updated_at: later }),
        repo.deleteTool(businessId, tool),
      ]),
    );
    for (const tool of tools) {
      const left = await repo.findTool(businessId, tool.id);
      expect(await nameClaim(businessId, `${tool.name}_b`)).toEqual(left?.name === `${tool.name}_b` ? expect.anything() : undefined);
      expect(await nameClaim(businessId, tool.name)).toEqual(left?.name === tool.name ? expect.anything() : undefined);
    }
    expect(await toolCount(businessId)).toBe((await repo.listTools(businessId)).length);
  });
});
