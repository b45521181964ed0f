/**
 * The workflows, events and effects that the workflow reducer's tables are written in
 * (`test/unit/media/call/workflow-rules.test.ts`), and the runner that feeds a sequence of events.
 */
import { parseCreateWorkflowBody, type Workflow } from '../../../../shared/domain/workflow';
import {
  reduceWorkflow,
  WORKFLOW_START,
  type WorkflowEffect,
  type WorkflowEvent,
  type WorkflowSettings,
  type WorkflowState,
} from '../../../../media-service/src/call/rules/workflow';

export function workflowOf(start: string, nodes: Record<string, unknown>[]): Workflow {
  return { id: 7, created_at: '', updated_at: '', ...parseCreateWorkflowBody({ name: 'W', start, nodes }) } as Workflow;
}

export const ASK = {
  id: 'ask',
  type: 'collect',
  fields: [
    { name: 'full_name', type: 'string' },
    { name: 'visit', type: 'enum', options: ['new', 'check-up'] },
  ],
  next: 'route',
  max_turns: 2,
  on_stuck: 'human',
};
export const NODES = [
  { id: 'hello', type: 'say', text: 'Hello {{caller_name}}.', next: 'ask' },
  ASK,
  { id: 'route', type: 'branch', cases: [{ when: { var: 'visit', op: 'eq', value: 'new' }, to: 'check' }], default: 'reason' },
  { id: 'check', type: 'tool', tool: 'check_slots', args: { name: '{{full_name}}' }, on_success: 'booked', on_error: 'sorry' },
  { id: 'booked', type: 'say', text: 'Booked for {{check.day}}.', next: 'bye' },
  { id: 'sorry', type: 'transfer', number: '+15005550006', text: 'Let me get someone.' },
  { id: 'reason', type: 'conversation', prompt: 'Ask why they call.', edges: [{ to: 'bye', when: 'they said why' }], max_turns: 1 },
  { id: 'human', type: 'transfer' },
  { id: 'bye', type: 'end', text: 'Goodbye, {{full_name}}.' },
];
/** Starts with a say (an acting start node replaces the greeting). */
export const INTAKE = workflowOf('hello', NODES);
/** Starts at the collect (the greeting opens it). */
export const AT_ASK = workflowOf('ask', NODES);
/** Starts at a conversation that allows three caller turns. */
export const CHAT = workflowOf('chat', [
  { id: 'chat', type: 'conversation', prompt: 'Chat.', edges: [{ to: 'bye', when: 'done' }], max_turns: 3 },
  { id: 'bye', type: 'end' },
]);
/** Two branches that send the call to each other: acting nodes without end. */
export const LOOP = workflowOf('b1', [
  { id: 'b1', type: 'branch', cases: [], default: 'b2' },
  { id: 'b2', type: 'branch', cases: [], default: 'b1' },
]);

export const settingsOf = (workflow: Workflow): WorkflowSettings => ({
  workflow,
  callVariables: { caller_name: 'Ada' },
  assistantVariables: {},
});

// Events
export const open: WorkflowEvent = { type: 'open', atMs: 0 };
export const turn: WorkflowEvent = { type: 'caller_turn', atMs: 0 };
export const said: WorkflowEvent = { type: 'said', atMs: 0 };
export const ending: WorkflowEvent = { type: 'ending' };
export const toolDone = (ok: boolean, output: Record<string, unknown>): WorkflowEvent => ({ type: 'tool_done', ok, output, atMs: 0 });
export const replied = (...calls: { id: string; name: string; arguments: string }[]): WorkflowEvent => ({
  type: 'reply_done',
  calls,
  atMs: 0,
});
export const nextStep = (args: Record<string, unknown>) => ({ id: 'ns', name: 'next_step', arguments: JSON.stringify(args) });
export const values = (given: Record<string, unknown>) => replied(nextStep({ step: 'route', values: given }));

// Effects
export const REPLY: WorkflowEffect = { type: 'reply' };
export const SETTLE: WorkflowEffect = { type: 'settle' };
export const entered = (...nodes: string[]): WorkflowEffect[] => nodes.map((node) => ({ type: 'entered', node }));
export const say = (text: string): WorkflowEffect => ({ type: 'say', text });
export const end = (text: string): WorkflowEffect => ({ type: 'end', text });
export const transfer = (number: string | null): WorkflowEffect => ({ type: 'transfer', number });
export const result = (callId: string, output: Record<string, unknown>): WorkflowEffect => ({
  type: 'tool_result',
  callId,
  output: JSON.stringify(output),
});
export const stuck = (node: string, to: string | null): WorkflowEffect => ({ type: 'stuck', node, to });
export const CHECK: WorkflowEffect = { type: 'run_tool', name: 'check_slots', args: '{"name":"Ada"}' };
export const MISSING = {
  error: 'still missing: full_name (string), visit (one of new, check-up). Ask the caller, then call next_step again.',
};

/** Freezes a state all the way down: a reducer that changed it in place would throw. */
function frozen<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) frozen(inner);
  }
  return value;
}

/** Runs `events` from `from`; returns every effect in order, the final state, and whether the run took each event. */
export function run(workflow: Workflow, events: readonly WorkflowEvent[], from: WorkflowState = WORKFLOW_START) {
  let state = from;
  const effects: WorkflowEffect[] = [];
  const took: boolean[] = [];
  for (const event of events) {
    const step = reduceWorkflow(settingsOf(workflow), frozen(state), event);
    state = step.state;
    effects.push(...step.effects);
    took.push(step.took);
  }
  return { effects, state, took };
}

/** The call at the tool node: the collect's values accepted, a new patient, `check_slots` running. */
export const TO_CHECK: WorkflowEffect[] = [
  ...entered('ask'),
  result('ns', { ok: true, step: 'route' }),
  ...entered('route', 'check'),
  CHECK,
];

/** The collect's values for a new patient. */
export const NEW_PATIENT = values({ full_name: 'Ada', visit: 'new' });

/** Two refused `next_step` at the collect: stuck, on to its `on_stuck` transfer. */
export const TO_HUMAN: WorkflowEffect[] = [
  ...entered('ask'),
  result('ns', MISSING),
  REPLY,
  result('ns', MISSING),
  stuck('ask', 'human'),
  ...entered('human'),
  transfer(null),
];
