import type { NodeOf, WorkflowNode } from '../../../../shared/domain/workflow';
import type { LlmToolDefinition } from '../../ports/language-model';

/** The platform's contract: the model leaves a node by calling this tool with `{step}` (docs/design.md "Workflows"). */
export const NEXT_STEP_TOOL = 'next_step';

/** What a node may ask of the call while the engine acts on it (the conversation provides it). */
export interface WorkflowHost {
  /** Says fixed words as an assistant turn (barge-in cuts them); resolves once played or cut. */
  say(text: string): Promise<void>;
  /** Runs a tool on the call's runner; its line goes to the transcript, the call's `actions` keep it. */
  runTool(name: string, args: string): Promise<{ ok: boolean; output: Record<string, unknown> }>;
  /** Transfers the caller (to `number`, else the profile's transfer number). */
  transfer(number: string | null): void;
  /** Ends the call: after `text` when given, else with the assistant's end message. */
  end(text: string): Promise<void>;
}

/** What a node sees of the run: the variables, and `{{name}}` filling from them and the call's. */
export interface RunState {
  readonly variables: Record<string, unknown>;
  /** The value of a variable: collected or a tool's, else the call's own. */
  value(name: string): unknown;
  fill(text: string): string;
  readonly host: WorkflowHost;
}

/** A node the engine carries out itself: it returns the node to go to, or null once the call ends. */
export interface ActingNode<N extends WorkflowNode> {
  act(node: N, run: RunState): Promise<string | null>;
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
