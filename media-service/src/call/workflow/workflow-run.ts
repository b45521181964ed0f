import { storableJson } from '../../../../shared/domain/storable-json';
import { fillVariables } from '../../../../shared/domain/call-script';
import { MAX_WORKFLOW_PATH, type CallWorkflow, type Workflow, type WorkflowNode } from '../../../../shared/domain/workflow';
import type { Logger } from '../../../../shared/log';
import type { LlmRequest, LlmToolCall, LlmToolDefinition } from '../../ports/language-model';
import { NEXT_STEP_TOOL, type NodeBehaviour, type RunState, type TalkingNode, type WorkflowHost } from './node-type';
import { NODE_TYPES } from './node-types';

/** Nodes the engine may act on in a row without the caller speaking; a workflow cycling through acting nodes ends. */
const MAX_ACTS_IN_A_ROW = 25;

/** Failed `next_step` calls in a row (no caller turn between) after which the node counts as stuck. */
const MAX_STEP_ERRORS = 2;

/** What the run needs besides its conversation. */
export interface WorkflowRunDeps {
  workflow: Workflow;
  host: WorkflowHost;
  /** Asks the model for a reply now (the model opens a talking node, or tries again). */
  reply(): void;
  /** Gives the model a tool call's result. */
  toolResult(callId: string, output: string): void;
  /** Nothing more to say now: the conversation waits for the caller (the silence clock runs). */
  settle(): void;
  /** The call is ending: the run does nothing more. */
  ending(): boolean;
  /** The call entered a node (live mode steers its session from {@link WorkflowRun.steering} here). */
  entered?(): void;
  callVariables: Readonly<Record<string, string>>;
  assistantVariables: Readonly<Record<string, string>>;
  now: () => number;
  /** Clock ms of the call's start (`at_ms` is relative to it). */
  t0: number;
  log: Logger;
  callId: number;
}

/**
 * One call's walk through its workflow (docs/design.md "Workflows"): an interpreter over either
 * conversation (standard or live), not a second engine. Acting nodes (say, branch, tool, transfer,
 * end) run here in a row; at a talking node (conversation, collect) the model talks with the node's
 * instructions and `next_step` added (to each request in standard mode, to the live session on
 * entering the node), and leaves when it calls `next_step`. Each
 * talking node answers at most its `max_turns` caller turns; the next one takes `on_stuck` (or
 * ends the call), so a call never loops forever.
 */
export class WorkflowRun {
  readonly #d: WorkflowRunDeps;
  readonly #nodes: Map<string, WorkflowNode>;
  readonly #path: CallWorkflow['path'] = [];
  readonly #variables: Record<string, unknown> = {};
  readonly #state: RunState;
  #node: WorkflowNode | undefined;
  #turns = 0;
  #stepErrors = 0;
  /** Acting nodes are running: the caller's words wait in the history for the next talking node. */
  #acting = false;

  constructor(deps: WorkflowRunDeps) {
    this.#d = deps;
    this.#nodes = new Map(deps.workflow.nodes.map((node) => [node.id, node]));
    const variables = this.#variables;
    this.#state = {
      variables,
      host: deps.host,
      value: (name) => lookup(variables, name) ?? (Object.hasOwn(deps.callVariables, name) ? deps.callVariables[name] : undefined),
      fill: (text) => fillVariables(text, { ...deps.callVariables, ...flatten(variables) }, deps.assistantVariables),
    };
  }

  /**
   * The call starts (its greeting is due, or the caller spoke first): at a talking start node the
   * greeting opens it and false is returned; an acting start node runs now instead (true).
   */
  open(): boolean {
    if (this.#node !== undefined) return false;
    const start = this.#nodes.get(this.#d.workflow.start)!;
    if (this.#talking(start)) {
      this.#enter(start);
      return false;
    }
    void this.#go(start.id, false);
    return true;
  }

  /** The caller finished a turn (already in the history): true when the run takes care of it (the conversation must not answer). */
  callerTurn(): boolean {
    if (this.#node === undefined && this.open()) return true;
    if (this.#acting) return true;
    const node = this.#node;
    const talk = node && this.#talking(node);
    if (!node || !talk) return false;
    this.#stepErrors = 0;
    if (++this.#turns <= talk.maxTurns(node as never)) return false;
    this.#stuck(node, talk);
    return true;
  }

  /**
   * A reply played to the end: its `next_step` moves the call on (true); without one the
   * conversation goes on as usual (its other tools, end phrases).
   */
  afterReply(calls: readonly LlmToolCall[]): boolean {
    const step = calls.find((call) => call.name === NEXT_STEP_TOOL);
    if (!step) return false;
    for (const call of calls) {
      if (call !== step) this.#d.toolResult(call.id, JSON.stringify({ error: `Not run: ${NEXT_STEP_TOOL} came first.` }));
    }
    const node = this.#node;
    const talk = node && this.#talking(node);
    if (!node || !talk) {
      this.#d.toolResult(step.id, JSON.stringify({ error: 'There is no step to leave now.' }));
      this.#d.settle();
      return true;
    }
    const outcome = talk.accept(node as never, parseArgs(step.arguments), this.#state);
    if ('to' in outcome) {
      this.#d.toolResult(step.id, JSON.stringify({ ok: true, step: outcome.to }));
      void this.#go(outcome.to, true);
      return true;
    }
    this.#d.toolResult(step.id, JSON.stringify({ error: outcome.error }));
    if (++this.#stepErrors >= MAX_STEP_ERRORS) this.#stuck(node, talk);
    else this.#d.reply();
    return true;
  }

  /** The model request at the current node: its instructions after the assistant's prompt, and `next_step`. */
  shape(request: LlmRequest): LlmRequest {
    const steering = this.steering();
    if (!steering) return request;
    const [system, ...rest] = request.messages;
    return {
      ...request,
      messages: [system!, { role: 'system', content: steering.instructions }, ...rest],
      ...(steering.tool && { tools: [...(request.tools ?? []), steering.tool] }),
    };
  }

  /**
   * What the model is told at the current node: its instructions and its `next_step` tool
   * (undefined at an acting node). Read fresh each time: a collect's instructions list the fields
   * still missing. Before the call enters its start node, a talking start node steers already: the
   * greeting or the caller's first turn enters it, and a reply made earlier (an eager guess, the
   * live session's first reply to a caller who speaks first) must follow it too.
   */
  steering(): { instructions: string; tool: LlmToolDefinition | undefined } | undefined {
    const node = this.#node ?? this.#nodes.get(this.#d.workflow.start);
    const talk = node && this.#talking(node);
    if (!node || !talk) return undefined;
    return { instructions: talk.instructions(node as never, this.#state), tool: talk.stepTool(node as never) };
  }

  /** The run as the call records it. */
  view(): CallWorkflow {
    return {
      id: this.#d.workflow.id,
      path: this.#path.map((step) => ({ ...step })),
      variables: storableJson(this.#variables) as Record<string, unknown>,
    };
  }

  #talking(node: WorkflowNode): TalkingNode<WorkflowNode> | undefined {
    const behaviour = NODE_TYPES[node.type];
    return behaviour.kind === 'talk' ? (behaviour as unknown as TalkingNode<WorkflowNode>) : undefined;
  }

  #enter(node: WorkflowNode): void {
    this.#node = node;
    this.#turns = 0;
    this.#stepErrors = 0;
    this.#path.push({ node: node.id, at_ms: Math.max(0, Math.round(this.#d.now() - this.#d.t0)) });
    this.#d.entered?.();
  }

  /** The node is stuck: on to `on_stuck`, or the call ends with the assistant's end message. */
  #stuck(node: WorkflowNode, talk: TalkingNode<WorkflowNode>): void {
    const to = talk.onStuck(node as never);
    this.#d.log.info('call.workflow.stuck', { call_id: this.#d.callId, node: node.id, to });
    if (to !== null) return void this.#go(to, true);
    void this.#d.host.end('');
  }

  /** Enters `id` and acts on acting nodes in a row until a talking node (the model then speaks, when `speak`) or the end. */
  async #go(id: string, speak: boolean): Promise<void> {
    this.#acting = true;
    try {
      let next: string | null = id;
      for (let acts = 0; next !== null; acts++) {
        if (this.#d.ending()) return;
        const node: WorkflowNode = this.#nodes.get(next)!;
        if (acts >= MAX_ACTS_IN_A_ROW || this.#path.length >= MAX_WORKFLOW_PATH) {
          this.#d.log.warn('call.workflow.runaway', { call_id: this.#d.callId, node: node.id });
          await this.#d.host.end('');
          return;
        }
        this.#enter(node);
        const behaviour = NODE_TYPES[node.type] as NodeBehaviour<WorkflowNode>;
        if (behaviour.kind === 'talk') {
          if (speak || acts > 0) this.#d.reply();
          return;
        }
        next = await behaviour.act(node, this.#state);
      }
    } finally {
      this.#acting = false;
    }
  }
}

function parseArgs(json: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(json === '' ? '{}' : json);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** `a.b` reads into a tool's result (`{{check.available}}`); own keys only. */
function lookup(variables: Record<string, unknown>, name: string): unknown {
  let value: unknown = variables;
  for (const part of name.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** The variables as `{{name}}` texts: plain values as they read, a tool's result by its fields (`node.field`). */
function flatten(variables: Record<string, unknown>, prefix = ''): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(variables)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      Object.assign(flat, flatten(value as Record<string, unknown>, `${prefix}${name}.`));
    else flat[`${prefix}${name}`] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return flat;
}
