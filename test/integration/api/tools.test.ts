import { beforeAll, describe, expect, it } from 'vitest';
import { TOOL_TIMEOUT_MS } from '../../../shared/domain/tool';
import { createApiHarness, type ApiHarness, type TenantClient } from '../../support/api-harness';
import { strictResponseErrors } from '../../support/openapi-strict';

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

const ORDER_SCHEMA = {
  type: 'object',
  properties: { order_id: { type: 'string', pattern: '^[A-Z]{2}[0-9]{4}$' } },
  required: ['order_id'],
  additionalProperties: false,
};

/** A valid POST /tools body; `name` varies so tests never collide within a business. */
function toolBody(name: string, change: Json = {}): Json {
  return {
    name,
    description: 'Looks up the status of an order by its id.',
    parameters: ORDER_SCHEMA,
    server_url: 'https://tools.example.com/lookup',
    ...change,
  };
}

let harness: ApiHarness;
let owner: TenantClient;
let intruder: TenantClient;

beforeAll(async () => {
  harness = await createApiHarness();
  [owner, intruder] = await Promise.all([harness.newTenant({ numbers: 0 }), harness.newTenant({ numbers: 0 })]);
});

describe('POST /tools', () => {
  it('creates a tool with its defaults, every field documented', async () => {
    // Act
    const response = await owner.request('POST', '/tools', toolBody('lookup_order'));
    const tool = await json(response);
    // Assert
    expect(response.status).toBe(200);
    expect(tool).toMatchObject({
      name: 'lookup_order',
      parameters: ORDER_SCHEMA,
      timeout_ms: TOOL_TIMEOUT_MS.default,
      filler: null,
    });
    expect(tool.updated_at).toBe(tool.created_at);
    expect(strictResponseErrors('Tool', tool)).toEqual([]);
    expect(await json(await owner.request('GET', `/tools/${tool.id}`))).toEqual(tool);
  });

  describe.each<[string, Json, (string | number)[], string]>([
    ['a reserved name', { name: 'take_message' }, ['body', 'name'], 'value_error'],
    ["the knowledge search's name", { name: 'search_knowledge' }, ['body', 'name'], 'value_error'],
    ["a workflow's next_step", { name: 'next_step' }, ['body', 'name'], 'value_error'],
    ['a reserved name in capitals', { name: 'END_CALL' }, ['body', 'name'], 'value_error'],
    ['a name with a space', { name: 'look up' }, ['body', 'name'], 'string_pattern_mismatch'],
    ['a name of 65 characters', { name: 'a'.repeat(65) }, ['body', 'name'], 'string_too_long'],
    ['no description', { description: undefined }, ['body', 'description'], 'missing'],
    ['a description of 1001 characters', { description: 'd'.repeat(1001) }, ['body', 'description'], 'string_too_long'],
    ['a timeout under 500 ms', { timeout_ms: 499 }, ['body', 'timeout_ms'], 'greater_than_equal'],
    ['a timeout over 30 s', { timeout_ms: 30_001 }, ['body', 'timeout_ms'], 'less_than_equal'],
    ['a filler of 201 characters', { filler: 'f'.repeat(201) }, ['body', 'filler'], 'string_too_long'],
    ['a URL of 501 characters', { server_url: `https://x.example.com/${'p'.repeat(480)}` }, ['body', 'server_url'], 'string_too_long'],
    ['parameters that are not an object schema', { parameters: { type: 'array' } }, ['body', 'parameters', 'type'], 'literal_error'],
    ['an unknown field', { secret: 'x' }, ['body', 'secret'], 'extra_forbidden'],
    // The JSON Schema itself, checked by a real validator:
    ['an unknown type', { parameters: { type: 'object', properties: { n: { type: 'integr' } } } }, ['body', 'parameters'], 'value_error'],
    // Valid JSON Schemas DynamoDB cannot store as they are (were a 500):
    [
      'an integer bound past 2^53',
      { parameters: { type: 'object', properties: { n: { type: 'integer', maximum: 1e17 } } } },
      ['body', 'parameters'],
      'value_error',
    ],
    [
      'a multipleOf nearer 0 than 1e-130',
      { parameters: { type: 'object', properties: { n: { multipleOf: 1e-308 } } } },
      ['body', 'parameters'],
      'value_error',
    ],
    [
      'an empty property name',
      { parameters: { type: 'object', properties: { '': { type: 'string' } } } },
      ['body', 'parameters'],
      'value_error',
    ],
    ['a misspelt keyword', { parameters: { type: 'object', requried: ['n'] } }, ['body', 'parameters'], 'value_error'],
    [
      'a remote $ref',
      { parameters: { type: 'object', properties: { n: { $ref: 'https://x.test/s' } } } },
      ['body', 'parameters'],
      'value_error',
    ],
    [
      'a look-ahead pattern (not RE2)',
      { parameters: { type: 'object', properties: { n: { type: 'string', pattern: '(?=a)b' } } } },
      ['body', 'parameters'],
      'value_error',
    ],
    ['references that double at each step (exponential to check)', { parameters: doublingRefs(30) }, ['body', 'parameters'], 'value_error'],
    [
      'a $ref back to the root',
      { parameters: { type: 'object', properties: { n: { $ref: '#' } } } },
      ['body', 'parameters'],
      'value_error',
    ],
    [
      'a property named constructor',
      { parameters: { type: 'object', properties: { constructor: { type: 'string' } } } },
      ['body', 'parameters'],
      'value_error',
    ],
    [
      'a property named __proto__',
      { parameters: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') },
      ['body', 'parameters'],
      'value_error',
    ],
    ['an $id', { parameters: { type: 'object', $id: 'https://x.test/s' } }, ['body', 'parameters'], 'value_error'],
    ['a schema nested 20 levels', { parameters: nested(20) }, ['body', 'parameters'], 'value_error'],
    [
      'a schema of 17,000 characters',
      { parameters: { type: 'object', description: 'd'.repeat(17_000) } },
      ['body', 'parameters'],
      'value_error',
    ],
    // The SSRF guard (this harness has production's URL policy):
    ['a loopback server_url', { server_url: 'https://127.0.0.1/hook' }, ['body', 'server_url'], 'value_error'],
    ['a private server_url', { server_url: 'https://10.0.0.7/hook' }, ['body', 'server_url'], 'value_error'],
    ['the metadata address', { server_url: 'https://169.254.169.254/latest' }, ['body', 'server_url'], 'value_error'],
    ['a plain http server_url', { server_url: 'http://tools.example.com/x' }, ['body', 'server_url'], 'value_error'],
  ])('with %s', (_name, change, loc, type) => {
    it(`is 422 ${type} at ${loc.join('.')}`, async () => {
      // Act
      const response = await owner.request('POST', '/tools', toolBody(`t_${type}_${loc.length}`, change));
      const body = await json(response);
      // Assert
      expect(response.status).toBe(422);
      expect(body.detail[0]).toMatchObject({ loc, type });
      expect(strictResponseErrors('HTTPValidationError', body)).toEqual([]);
    });
  });

  it('lists every invalid field in one 422: a bad server_url beside an invalid name, and beside a reserved one', async () => {
    // Act
    const invalid = await json(await owner.request('POST', '/tools', toolBody('bad name!', { server_url: 'ftp://x', timeout_ms: 1 })));
    const reserved = await json(await owner.request('POST', '/tools', toolBody('end_call', { server_url: 'ftp://x' })));
    // Assert
    expect(invalid.detail.map((item: Json) => item.loc.join('.')).sort()).toEqual(['body.name', 'body.server_url', 'body.timeout_ms']);
    expect(reserved.detail.map((item: Json) => item.loc.join('.')).sort()).toEqual(['body.name', 'body.server_url']);
    expect(strictResponseErrors('HTTPValidationError', invalid)).toEqual([]);
  });

  it('refuses a second tool of the same name in a business, but not in another', async () => {
    // Arrange
    await owner.request('POST', '/tools', toolBody('check_stock'));
    // Act
    const again = await owner.request('POST', '/tools', toolBody('check_stock'));
    const elsewhere = await intruder.request('POST', '/tools', toolBody('check_stock'));
    // Assert
    expect(again.status).toBe(422);
    expect((await json(again)).detail[0]).toMatchObject({ loc: ['body', 'name'], type: 'value_error' });
    expect(elsewhere.status).toBe(200);
  });

  it('keeps one tool when two creates race for a name', async () => {
    // Act
    const results = await Promise.all([1, 2, 3].map(() => owner.request('POST', '/tools', toolBody('raced_name'))));
    // Assert
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422]);
    const list = await json(await owner.request('GET', '/tools'));
    expect(list.data.filter((t: Json) => t.name === 'raced_name')).toHaveLength(1);
  });

  it('answers 422 for malformed JSON and 413 for a body over 256 KiB, never 500', async () => {
    // Act
    const malformed = await owner.request('POST', '/tools', '{"name": ');
    const huge = await owner.request('POST', '/tools', toolBody('huge', { description: 'd'.repeat(300_000) }));
    // Assert
    expect(malformed.status).toBe(422);
    expect((await json(malformed)).detail[0].type).toBe('json_invalid');
    expect(huge.status).toBe(413);
  });
});

describe('the cap of 100 tools a business', () => {
  it('holds under concurrent creates, and a tool deleted (twice at once) frees one place', async () => {
    // Arrange
    const tenant = await harness.newTenant({ numbers: 0 });
    // Act: 110 creates at once
    const created = await Promise.all(Array.from({ length: 110 }, (_, i) => tenant.request('POST', '/tools', toolBody(`cap_${i}`))));
    const statuses = created.map((response) => response.status);
    const first = await json(created[statuses.indexOf(200)]!);
    const deletes = await Promise.all([1, 2].map(() => tenant.request('DELETE', `/tools/${first.id}`)));
    const again = await tenant.request('POST', '/tools', toolBody('cap_again'));
    const over = await tenant.request('POST', '/tools', toolBody('cap_over'));
    // Assert
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses.filter((status) => status === 409)).toHaveLength(10);
    // Both deletes answer as a delete (the loser finds it gone), and the tool is uncounted once: one place frees, not two
    expect(deletes.every((response) => [200, 404].includes(response.status))).toBe(true);
    expect(again.status).toBe(200);
    expect(over.status).toBe(409);
    expect(await json(over)).toEqual({
      code: 'quota_exceeded',
      detail: 'This business has reached its quota of 100 tools (quota: tools = 100).',
    });
    expect((await json(await tenant.request('GET', '/tools'))).data).toHaveLength(100);
  });
});

describe('GET /tools', () => {
  it('lists newest first, only the business its own', async () => {
    // Arrange
    const tenant = await harness.newTenant({ numbers: 0 });
    const first = await json(await tenant.request('POST', '/tools', toolBody('first_tool')));
    const second = await json(await tenant.request('POST', '/tools', toolBody('second_tool')));
    // Act
    const list = await json(await tenant.request('GET', '/tools'));
    // Assert
    expect(list.data.map((t: Json) => t.id)).toEqual([second.id, first.id]);
    expect(strictResponseErrors('ToolList', list)).toEqual([]);
  });
});

describe('PATCH /tools/{id}', () => {
  it('replaces only the fields given, and bumps updated_at', async () => {
    // Arrange
    const tool = await json(await owner.request('POST', '/tools', toolBody('patch_me')));
    // Act
    const response = await owner.request('PATCH', `/tools/${tool.id}`, { timeout_ms: 2500, filler: 'Let me check that order.' });
    const patched = await json(response);
    // Assert
    expect(response.status).toBe(200);
    expect(patched).toEqual({ ...tool, timeout_ms: 2500, filler: 'Let me check that order.', updated_at: patched.updated_at });
    expect(patched.updated_at > tool.updated_at).toBe(true);
    expect(await json(await owner.request('GET', `/tools/${tool.id}`))).toEqual(patched);
  });

  it('renames, freeing the old name and refusing a taken one', async () => {
    // Arrange
    const a = await json(await owner.request('POST', '/tools', toolBody('rename_a')));
    await owner.request('POST', '/tools', toolBody('rename_b'));
    // Act
    const taken = await owner.request('PATCH', `/tools/${a.id}`, { name: 'rename_b' });
    const renamed = await owner.request('PATCH', `/tools/${a.id}`, { name: 'rename_c' });
    const reused = await owner.request('POST', '/tools', toolBody('rename_a'));
    // Assert
    expect(taken.status).toBe(422);
    expect(renamed.status).toBe(200);
    expect(reused.status).toBe(200);
  });

  it('checks a new schema and URL like a create, and accepts the read-only fields sent back', async () => {
    // Arrange
    const tool = await json(await owner.request('POST', '/tools', toolBody('patch_checked')));
    // Act
    const badSchema = await owner.request('PATCH', `/tools/${tool.id}`, {
      parameters: { type: 'object', properties: { n: { minimum: 'x' } } },
    });
    const badUrl = await owner.request('PATCH', `/tools/${tool.id}`, { server_url: 'https://[::1]/x' });
    const echoed = await owner.request('PATCH', `/tools/${tool.id}`, { ...tool, description: 'Checks an order.' });
    // Assert
    expect((await json(badSchema)).detail[0]).toMatchObject({ loc: ['body', 'parameters'], type: 'value_error' });
    expect((await json(badUrl)).detail[0]).toMatchObject({ loc: ['body', 'server_url'], type: 'value_error' });
    expect(echoed.status).toBe(200);
    expect((await json(echoed)).id).toBe(tool.id);
  });
});

describe('DELETE /tools/{id}', () => {
  it('refuses while an assistant names the tool, listing it, then deletes once detached', async () => {
    // Arrange
    const tool = await json(await owner.request('POST', '/tools', toolBody('in_use')));
    const assistant = await json(await owner.request('POST', '/assistants', { name: 'Uses it', config: { tool_ids: [tool.id] } }));
    // Act
    const refused = await owner.request('DELETE', `/tools/${tool.id}`);
    await owner.request('PATCH', `/assistants/${assistant.id}`, { config: { tool_ids: [] } });
    const deleted = await owner.request('DELETE', `/tools/${tool.id}`);
    // Assert
    expect(refused.status).toBe(409);
    const body = await json(refused);
    expect(body.code).toBe('tool_in_use');
    expect(body.detail).toContain(String(assistant.id));
    expect(strictResponseErrors('ErrorBody', body)).toEqual([]);
    expect(await json(deleted)).toEqual({ id: tool.id, deleted: true });
    expect((await owner.request('GET', `/tools/${tool.id}`)).status).toBe(404);
    expect((await owner.request('POST', '/tools', toolBody('in_use'))).status).toBe(200);
  });
});

describe('tenancy', () => {
  it("is 404 for another business's tool on every route, and the tool is untouched", async () => {
    // Arrange
    const tool = await json(await owner.request('POST', '/tools', toolBody('private_one')));
    // Act
    const statuses = [
      (await intruder.request('GET', `/tools/${tool.id}`)).status,
      (await intruder.request('PATCH', `/tools/${tool.id}`, { description: 'hijacked' })).status,
      (await intruder.request('DELETE', `/tools/${tool.id}`)).status,
    ];
    const attach = await intruder.request('POST', '/assistants', { name: 'x', config: { tool_ids: [tool.id] } });
    const list = await json(await intruder.request('GET', '/tools'));
    // Assert
    expect(statuses).toEqual([404, 404, 404]);
    expect(attach.status).toBe(422);
    expect(list.data.map((t: Json) => t.id)).not.toContain(tool.id);
    expect(await json(await owner.request('GET', `/tools/${tool.id}`))).toEqual(tool);
  });

  it('is 422 for a malformed id in the path', async () => {
    // Act
    const response = await owner.request('GET', '/tools/007');
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0].loc).toEqual(['path', 'tool_id']);
  });
});

describe('admin add-tool', () => {
  it('writes the same record through the same checks', async () => {
    // Arrange
    const tenant = await harness.newTenant({ numbers: 0 });
    // Act
    const tool = await harness.admin.addTool(tenant.businessId, toolBody('from_ops', { filler: 'One moment.' }));
    const refused = await harness.admin.addTool(tenant.businessId, toolBody('from_ops')).catch((error: unknown) => error);
    // Assert
    expect(await json(await tenant.request('GET', `/tools/${tool.id}`))).toEqual(tool);
    expect((refused as { items: Json[] }).items[0]).toMatchObject({ loc: ['name'], type: 'value_error' });
  });
});

/** An object schema nested `depth` levels deep. */
function nested(depth: number): Json {
  let schema: Json = { type: 'string' };
  for (let i = 0; i < depth; i++) schema = { type: 'object', properties: { n: schema } };
  return schema;
}

/** `n` definitions, each an `anyOf` of two references to the next: 2^n steps to check one wrong value. */
function doublingRefs(n: number): Json {
  const defs: Record<string, Json> = { [`a${n}`]: { type: 'string' } };
  for (let i = 0; i < n; i++) defs[`a${i}`] = { anyOf: [{ $ref: `#/$defs/a${i + 1}` }, { $ref: `#/$defs/a${i + 1}` }] };
  return { type: 'object', $defs: defs, properties: { n: { $ref: '#/$defs/a0' } } };
}
