import type { NodeOf, WorkflowNode } from '../../../../shared/domain/workflow';
import type { LlmToolDefinition } from '../../ports/language-model';

/** The platform's contract: the model leaves a node by calling this tool with `{step}` (docs/design.md "Workflows"). */
export const NEXT_STEP_TOOL = 'next_step';

/** What a node sees of the run: the variables, and `{{name}}` filling from them and the call's. */
export interface RunState {
  /** The run's variables for this step: a node may add to them (the reducer hands it a fresh copy). */
  readonly variables: Record<string, unknown>;
  /** The value of a variable: collected or a tool's, else the call's own. */
  value(name: string): unknown;
  fill(text: string): string;
}

/** What an acting node asks of the call; the call's reducer turns it into the call's effects (`../rules/parts.ts`). */
export type NodeEffect =
  | { type: 'say'; text: string }
  | { type: 'run_tool'; name: string; args: string }
  | { type: 'transfer'; number: string | null }
  | { type: 'end'; text: string };

/** What an acting node waited for: its words played (or cut by the caller), or its tool's output. */
export type NodeResult = { type: 'said' } | { type: 'tool_done'; ok: boolean; output: Record<string, unknown> };

/**
 * An acting node's move, decided at once: on to `next` (null: the run stops there) after an
 * optional effect that needs no answer, or an effect whose result the node waits for (its
 * `resume` then decides).
 */
export type Act =
  | { effect?: Extract<NodeEffect, { type: 'transfer' | 'end' }>; next: string | null }
  | { effect: Extract<NodeEffect, { type: 'say' | 'run_tool' }>; wait: true };

/** A node the engine carries out itself, synchronously: no I/O, the effects are the call's to carry out. */
export interface ActingNode<N extends WorkflowNode> {
  act(node: N, run: RunState): Act;
  /** The result its effect waited for arrived. */
  resume?(node: N, run: RunState, result: NodeResult): Act;
}

/** A node where the model talks with the caller, and leaves by `next_step`. */
export interface TalkingNode<N extends WorkflowNode> {
  /** The node's instructions, added to the assistant's prompt while the call is at it. */
  instructions(node: N, run: RunState): string;
  /** The `next_step` tool as offered at this node (`step` an enum of where it may go). */
  stepTool(node: N): LlmToolDefinition | undefined;
  /** The model's `next_step` arguments: where to go (values kept in `run.variables`), or what is wrong. */
  accept(node: N, args: Record<string, unknown>, run: RunState): { to: string } | { error: string };
  /** Caller turns the node may take, and where the call goes once they are spent (null: it ends). */
  maxTurns(node: N): number;
  onStuck(node: N): string | null;
}

/** One node type's behaviour: acting or talking. */
export type NodeBehaviour<N extends WorkflowNode> = ({ kind: 'act' } & ActingNode<N>) | ({ kind: 'talk' } & TalkingNode<N>);

/** The table of node types: a new type is one module and one entry here (node-types.ts). */
export type NodeTable = { [T in WorkflowNode['type']]: NodeBehaviour<NodeOf<T>> };

/** A `next_step` tool whose `step` is one of `targets`, with each one's condition in its description. */
export function stepTool(
  targets: readonly { to: string; when: string }[],
  extra: Record<string, unknown> = {},
  required: string[] = [],
): LlmToolDefinition {
  const unique = [...new Map(targets.map((target) => [target.to, target])).values()];
  return {
    name: NEXT_STEP_TOOL,
    description: 'Move the call to the next step of the workflow once its condition holds.',
    parameters: {
      type: 'object',
      properties: {
        step: {
          type: 'string',
          enum: unique.map((target) => target.to),
          description: ['The step to go to:', ...unique.map((target) => `- ${target.to}: ${target.when}`)].join('\n'),
        },
        ...extra,
      },
      required: ['step', ...required],
      additionalProperties: false,
    },
  };
}
