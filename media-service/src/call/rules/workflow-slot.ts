import type { CallWorkflow } from '../../../../shared/domain/workflow';
import type { LlmToolDefinition } from '../../ports/language-model';

/**
 * What the call's reducer needs of the workflow interpreter (`./workflow.ts`): the same pure
 * shape, `(state, event) → { state, effects, took }`. `took`: the event was the workflow's (a
 * caller turn it answers itself, a reply whose `next_step` it acts on), so the call's own rules
 * leave it alone. Kept apart so the call's rules read without the interpreter's node types.
 */

/** The interpreter's state, opaque to the call's rules. */
export type WorkflowState = { readonly kind: 'workflow' } & Record<string, unknown>;

/** A tool call as the workflow sees it (the live session's call ids become `id`). */
export interface WorkflowCall {
  id: string;
  name: string;
  arguments: string;
}

/** `atMs`: ms since the call started (the path's times). */
export type WorkflowEvent =
  | { type: 'open'; atMs: number }
  | { type: 'caller_turn'; atMs: number }
  | { type: 'reply_done'; calls: readonly WorkflowCall[]; atMs: number }
  | { type: 'said'; atMs: number }
  | { type: 'tool_done'; ok: boolean; output: Record<string, unknown>; atMs: number }
  | { type: 'ending' };

export type WorkflowEffect =
  | { type: 'say'; text: string }
  | { type: 'run_tool'; name: string; args: string }
  | { type: 'reply' }
  | { type: 'tool_result'; callId: string; output: string }
  | { type: 'settle' }
  | { type: 'transfer'; number: string | null }
  | { type: 'end'; text: string }
  | { type: 'entered'; node: string };

export interface WorkflowStep {
  state: WorkflowState;
  effects: WorkflowEffect[];
  took: boolean;
}

/** What the model is told at the current node: its instructions and its `next_step` tool (none at an acting node). */
export interface WorkflowSteering {
  instructions: string;
  tool: LlmToolDefinition | undefined;
}

/** The workflow's rules, bound to the call's workflow and variables. */
export interface WorkflowRules {
  start: WorkflowState;
  reduce(state: WorkflowState, event: WorkflowEvent): WorkflowStep;
  steering(state: WorkflowState): WorkflowSteering | undefined;
  view(state: WorkflowState): CallWorkflow;
}
