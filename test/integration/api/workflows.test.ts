import { beforeAll, describe, expect, it } from 'vitest';
import { WORKFLOW_LIMITS } from '../../../shared/domain/workflow';
import { createApiHarness, type ApiHarness, type TenantClient } from '../../support/api-harness';
import { strictResponseErrors } from '../../support/openapi-strict';

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

/** A small valid workflow touching every node type. */
function workflowBody(change: Json = {}): Json {
  return {
    name: 'Intake',
    start: 'hello',
    nodes: [
      { id: 'hello', type: 'say', text: 'Hi, this is the intake line.', next: 'details' },
      {
        id: 'details',
        type: 'collect',
        fields: [
          { name: 'full_name', type: 'string', description: "The caller's full name" },
          { name: 'visit', type: 'enum', options: ['new', 'follow-up'] },
        ],
        next: 'route',
      },
      {
        id: 'route',
        type: 'branch',
        cases: [{ when: { var: 'visit', op: 'eq', value: 'new' }, to: 'chat' }],
        default: 'note',
      },
      { id: 'chat', type: 'conversation', prompt: 'Ask what brings them in.', edges: [{ to: 'bye', when: 'the caller has said why' }] },
      {
        id: 'note',
        type: 'tool',
        tool: 'take_message',
        args: { message: '{{full_name}} called back' },
        on_success: 'bye',
        on_error: 'human',
      },
      { id: 'human', type: 'transfer', text: 'Let me connect you.' },
      { id: 'bye', type: 'end', text: 'Thanks {{full_name}}, goodbye.' },
    ],
    ...change,
  };
}

/** The example's nodes with one replaced (by index) or appended. */
function withNode(index: number, node: Json | undefined): Json {
  const nodes = [...workflowBody().nodes];
  if (node === undefined) nodes.splice(index, 1);
  else nodes[index] = node;
  return workflowBody({ nodes });
}

let harness: ApiHarness;
let owner: TenantClient;
let intruder: TenantClient;

beforeAll(async () => {
  harness = await createApiHarness();
  [owner, intruder] = await Promise.all([harness.newTenant({ numbers: 0 }), harness.newTenant({ numbers: 0 })]);
});

describe('POST /workflows', () => {
  it('creates a workflow with its defaults, every field documented', async () => {
    // Act
    const response = await owner.request('POST', '/workflows', workflowBody());
    const workflow = await json(response);
    // Assert
    expect(response.status).toBe(200);
    expect(workflow).toMatchObject({ name: 'Intake', start: 'hello' });
    expect(workflow.nodes[1].fields[0]).toEqual({
      name: 'full_name',
      type: 'string',
      description: "The caller's full name",
      required: true,
    });
    expect(workflow.nodes[3]).toMatchObject({ final: false, on_stuck: null });
    expect(workflow.updated_at).toBe(workflow.created_at);
    expect(strictResponseErrors('Workflow', workflow)).toEqual([]);
    expect(await json(await owner.request('GET', `/workflows/${workflow.id}`))).toEqual(workflow);
  });

  it('accepts a custom tool of the business by name, and refuses one of another business', async () => {
    // Arrange
    const tool = {
      name: 'lookup_patient',
      description: 'Finds a patient.',
      server_url: 'https://tools.example.com/patient',
    };
    await owner.request('POST', '/tools', tool);
    const node = {
      id: 'note',
      type: 'tool',
      tool: 'lookup_patient',
      args: { name: '{{full_name}}' },
      on_success: 'bye',
      on_error: 'human',
    };
    // Act
    const mine = await owner.request('POST', '/workflows', withNode(4, node));
    const theirs = await intruder.request('POST', '/workflows', withNode(4, node));
    // Assert
    expect(await json(mine)).toMatchObject({ nodes: expect.any(Array) });
    expect(theirs.status).toBe(422);
    expect((await json(theirs)).detail[0]).toMatchObject({ loc: ['body', 'nodes', 4, 'tool'], type: 'value_error' });
  });

  describe.each<[string, Json, (string | number)[], string]>([
    ['an unknown node type', withNode(5, { id: 'human', type: 'dance' }), ['body', 'nodes', 5, 'type'], 'value_error'],
    ['a duplicate node id', withNode(5, { id: 'bye', type: 'end' }), ['body', 'nodes', 6, 'id'], 'value_error'],
    ['a start that is no node', workflowBody({ start: 'nowhere' }), ['body', 'start'], 'value_error'],
    [
      'an edge to a missing node',
      withNode(3, { id: 'chat', type: 'conversation', prompt: 'p', edges: [{ to: 'ghost', when: 'always' }] }),
      ['body', 'nodes', 3, 'edges', 0, 'to'],
      'value_error',
    ],
    [
      'a next to a missing node',
      withNode(0, { id: 'hello', type: 'say', text: 'Hi', next: 'ghost' }),
      ['body', 'nodes', 0, 'next'],
      'value_error',
    ],
    [
      'a case to a missing node',
      withNode(2, { id: 'route', type: 'branch', cases: [{ when: { var: 'visit', op: 'exists' }, to: 'ghost' }], default: 'note' }),
      ['body', 'nodes', 2, 'cases', 0, 'to'],
      'value_error',
    ],
    [
      'an on_stuck to a missing node',
      withNode(1, { id: 'details', type: 'collect', fields: [{ name: 'a', type: 'string' }], next: 'route', on_stuck: 'ghost' }),
      ['body', 'nodes', 1, 'on_stuck'],
      'value_error',
    ],
    [
      'a node unreachable from start',
      workflowBody({ nodes: [...workflowBody().nodes, { id: 'island', type: 'end' }] }),
      ['body', 'nodes', 7, 'id'],
      'value_error',
    ],
    [
      'a conversation without edges that is not final',
      withNode(3, { id: 'chat', type: 'conversation', prompt: 'Chat.' }),
      ['body', 'nodes', 3, 'edges'],
      'value_error',
    ],
    [
      'a collect without fields',
      withNode(1, { id: 'details', type: 'collect', fields: [], next: 'route' }),
      ['body', 'nodes', 1, 'fields'],
      'too_short',
    ],
    [
      'a collect with a duplicate field',
      withNode(1, {
        id: 'details',
        type: 'collect',
        fields: [
          { name: 'visit', type: 'string' },
          { name: 'visit', type: 'string' },
        ],
        next: 'route',
      }),
      ['body', 'nodes', 1, 'fields', 1, 'name'],
      'value_error',
    ],
    [
      'an enum field without options',
      withNode(1, { id: 'details', type: 'collect', fields: [{ name: 'visit', type: 'enum' }], next: 'route' }),
      ['body', 'nodes', 1, 'fields', 0, 'options'],
      'value_error',
    ],
    [
      'a tool the business does not have',
      withNode(4, { id: 'note', type: 'tool', tool: 'launch_rocket', on_success: 'bye', on_error: 'bye' }),
      ['body', 'nodes', 4, 'tool'],
      'value_error',
    ],
    [
      'a branch op that does not exist',
      withNode(2, { id: 'route', type: 'branch', cases: [{ when: { var: 'visit', op: 'like' }, to: 'chat' }], default: 'note' }),
      ['body', 'nodes', 2, 'cases', 0, 'when', 'op'],
      'literal_error',
    ],
    ['a node id with capitals', withNode(6, { id: 'Bye', type: 'end' }), ['body', 'nodes', 6, 'id'], 'string_pattern_mismatch'],
    ['no nodes', workflowBody({ nodes: [] }), ['body', 'nodes'], 'too_short'],
    [
      `more than ${WORKFLOW_LIMITS.nodes} nodes`,
      workflowBody({ nodes: Array.from({ length: WORKFLOW_LIMITS.nodes + 1 }, (_, i) => ({ id: `n${i}`, type: 'end' })) }),
      ['body', 'nodes'],
      'too_long',
    ],
    [
      'nodes over 48,000 characters as JSON',
      workflowBody({
        nodes: [
          { id: 'hello', type: 'say', text: 'Hi', next: 'n0' },
          ...Array.from({ length: 13 }, (_, i) => ({
            id: `n${i}`,
            type: 'conversation',
            prompt: 'p'.repeat(4000),
            edges: [{ to: i < 12 ? `n${i + 1}` : 'bye', when: 'done' }],
          })),
          { id: 'bye', type: 'end' },
        ],
      }),
      ['body', 'nodes'],
      'value_error',
    ],
    [
      'a say text too long',
      withNode(0, { id: 'hello', type: 'say', text: 't'.repeat(1001), next: 'details' }),
      ['body', 'nodes', 0, 'text'],
      'string_too_long',
    ],
    ['an unknown node field', withNode(6, { id: 'bye', type: 'end', colour: 'red' }), ['body', 'nodes', 6, 'colour'], 'extra_forbidden'],
    [
      'max_turns over the bound',
      withNode(3, { ...workflowBody().nodes[3], max_turns: 31 }),
      ['body', 'nodes', 3, 'max_turns'],
      'less_than_equal',
    ],
  ])('with %s', (_name, body, loc, type) => {
    it(`is 422 ${type} at ${loc.join('.')}`, async () => {
      // Act
      const response = await owner.request('POST', '/workflows', body);
      const answer = await json(response);
      // Assert
      expect(response.status).toBe(422);
      expect(answer.detail[0]).toMatchObject({ loc, type });
      expect(strictResponseErrors('HTTPValidationError', answer)).toEqual([]);
    });
  });

  it('answers 422 for malformed JSON and 413 for a body over 256 KiB, never 500', async () => {
    // Act
    const malformed = await owner.request('POST', '/workflows', '{"name": ');
    const huge = await owner.request('POST', '/workflows', workflowBody({ name: 'n'.repeat(300_000) }));
    // Assert
    expect(malformed.status).toBe(422);
    expect(huge.status).toBe(413);
  });
});

describe('GET /workflows', () => {
  it('lists newest first, only the business its own', async () => {
    // Arrange
    const tenant = await harness.newTenant({ numbers: 0 });
    const first = await json(await tenant.request('POST', '/workflows', workflowBody({ name: 'First' })));
    const second = await json(await tenant.request('POST', '/workflows', workflowBody({ name: 'Second' })));
    // Act
    const list = await json(await tenant.request('GET', '/workflows'));
    // Assert
    expect(list.data.map((w: Json) => w.id)).toEqual([second.id, first.id]);
    expect(strictResponseErrors('WorkflowList', list)).toEqual([]);
  });
});

describe('PATCH /workflows/{id}', () => {
  it('replaces the fields given, checks the whole graph, and accepts the read-only fields sent back', async () => {
    // Arrange
    const workflow = await json(await owner.request('POST', '/workflows', workflowBody()));
    // Act
    const renamed = await json(await owner.request('PATCH', `/workflows/${workflow.id}`, { ...workflow, name: 'Intake v2' }));
    const broken = await owner.request('PATCH', `/workflows/${workflow.id}`, { start: 'ghost' });
    // Assert
    expect(renamed).toEqual({ ...workflow, name: 'Intake v2', updated_at: renamed.updated_at });
    expect(renamed.updated_at > workflow.updated_at).toBe(true);
    expect(broken.status).toBe(422);
    expect((await json(broken)).detail[0]).toMatchObject({ loc: ['body', 'start'] });
  });
});

describe('tenancy', () => {
  it("is 404 for another business's workflow on every route, and it is untouched", async () => {
    // Arrange
    const workflow = await json(await owner.request('POST', '/workflows', workflowBody()));
    // Act
    const statuses = [
      (await intruder.request('GET', `/workflows/${workflow.id}`)).status,
      (await intruder.request('PATCH', `/workflows/${workflow.id}`, { name: 'Mine now' })).status,
      (await intruder.request('DELETE', `/workflows/${workflow.id}`)).status,
    ];
    // Assert
    expect(statuses).toEqual([404, 404, 404]);
    expect(await json(await owner.request('GET', `/workflows/${workflow.id}`))).toEqual(workflow);
  });

  it('deletes a workflow no assistant uses', async () => {
    // Arrange
    const workflow = await json(await owner.request('POST', '/workflows', workflowBody()));
    // Act
    const deleted = await json(await owner.request('DELETE', `/workflows/${workflow.id}`));
    // Assert
    expect(deleted).toEqual({ id: workflow.id, deleted: true });
    expect(strictResponseErrors('DeleteWorkflowResult', deleted)).toEqual([]);
    expect((await owner.request('GET', `/workflows/${workflow.id}`)).status).toBe(404);
  });
});
