import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { createDb } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';
import { keys } from '../../../shared/db/table';
import { ToolLimitError, ToolRepository } from '../../../shared/db/tool-repository';
import type { Tool } from '../../../shared/domain/tool';

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
    await repo.insertTool(businessId, tool, MAX);
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

  it('lets parallel creates reach the cap exactly, counting the older tools', async () => {
    const businessId = await ids.nextId();
    await legacyTools(businessId, 97);
    const results = await Promise.allSettled(Array.from({ length: 6 }, async () => repo.insertTool(businessId, await newTool(), MAX)));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    for (const result of results) if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(ToolLimitError);
    expect(await toolCount(businessId)).toBe(MAX);
    expect(await repo.listTools(businessId)).toHaveLength(MAX);
  });

  it('counts down once when one tool is deleted twice at once', async () => {
    const businessId = await ids.nextId();
    const tools = await legacyTools(businessId, 2);
    await Promise.all([repo.deleteTool(businessId, tools[1]!), repo.deleteTool(businessId, tools[1]!)]);
    expect(await toolCount(businessId)).toBe(1);
  });
});
