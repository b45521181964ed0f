import type { components } from '../../api/schema';

type WorkflowNode = components['schemas']['WorkflowNode'];
type Workflow = components['schemas']['Workflow'];

/** One way out of a node: where it goes and when. */
export interface Edge {
  to: string;
  when: string;
}

function caseText(when: { var: string; op: string; value?: unknown }): string {
  const op = { eq: 'is', ne: 'is not', gt: 'is more than', lt: 'is less than', exists: 'is known', in: 'is one of' }[when.op] ?? when.op;
  return when.op === 'exists' ? `${when.var} ${op}` : `${when.var} ${op} ${JSON.stringify(when.value)}`;
}

/** Every edge of a node, named as the workflow's own fields say when each is taken. */
export function nodeEdges(node: WorkflowNode): Edge[] {
  switch (node.type) {
    case 'say':
      return [{ to: node.next, when: 'after saying it' }];
    case 'conversation':
      return [
        ...node.edges.map((edge) => ({ to: edge.to, when: edge.when })),
        ...(node.on_stuck ? [{ to: node.on_stuck, when: 'when stuck' }] : []),
      ];
    case 'collect':
      return [{ to: node.next, when: 'once collected' }, ...(node.on_stuck ? [{ to: node.on_stuck, when: 'when stuck' }] : [])];
    case 'branch':
      return [...node.cases.map((c) => ({ to: c.to, when: `if ${caseText(c.when)}` })), { to: node.default, when: 'otherwise' }];
    case 'tool':
      return [
        { to: node.on_success, when: 'when the tool works' },
        { to: node.on_error, when: 'when the tool fails' },
      ];
    case 'transfer':
    case 'end':
      return [];
  }
}

/** What a node does, in a line: its text, prompt, fields, tool or number. */
export function nodeSummary(node: WorkflowNode): string {
  switch (node.type) {
    case 'say':
      return node.text;
    case 'conversation':
      return `${node.prompt}${node.final ? ' (the call may end here)' : ''}`;
    case 'collect':
      return `Collects ${node.fields.map((f) => `${f.name} (${f.type}${f.required ? '' : ', optional'})`).join(', ')}`;
    case 'branch':
      return `Chooses by ${[...new Set(node.cases.map((c) => c.when.var))].join(', ') || 'its cases'}`;
    case 'tool':
      return `Runs the tool ${node.tool}`;
    case 'transfer':
      return `Transfers the caller${node.number ? ` to ${node.number}` : ''}${node.text ? `: "${node.text}"` : ''}`;
    case 'end':
      return node.text ? `Ends the call: "${node.text}"` : 'Ends the call';
  }
}

/**
 * The nodes in the order a call meets them: from `start`, breadth first along the edges, then any the
 * edges never reach (the API refuses those, but a page should still show everything it was given).
 */
export function nodesInOrder(workflow: Pick<Workflow, 'start' | 'nodes'>): WorkflowNode[] {
  const byId = new Map(workflow.nodes.map((node) => [node.id, node]));
  const seen = new Set<string>();
  const order: WorkflowNode[] = [];
  const queue = [workflow.start];
  while (queue.length > 0) {
    const id = queue.shift() as string;
    const node = byId.get(id);
    if (!node || seen.has(id)) continue;
    seen.add(id);
    order.push(node);
    queue.push(...nodeEdges(node).map((edge) => edge.to));
  }
  return [...order, ...workflow.nodes.filter((node) => !seen.has(node.id))];
}

/** The whole graph in a few sentences: the text alternative to the node list. */
export function workflowSummary(workflow: Pick<Workflow, 'start' | 'nodes'>): string {
  const nodes = nodesInOrder(workflow);
  const endings = nodes.filter((n) => n.type === 'end' || n.type === 'transfer' || (n.type === 'conversation' && n.final));
  const edges = nodes.reduce((sum, node) => sum + nodeEdges(node).length, 0);
  return (
    `${nodes.length} node${nodes.length === 1 ? '' : 's'} and ${edges} edge${edges === 1 ? '' : 's'}. ` +
    `Calls start at "${workflow.start}". ` +
    (endings.length > 0 ? `They can end at ${endings.map((n) => `"${n.id}"`).join(', ')}.` : 'No node ends the call.')
  );
}
