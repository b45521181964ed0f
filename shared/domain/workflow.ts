import * as v from 'valibot';
import { e164Field } from './phone-number';
import { ACTION_TOOL_NAMES } from './tool';
import {
  idField,
  intField,
  listField,
  numberField,
  readOnlyEcho,
  recordField,
  strictDict,
  stringField,
  timestampField,
} from './validation';
import { parseWith } from './validation-errors';
import { cursorPageSchema } from './paging';

/** A node id, and a collected variable's name (`{{name}}` in texts, `var` in branch cases). */
export const WORKFLOW_NAME_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;

/** Bounds of a workflow (docs/design.md "Workflows"): every list and text is bounded at save time. */
export const WORKFLOW_LIMITS = {
  workflowsPerBusiness: 100,
  nameChars: 100,
  nodes: 50,
  textChars: 1000,
  promptChars: 4000,
  whenChars: 300,
  edges: 10,
  fields: 20,
  fieldDescriptionChars: 300,
  options: 20,
  optionChars: 80,
  cases: 20,
  args: 20,
  argChars: 500,
  /** Caller turns a `conversation` or `collect` node may take before it is stuck. */
  maxTurns: 30,
  /** The nodes as JSON, at most: a full list of workflows (100 of them) stays under 5 MB. */
  nodesJsonChars: 48_000,
} as const;

/** Caller turns a node may take by default before it counts as stuck (docs/decisions.md "Workflows"). */
export const DEFAULT_MAX_TURNS = { conversation: 10, collect: 6 } as const;

/**
 * The built-in tools a `tool` node may name (those that act through a back end; hanging up and
 * transferring are node types of their own).
 */
export const WORKFLOW_BUILTIN_TOOLS: readonly string[] = ACTION_TOOL_NAMES.filter(
  // Hanging up and transferring are node types; `email_caller` is not built yet.
  (name) => name !== 'end_call' && name !== 'transfer' && name !== 'email_caller',
);

/** The node types, in the order the documentation lists them. */
export const WORKFLOW_NODE_TYPES = ['say', 'conversation', 'collect', 'branch', 'tool', 'transfer', 'end'] as const;

/** The types a collected field may have. */
export const FIELD_TYPES = ['string', 'number', 'boolean', 'date', 'enum'] as const;

/** The comparisons of a branch case. */
export const CASE_OPS = ['eq', 'ne', 'gt', 'lt', 'exists', 'in'] as const;

const nodeId = () => stringField({ pattern: WORKFLOW_NAME_PATTERN });
const text = (max: number) => stringField({ min: 1, max });
/** Multi-line text a call says or a model reads (tabs and line breaks allowed). */
const lines = (max: number) => stringField({ min: 1, max, lines: true });
const maxTurns = () =>
  v.optional(
    v.pipe(
      intField({ ge: 1, le: WORKFLOW_LIMITS.maxTurns }),
      v.metadata({ description: 'Caller turns this node may take before it is stuck (then `on_stuck`, or the call ends).' }),
    ),
  );
const onStuck = () =>
  v.optional(
    v.pipe(
      v.nullable(nodeId()),
      v.metadata({ description: 'Where the call goes when the node is stuck; null or absent: the call ends politely.' }),
    ),
    null,
  );

const EdgeSchema = strictDict({
  to: nodeId(),
  when: v.pipe(
    text(WORKFLOW_LIMITS.whenChars),
    v.metadata({ description: 'A plain-language condition, e.g. "the caller is a new patient".' }),
  ),
});

const FieldSchema = strictDict({
  name: nodeId(),
  type: v.picklist(FIELD_TYPES),
  description: v.optional(stringField({ max: WORKFLOW_LIMITS.fieldDescriptionChars, lines: true }), ''),
  required: v.optional(v.boolean(), true),
  options: v.optional(listField(text(WORKFLOW_LIMITS.optionChars), WORKFLOW_LIMITS.options)),
});

const CaseValueSchema = v.union([
  stringField({ max: WORKFLOW_LIMITS.optionChars }),
  numberField(),
  v.boolean(),
  listField(v.union([stringField({ max: WORKFLOW_LIMITS.optionChars }), numberField()]), WORKFLOW_LIMITS.options),
]);

const CaseSchema = strictDict({
  when: strictDict({ var: nodeId(), op: v.picklist(CASE_OPS), value: v.optional(CaseValueSchema) }),
  to: nodeId(),
});

const SayNode = strictDict({ id: nodeId(), type: v.literal('say'), text: lines(WORKFLOW_LIMITS.textChars), next: nodeId() });

const ConversationNode = strictDict({
  id: nodeId(),
  type: v.literal('conversation'),
  prompt: lines(WORKFLOW_LIMITS.promptChars),
  edges: v.optional(listField(EdgeSchema, WORKFLOW_LIMITS.edges), []),
  final: v.optional(
    v.pipe(v.boolean(), v.metadata({ description: 'The call may end here (the model hangs up); a node without edges must be final.' })),
    false,
  ),
  max_turns: maxTurns(),
  on_stuck: onStuck(),
});

const CollectNode = strictDict({
  id: nodeId(),
  type: v.literal('collect'),
  prompt: v.optional(stringField({ max: WORKFLOW_LIMITS.promptChars, lines: true }), ''),
  fields: v.pipe(v.array(FieldSchema), v.minLength(1), v.maxLength(WORKFLOW_LIMITS.fields)),
  next: nodeId(),
  max_turns: maxTurns(),
  on_stuck: onStuck(),
});

const BranchNode = strictDict({
  id: nodeId(),
  type: v.literal('branch'),
  cases: listField(CaseSchema, WORKFLOW_LIMITS.cases),
  default: nodeId(),
});

const ToolNode = strictDict({
  id: nodeId(),
  type: v.literal('tool'),
  tool: stringField({ min: 1, max: 64 }),
  args: v.optional(
    v.pipe(
      recordField(stringField({ max: WORKFLOW_LIMITS.argChars, lines: true }), WORKFLOW_LIMITS.args),
      v.metadata({ description: 'Each argument as text with `{{variables}}`; a lone `{{name}}` passes the value with its type.' }),
    ),
    {},
  ),
  on_success: nodeId(),
  on_error: nodeId(),
});

const TransferNode = strictDict({
  id: nodeId(),
  type: v.literal('transfer'),
  number: v.optional(v.nullable(e164Field()), null),
  text: v.optional(stringField({ max: WORKFLOW_LIMITS.textChars, lines: true }), ''),
});

const EndNode = strictDict({
  id: nodeId(),
  type: v.literal('end'),
  text: v.optional(stringField({ max: WORKFLOW_LIMITS.textChars, lines: true }), ''),
});

/** One step of a workflow; `type` picks its shape. */
export const WorkflowNodeSchema = v.variant('type', [SayNode, ConversationNode, CollectNode, BranchNode, ToolNode, TransferNode, EndNode]);

/** A node as stored and returned (defaults filled in). */
export type WorkflowNode = v.InferOutput<typeof WorkflowNodeSchema>;
/** The node of one type. */
export type NodeOf<T extends WorkflowNode['type']> = Extract<WorkflowNode, { type: T }>;
/** A field of a `collect` node. */
export type WorkflowField = v.InferOutput<typeof FieldSchema>;
/** A branch case. */
export type WorkflowCase = v.InferOutput<typeof CaseSchema>;

const nodesField = () => v.pipe(v.array(WorkflowNodeSchema), v.minLength(1), v.maxLength(WORKFLOW_LIMITS.nodes));

/** A workflow: the steps a call follows (docs/design.md "Workflows"). */
export const WorkflowSchema = strictDict({
  id: idField(),
  name: v.string(),
  start: v.string(),
  nodes: v.array(WorkflowNodeSchema),
  created_at: timestampField(),
  updated_at: timestampField(),
});

/** A workflow as the API returns it. */
export type Workflow = v.InferOutput<typeof WorkflowSchema>;

/** GET /workflows: newest first. */
export const WorkflowListSchema = cursorPageSchema(WorkflowSchema);

/** DELETE /workflows/{id}. */
export const DeleteWorkflowResultSchema = strictDict({ id: idField(), deleted: v.literal(true) });

const echoed = { id: readOnlyEcho(), created_at: readOnlyEcho(), updated_at: readOnlyEcho() };

/** POST /workflows: the graph's checks (ids, edges, reachability, tools) follow in `workflowProblems`. */
export const CreateWorkflowBodySchema = strictDict({
  ...echoed,
  name: text(WORKFLOW_LIMITS.nameChars),
  start: nodeId(),
  nodes: nodesField(),
});

/** PATCH /workflows/{id}: the fields given replace theirs; the result is checked as a whole. */
export const UpdateWorkflowBodySchema = strictDict({
  ...echoed,
  name: v.optional(text(WORKFLOW_LIMITS.nameChars)),
  start: v.optional(nodeId()),
  nodes: v.optional(nodesField()),
});

/** A validated POST body. */
export type CreateWorkflowInput = Pick<Workflow, 'name' | 'start' | 'nodes'>;
/** A validated PATCH body. */
export type UpdateWorkflowInput = Partial<CreateWorkflowInput>;

/** Validates a POST /workflows body (shape only). */
export function parseCreateWorkflowBody(input: unknown, loc: (string | number)[] = ['body']): CreateWorkflowInput {
  const { name, start, nodes } = parseWith(CreateWorkflowBodySchema, input, loc);
  return { name, start, nodes };
}

/** Validates a PATCH /workflows/{id} body (shape only). */
export function parseUpdateWorkflowBody(input: unknown, loc: (string | number)[] = ['body']): UpdateWorkflowInput {
  const { name, start, nodes } = parseWith(UpdateWorkflowBodySchema, input, loc);
  return Object.fromEntries(Object.entries({ name, start, nodes }).filter(([, value]) => value !== undefined));
}

/** The longest path a call keeps (nodes visited); a call that would go further ends. */
export const MAX_WORKFLOW_PATH = 200;

/** A call's run of its workflow, on GET /calls/{id} and `call.completed` (docs/design.md "Workflows"). */
export const CallWorkflowSchema = strictDict({
  id: idField(),
  path: v.pipe(
    v.array(strictDict({ node: v.string(), at_ms: intField({ ge: 0 }) })),
    v.description('The nodes visited, in order, with when each was entered (ms from the call start).'),
  ),
  variables: v.pipe(
    recordField(v.unknown()),
    v.description(
      'What `collect` nodes gathered (by field name) and what `tool` nodes returned (by node id); redacted per `advanced.redact`.',
    ),
  ),
});

/** A call's run of its workflow. */
export type CallWorkflow = v.InferOutput<typeof CallWorkflowSchema>;
