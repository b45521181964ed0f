/**
 * The workflow interpreter as a pure reducer (docs/design.md "Workflows"): one call's walk through
 * its workflow, with no I/O, timers, clocks or promises. The clock comes in the events (`atMs`,
 * ms from the call's start). Acting nodes (say, branch, tool, transfer, end) are acted on in a row;
 * a `say` or `tool` node waits for its `said` / `tool_done` event, and caller turns meanwhile are
 * taken (their words wait in the history for the next talking node). At a talking node
 * (conversation, collect) the model talks under the node's steering and leaves by `next_step`.
 * Each talking node answers at most its `max_turns` caller turns, two refused `next_step` in a row
 * count as stuck too, and a walk of acting nodes is bounded, so a call never loops forever.
 * It is a part of the call's one reducer (`./call.ts`, through `./parts.ts`), whose executors carry
 * out its effects in either mode.
 */
import { storableJson } from '../../../../shared/domain/storable-json';
import { MAX_WORKFLOW_PATH, type CallWorkflow, type Workflow, type WorkflowNode } from '../../../../shared/domain/workflow';
import type { LlmToolDefinition } from '../../ports/language-model';
import { NEXT_STEP_TOOL, type Act, type ActingNode, type NodeEffect, type NodeResult, type TalkingNode } from '../workflow/node-type';
import { NODE_TYPES } from '../workflow/node-types';
import { runState } from '../workflow/run-state';

/** Nodes the engine may act on in a row without the caller speaking; a workflow cycling through acting nodes ends. */
export const MAX_ACTS_IN_A_ROW = 25;

/** Failed `next_step` calls in a row (no caller turn between) after which the node counts as stuck. */
export const MAX_STEP_ERRORS = 2;

export interface WorkflowSettings {
  workflow: Workflow;
  /** The call's own variables (`{{name}}` reads them after the run's). */
  callVariables: Readonly<Record<string, string>>;
  /** The assistant's variables over the call's built-in ones (`{{direction}}`, …). */
  assistantVariables: Readonly<Record<string, string>>;
}

/** One run, as plain data: every step returns new objects, never changes these. */
export interface WorkflowState {
  /** The node the call is at; undefined before it enters its start node. */
  node?: string;
  /** Caller turns taken at the current talking node. */
  turns: number;
  /** Refused `next_step` calls since the last caller turn. */
  stepErrors: number;
  /** Acting nodes done in a row in the current walk. */
  acts: number;
  /** The acting node waits for its effect's result (its words played, its tool's output). */
  waiting?: 'say' | 'tool';
  /** The call ends, or the run ended it: nothing more is entered or acted on. */
  ended: boolean;
  path: readonly { node: string; at_ms: number }[];
  variables: Readonly<Record<string, unknown>>;
}

export const WORKFLOW_START: WorkflowState = { turns: 0, stepErrors: 0, acts: 0, ended: false, path: [], variables: {} };

/** A tool call of a finished reply. */
export type ReplyCall = { id: string; name: string; arguments: string };

/**
 * `open`: the greeting is due, or the caller spoke first; `caller_turn`: the caller finished a
 * turn (already in the history); `reply_done`: a model reply played to the end, with its tool
 * calls; `said`: a say node's words played or were cut by the caller; `tool_done`: a tool node's
 * tool finished; `ending`: the call ends.
 */
export type WorkflowEvent =
  | { type: 'open'; atMs: number }
  | { type: 'caller_turn'; atMs: number }
  | { type: 'reply_done'; calls: readonly ReplyCall[]; atMs: number }
  | { type: 'said'; atMs: number }
  | { type: 'tool_done'; ok: boolean; output: Record<string, unknown>; atMs: number }
  | { type: 'ending' };

/**
 * A node's own effects (say, run_tool, transfer, end: the end message when `text` is empty), plus:
 * `reply` (the model speaks now), `tool_result` (a tool call's output for the model), `settle`
 * (nothing more to say: wait for the caller), `entered` (live mode re-steers its session), and the
 * two log lines `stuck` and `runaway`.
 */
export type WorkflowEffect =
  | NodeEffect
  | { type: 'reply' }
  | { type: 'tool_result'; callId: string; output: string }
  | { type: 'settle' }
  | { type: 'entered'; node: string }
  | { type: 'stuck'; node: string; to: string | null }
  | { type: 'runaway'; node: string };

/** `took`: the event was the workflow's, so the conversation must not answer the turn or act on the reply's tools itself. */
export interface WorkflowStep {
  state: WorkflowState;
  effects: WorkflowEffect[];
  took: boolean;
}

type Walk = Omit<WorkflowStep, 'took'>;

/** The run's next state and effects for `event`. */
export function reduceWorkflow(settings: WorkflowSettings, state: WorkflowState, event: WorkflowEvent): WorkflowStep {
  if (event.type === 'ending') return { state: { ...state, ended: true }, effects: [], took: false };
  if (state.ended) return afterEnd(settings, state, event);
  switch (event.type) {
    case 'open':
      return open(settings, state, event.atMs);
    case 'caller_turn':
      return callerTurn(settings, state, event.atMs);
    case 'reply_done':
      return replyDone(settings, state, event.calls, event.atMs);
    case 'said':
      if (state.waiting !== 'say') return { state, effects: [], took: false };
      return { ...resume(settings, state, { type: 'said' }, event.atMs), took: true };
    case 'tool_done':
      if (state.waiting !== 'tool') return { state, effects: [], took: false };
      return { ...resume(settings, state, { type: 'tool_done', ok: event.ok, output: event.output }, event.atMs), took: true };
  }
}

/**
 * What the model is told at the current node: its instructions and its `next_step` tool
 * (undefined at an acting node). It depends on the node and the variables only: a collect's
 * instructions list the fields still missing. Before the call enters its start node, a talking
 * start node steers already: a reply made before the greeting (an eager guess, a caller who speaks
 * first) must follow it too.
 */
export function workflowSteering(
  settings: WorkflowSettings,
  state: WorkflowState,
): { instructions: string; tool: LlmToolDefinition | undefined } | undefined {
  const node = nodeOf(settings, state.node ?? settings.workflow.start);
  const talk = talking(node);
  if (!talk) return undefined;
  return { instructions: talk.instructions(node, runOf(settings, { ...state.variables })), tool: talk.stepTool(node) };
}

/** The run as the call records it. */
export function workflowView(settings: WorkflowSettings, state: WorkflowState): CallWorkflow {
  return {
    id: settings.workflow.id,
    path: state.path.map((step) => ({ ...step })),
    variables: storableJson(state.variables) as Record<string, unknown>,
  };
}

/** At a talking start node the greeting opens it (not taken); an acting start node is acted on now instead (taken). */
function open(settings: WorkflowSettings, state: WorkflowState, atMs: number): WorkflowStep {
  if (state.node !== undefined) return { state, effects: [], took: false };
  const start = nodeOf(settings, settings.workflow.start);
  if (talking(start)) return { ...enter(state, start, atMs, []), took: false };
  return { ...go(settings, state, start.id, false, atMs, []), took: true };
}

/** Taken while acting nodes run, or when the turn is one past the node's `max_turns` (the node is stuck). */
function callerTurn(settings: WorkflowSettings, state: WorkflowState, atMs: number): WorkflowStep {
  let effects: WorkflowEffect[] = [];
  if (state.node === undefined) {
    const opened = open(settings, state, atMs);
    if (opened.took) return opened;
    ({ state, effects } = opened);
  }
  if (state.waiting !== undefined) return { state, effects, took: true };
  const node = nodeOf(settings, state.node!);
  const talk = talking(node);
  if (!talk) return { state, effects, took: false };
  const turns = state.turns + 1;
  state = { ...state, turns, stepErrors: 0 };
  if (turns <= talk.maxTurns(node)) return { state, effects, took: false };
  return { ...stuck(settings, state, node, talk, atMs, effects), took: true };
}

/**
 * A reply's `next_step` moves the call on (its other tool calls get an error result: the step
 * comes first); a refused one gets its reason and the model tries again, twice in a row is stuck.
 * A reply without one is the conversation's.
 */
function replyDone(settings: WorkflowSettings, state: WorkflowState, calls: readonly ReplyCall[], atMs: number): WorkflowStep {
  const step = calls.find((call) => call.name === NEXT_STEP_TOOL);
  if (!step) return { state, effects: [], took: false };
  const effects: WorkflowEffect[] = calls
    .filter((call) => call !== step)
    .map((call) => toolResult(call.id, { error: `Not run: ${NEXT_STEP_TOOL} came first.` }));
  const node = state.node === undefined ? undefined : nodeOf(settings, state.node);
  const talk = node && talking(node);
  if (!node || !talk) {
    effects.push(toolResult(step.id, { error: 'There is no step to leave now.' }), { type: 'settle' });
    return { state, effects, took: true };
  }
  const variables = { ...state.variables };
  const outcome = talk.accept(node, parseArgs(step.arguments), runOf(settings, variables));
  state = { ...state, variables };
  if ('to' in outcome) {
    effects.push(toolResult(step.id, { ok: true, step: outcome.to }));
    return { ...go(settings, state, outcome.to, true, atMs, effects), took: true };
  }
  effects.push(toolResult(step.id, { error: outcome.error }));
  state = { ...state, stepErrors: state.stepErrors + 1 };
  if (state.stepErrors >= MAX_STEP_ERRORS) return { ...stuck(settings, state, node, talk, atMs, effects), took: true };
  effects.push({ type: 'reply' });
  return { state, effects, took: true };
}

/** After the call started ending: nothing more happens, but a tool that was running keeps its result in the variables. */
function afterEnd(settings: WorkflowSettings, state: WorkflowState, event: Exclude<WorkflowEvent, { type: 'ending' }>): WorkflowStep {
  switch (event.type) {
    case 'open':
    case 'caller_turn':
      return { state, effects: [], took: true };
    case 'reply_done':
      return { state, effects: [], took: event.calls.some((call) => call.name === NEXT_STEP_TOOL) };
    case 'said':
      if (state.waiting !== 'say') return { state, effects: [], took: false };
      return { state: { ...state, waiting: undefined }, effects: [], took: true };
    case 'tool_done': {
      if (state.waiting !== 'tool') return { state, effects: [], took: false };
      const node = nodeOf(settings, state.node!);
      const variables = { ...state.variables };
      acting(node).resume?.(node, runOf(settings, variables), event);
      return { state: { ...state, waiting: undefined, variables }, effects: [], took: true };
    }
  }
}

/** The node is stuck: on to `on_stuck` (the model speaks there), or the call ends with the assistant's end message. */
function stuck(
  settings: WorkflowSettings,
  state: WorkflowState,
  node: WorkflowNode,
  talk: TalkingNode<WorkflowNode>,
  atMs: number,
  effects: WorkflowEffect[],
): Walk {
  const to = talk.onStuck(node);
  effects.push({ type: 'stuck', node: node.id, to });
  if (to !== null) return go(settings, state, to, true, atMs, effects);
  effects.push({ type: 'end', text: '' });
  return { state: { ...state, ended: true }, effects };
}

/** A new walk from `id`: acting nodes in a row until a talking node (the model then speaks, when `speak`), a wait, or the end. */
function go(settings: WorkflowSettings, state: WorkflowState, id: string, speak: boolean, atMs: number, effects: WorkflowEffect[]): Walk {
  return walk(settings, { ...state, acts: 0 }, id, speak, atMs, effects);
}

function walk(settings: WorkflowSettings, state: WorkflowState, id: string, speak: boolean, atMs: number, effects: WorkflowEffect[]): Walk {
  const node = nodeOf(settings, id);
  if (state.acts >= MAX_ACTS_IN_A_ROW || state.path.length >= MAX_WORKFLOW_PATH) {
    effects.push({ type: 'runaway', node: node.id }, { type: 'end', text: '' });
    return { state: { ...state, ended: true }, effects };
  }
  ({ state, effects } = enter(state, node, atMs, effects));
  if (talking(node)) {
    if (speak || state.acts > 0) effects.push({ type: 'reply' });
    return { state, effects };
  }
  const variables = { ...state.variables };
  const act = acting(node).act(node, runOf(settings, variables));
  return follow(settings, { ...state, variables }, act, atMs, effects);
}

/** The waiting node's result arrived: its next move. */
function resume(settings: WorkflowSettings, state: WorkflowState, result: NodeResult, atMs: number): Walk {
  const node = nodeOf(settings, state.node!);
  const behaviour = acting(node);
  if (!behaviour.resume) throw new Error(`A ${node.type} node waited without a resume.`);
  const variables = { ...state.variables };
  const act = behaviour.resume(node, runOf(settings, variables), result);
  return follow(settings, { ...state, waiting: undefined, variables }, act, atMs, []);
}

/** Carries out an acting node's move: wait for its effect's result, or on to its next node. */
function follow(settings: WorkflowSettings, state: WorkflowState, act: Act, atMs: number, effects: WorkflowEffect[]): Walk {
  if (act.effect) effects.push(act.effect);
  if ('wait' in act) return { state: { ...state, waiting: act.effect.type === 'say' ? 'say' : 'tool' }, effects };
  state = { ...state, acts: state.acts + 1, ended: state.ended || act.effect?.type === 'end' };
  if (act.next === null) return { state, effects };
  return walk(settings, state, act.next, false, atMs, effects);
}

function enter(state: WorkflowState, node: WorkflowNode, atMs: number, effects: WorkflowEffect[]): Walk {
  effects.push({ type: 'entered', node: node.id });
  const path = [...state.path, { node: node.id, at_ms: Math.max(0, Math.round(atMs)) }];
  return { state: { ...state, node: node.id, turns: 0, stepErrors: 0, path }, effects };
}

/** The node `id`: the graph was checked whole when saved (`workflowProblems`), so every target exists. */
function nodeOf(settings: WorkflowSettings, id: string): WorkflowNode {
  return settings.workflow.nodes.find((node) => node.id === id)!;
}

function talking(node: WorkflowNode): TalkingNode<WorkflowNode> | undefined {
  const behaviour = NODE_TYPES[node.type];
  return behaviour.kind === 'talk' ? (behaviour as unknown as TalkingNode<WorkflowNode>) : undefined;
}

/** The behaviour of an acting node (the caller checked it is not a talking one). */
function acting(node: WorkflowNode): ActingNode<WorkflowNode> {
  return NODE_TYPES[node.type] as unknown as ActingNode<WorkflowNode>;
}

function runOf(settings: WorkflowSettings, variables: Record<string, unknown>) {
  return runState(variables, settings.callVariables, settings.assistantVariables);
}

function toolResult(callId: string, output: Record<string, unknown>): WorkflowEffect {
  return { type: 'tool_result', callId, output: JSON.stringify(output) };
}

function parseArgs(json: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(json === '' ? '{}' : json);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
