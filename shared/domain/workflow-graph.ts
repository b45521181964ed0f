import { WORKFLOW_LIMITS, type CreateWorkflowInput, type WorkflowNode } from './workflow';

/** One problem of a workflow's graph: where (under the body) and what. */
export interface WorkflowProblem {
  loc: (string | number)[];
  message: string;
  input: unknown;
}

/** Every node id a node may lead to, with the path of the field naming it. */
export function nodeTargets(node: WorkflowNode): { loc: (string | number)[]; to: string }[] {
  switch (node.type) {
    case 'say':
      return [{ loc: ['next'], to: node.next }];
    case 'collect':
      return [{ loc: ['next'], to: node.next }, ...stuckTarget(node.on_stuck)];
    case 'conversation':
      return [...node.edges.map((edge, i) => ({ loc: ['edges', i, 'to'], to: edge.to })), ...stuckTarget(node.on_stuck)];
    case 'branch':
      return [...node.cases.map((c, i) => ({ loc: ['cases', i, 'to'], to: c.to })), { loc: ['default'], to: node.default }];
    case 'tool':
      return [
        { loc: ['on_success'], to: node.on_success },
        { loc: ['on_error'], to: node.on_error },
      ];
    case 'transfer':
    case 'end':
      return [];
  }
}

function stuckTarget(onStuck: string | null | undefined): { loc: (string | number)[]; to: string }[] {
  return onStuck ? [{ loc: ['on_stuck'], to: onStuck }] : [];
}

/**
 * What the schema cannot see in a workflow (docs/design.md "Workflows"): duplicate node ids, a missing
 * `start`, edges to missing nodes, nodes unreachable from `start`, a conversation with no way
 * out that is not `final`, duplicate or option-less fields, and tools the business lacks.
 * `loc` points into the body (`['nodes', 3, 'edges', 0, 'to']`).
 */
export function workflowProblems(workflow: CreateWorkflowInput, toolNames: ReadonlySet<string>): WorkflowProblem[] {
  const problems: WorkflowProblem[] = [];
  const size = JSON.stringify(workflow.nodes).length;
  if (size > WORKFLOW_LIMITS.nodesJsonChars) {
    return [
      { loc: ['nodes'], message: `the nodes take ${size} characters as JSON, over ${WORKFLOW_LIMITS.nodesJsonChars}`, input: undefined },
    ];
  }
  const index = new Map<string, number>();
  workflow.nodes.forEach((node, i) => {
    if (index.has(node.id)) problems.push({ loc: ['nodes', i, 'id'], message: `duplicate node id ${node.id}`, input: node.id });
    else index.set(node.id, i);
  });
  if (!index.has(workflow.start)) problems.push({ loc: ['start'], message: `no node has the id ${workflow.start}`, input: workflow.start });
  workflow.nodes.forEach((node, i) => {
    for (const target of nodeTargets(node)) {
      if (!index.has(target.to))
        problems.push({ loc: ['nodes', i, ...target.loc], message: `no node has the id ${target.to}`, input: target.to });
    }
    problems.push(...nodeProblems(node, toolNames).map((p) => ({ ...p, loc: ['nodes', i, ...p.loc] })));
  });
  if (problems.length > 0) return problems;
  const reached = new Set<string>([workflow.start]);
  const queue = [workflow.start];
  while (queue.length > 0) {
    const node = workflow.nodes[index.get(queue.shift()!)!]!;
    for (const { to } of nodeTargets(node)) {
      if (reached.has(to)) continue;
      reached.add(to);
      queue.push(to);
    }
  }
  workflow.nodes.forEach((node, i) => {
    if (!reached.has(node.id))
      problems.push({ loc: ['nodes', i, 'id'], message: `node ${node.id} cannot be reached from start`, input: node.id });
  });
  return problems;
}

function nodeProblems(node: WorkflowNode, toolNames: ReadonlySet<string>): WorkflowProblem[] {
  if (node.type === 'conversation' && node.edges.length === 0 && !node.final) {
    return [{ loc: ['edges'], message: 'a conversation needs edges to leave by, or `final: true` when the call may end there', input: [] }];
  }
  if (node.type === 'tool' && !toolNames.has(node.tool)) {
    return [{ loc: ['tool'], message: `the business has no tool named ${node.tool}`, input: node.tool }];
  }
  if (node.type !== 'collect') return [];
  const problems: WorkflowProblem[] = [];
  const seen = new Set<string>();
  node.fields.forEach((field, j) => {
    if (seen.has(field.name)) problems.push({ loc: ['fields', j, 'name'], message: `duplicate field ${field.name}`, input: field.name });
    seen.add(field.name);
    if (field.type === 'enum' && (field.options ?? []).length === 0) {
      problems.push({ loc: ['fields', j, 'options'], message: 'an enum field needs options', input: field.options ?? null });
    }
  });
  return problems;
}
