import { describe, expect, it } from 'vitest';
import type { components } from '../../../console/src/api/schema';
import { parameterRows } from '../../../console/src/pages/parts/tool-parameters';
import { nodeEdges, nodesInOrder, nodeSummary, workflowSummary } from '../../../console/src/pages/parts/workflow-graph';

type Workflow = components['schemas']['Workflow'];

describe("a tool's parameters", () => {
  it('lists each argument with its type, whether it is required, its description and its rules', () => {
    // Arrange
    const parameters = {
      type: 'object' as const,
      properties: {
        order_id: { type: 'string', description: 'Two letters and four digits', pattern: '^[A-Z]{2}[0-9]{4}$' },
        rush: { type: 'boolean' },
        size: { enum: ['s', 'm', 'l'] },
        address: { type: 'object', properties: { city: { type: 'string', maxLength: 80 } }, required: ['city'] },
        lines: { type: 'array', items: { type: 'object', properties: { sku: { type: ['string', 'null'] } } } },
      },
      required: ['order_id'],
    };
    // Act
    const rows = parameterRows(parameters);
    // Assert
    expect(rows).toEqual([
      {
        name: 'order_id',
        type: 'string',
        required: true,
        description: 'Two letters and four digits',
        rules: ['pattern ^[A-Z]{2}[0-9]{4}$'],
      },
      { name: 'rush', type: 'boolean', required: false, description: '', rules: [] },
      { name: 'size', type: 'enum', required: false, description: '', rules: ['one of "s", "m", "l"'] },
      { name: 'address', type: 'object', required: false, description: '', rules: [] },
      { name: 'address.city', type: 'string', required: true, description: '', rules: ['maxLength 80'] },
      { name: 'lines', type: 'array', required: false, description: '', rules: [] },
      { name: 'lines[].sku', type: 'string or null', required: false, description: '', rules: [] },
    ]);
  });

  it('is empty for a tool that takes nothing', () => {
    expect(parameterRows({ type: 'object', properties: {} })).toEqual([]);
    expect(parameterRows({ type: 'object' })).toEqual([]);
  });
});

const intake: Pick<Workflow, 'start' | 'nodes'> = {
  start: 'welcome',
  nodes: [
    { id: 'done', type: 'end', text: 'Goodbye!' },
    { id: 'welcome', type: 'say', text: 'Welcome.', next: 'ask' },
    {
      id: 'ask',
      type: 'collect',
      prompt: '',
      fields: [
        { name: 'full_name', type: 'string', description: '', required: true },
        { name: 'new_patient', type: 'boolean', description: '', required: false },
      ],
      next: 'route',
      on_stuck: 'human',
    },
    { id: 'route', type: 'branch', cases: [{ when: { var: 'new_patient', op: 'eq', value: true }, to: 'chat' }], default: 'done' },
    {
      id: 'chat',
      type: 'conversation',
      prompt: 'Explain what to bring.',
      edges: [{ to: 'done', when: 'no more questions' }],
      final: false,
      on_stuck: null,
    },
    { id: 'human', type: 'transfer', number: '+15550100009', text: 'Putting you through.' },
    { id: 'lookup', type: 'tool', tool: 'check_order', args: {}, on_success: 'done', on_error: 'human' },
  ],
};

describe("a workflow's graph", () => {
  it('names every edge of every node type by when it is taken', () => {
    const byId = new Map(intake.nodes.map((node) => [node.id, node]));
    const edges = (id: string) => nodeEdges(byId.get(id)!);
    expect(edges('welcome')).toEqual([{ to: 'ask', when: 'after saying it' }]);
    expect(edges('ask')).toEqual([
      { to: 'route', when: 'once collected' },
      { to: 'human', when: 'when stuck' },
    ]);
    expect(edges('route')).toEqual([
      { to: 'chat', when: 'if new_patient is true' },
      { to: 'done', when: 'otherwise' },
    ]);
    expect(edges('chat')).toEqual([{ to: 'done', when: 'no more questions' }]);
    expect(edges('lookup')).toEqual([
      { to: 'done', when: 'when the tool works' },
      { to: 'human', when: 'when the tool fails' },
    ]);
    expect(edges('human')).toEqual([]);
    expect(edges('done')).toEqual([]);
  });

  it('lists the nodes in the order a call meets them, then any no edge reaches', () => {
    expect(nodesInOrder(intake).map((node) => node.id)).toEqual(['welcome', 'ask', 'route', 'human', 'chat', 'done', 'lookup']);
  });

  it('says what each node does and sums the graph up in words', () => {
    const byId = new Map(intake.nodes.map((node) => [node.id, node]));
    expect(nodeSummary(byId.get('ask')!)).toBe('Collects full_name (string), new_patient (boolean, optional)');
    expect(nodeSummary(byId.get('human')!)).toBe('Transfers the caller to +15550100009: "Putting you through."');
    expect(workflowSummary(intake)).toBe('7 nodes and 8 edges. Calls start at "welcome". They can end at "human", "done".');
  });

  it('survives an edge to a node that is not there', () => {
    const broken = { start: 'a', nodes: [{ id: 'a', type: 'say' as const, text: 'Hi', next: 'missing' }] };
    expect(nodesInOrder(broken).map((node) => node.id)).toEqual(['a']);
  });
});
