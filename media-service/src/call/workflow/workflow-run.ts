import type { CallWorkflow, Workflow } from '../../../../shared/domain/workflow';
import type { Logger } from '../../../../shared/log';
import type { LlmRequest, LlmToolCall, LlmToolDefinition } from '../../ports/language-model';
import {
  reduceWorkflow,
  WORKFLOW_START,
  workflowSteering,
  workflowView,
  type WorkflowEffect,
  type WorkflowEvent,
  type WorkflowSettings,
  type WorkflowState,
} from '../rules/workflow';
import type { WorkflowHost } from './node-type';

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
 * conversation (standard or live), not a second engine. The rules are the pure reducer
 * `../rules/workflow.ts`; this class holds its state, feeds it the conversation's events, and
 * carries out its effects through the deps: a node's words through `host.say` (then `said`), its
 * tool through `host.runTool` (then `tool_done`), a model reply, a tool result, a transfer, the
 * end. Once the call is ending (`deps.ending()`), the reducer hears `ending` before the next event,
 * so the run does nothing more.
 */
export class WorkflowRun {
  readonly #d: WorkflowRunDeps;
  readonly #settings: WorkflowSettings;
  #state: WorkflowState = WORKFLOW_START;
  /**
   * The node whose `entered` effect is being carried out. One event may pass several nodes (a
   * branch, then a talking node) and the state is already at the last; live mode steers its
   * session at each, back to the plain prompt at an acting one (docs/design.md "Workflows").
   */
  #entering: string | undefined;
  /**
   * The steering last read, with the node and variables it was read from: steering depends on
   * nothing else, and the reducer never changes a variables object (it makes a new one), so a
   * caller turn or a tool round at the same node reuses it (each model request reads it).
   */
  #steered: { node: string | undefined; variables: object; steering: ReturnType<typeof workflowSteering> } | undefined;

  constructor(deps: WorkflowRunDeps) {
    this.#d = deps;
    this.#settings = { workflow: deps.workflow, callVariables: deps.callVariables, assistantVariables: deps.assistantVariables };
  }

  /**
   * The call starts (its greeting is due, or the caller spoke first): at a talking start node the
   * greeting opens it and false is returned; an acting start node runs now instead (true).
   */
  open(): boolean {
    return this.#feed({ type: 'open', atMs: this.#at() });
  }

  /** The caller finished a turn (already in the history): true when the run takes care of it (the conversation must not answer). */
  callerTurn(): boolean {
    return this.#feed({ type: 'caller_turn', atMs: this.#at() });
  }

  /**
   * A reply played to the end: its `next_step` moves the call on (true); without one the
   * conversation goes on as usual (its other tools, end phrases).
   */
  afterReply(calls: readonly LlmToolCall[]): boolean {
    return this.#feed({ type: 'reply_done', calls, atMs: this.#at() });
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
   * What the model is told at the current node (see {@link workflowSteering}); undefined at an
   * acting node. Within the `entered` callback, the node just entered.
   */
  steering(): { instructions: string; tool: LlmToolDefinition | undefined } | undefined {
    if (this.#entering !== undefined) return workflowSteering(this.#settings, { ...this.#state, node: this.#entering });
    const { node, variables } = this.#state;
    const last = this.#steered;
    if (last && last.node === node && last.variables === variables) return last.steering;
    const steering = workflowSteering(this.#settings, this.#state);
    this.#steered = { node, variables, steering };
    return steering;
  }

  /** The run as the call records it. */
  view(): CallWorkflow {
    return workflowView(this.#settings, this.#state);
  }

  /** Ms since the call's start: the reducer's clock. */
  #at(): number {
    return this.#d.now() - this.#d.t0;
  }

  /** Feeds `event` (after `ending`, once the call ends) and carries out its effects in order; returns whether the run took it. */
  #feed(event: WorkflowEvent): boolean {
    if (!this.#state.ended && this.#d.ending()) this.#step({ type: 'ending' });
    return this.#step(event);
  }

  #step(event: WorkflowEvent): boolean {
    const step = reduceWorkflow(this.#settings, this.#state, event);
    this.#state = step.state;
    for (const effect of step.effects) this.#carry(effect);
    return step.took;
  }

  #entered(node: string): void {
    this.#entering = node;
    try {
      this.#d.entered?.();
    } finally {
      this.#entering = undefined;
    }
  }

  #carry(effect: WorkflowEffect): void {
    const { host, log, callId } = this.#d;
    switch (effect.type) {
      case 'say':
        return void host.say(effect.text).then(() => this.#feed({ type: 'said', atMs: this.#at() }));
      case 'run_tool':
        return void host
          .runTool(effect.name, effect.args)
          .then(({ ok, output }) => this.#feed({ type: 'tool_done', ok, output, atMs: this.#at() }));
      case 'transfer':
        return host.transfer(effect.number);
      case 'end':
        return void host.end(effect.text);
      case 'reply':
        return this.#d.reply();
      case 'tool_result':
        return this.#d.toolResult(effect.callId, effect.output);
      case 'settle':
        return this.#d.settle();
      case 'entered':
        return this.#entered(effect.node);
      case 'stuck':
        return log.info('call.workflow.stuck', { call_id: callId, node: effect.node, to: effect.to });
      case 'runaway':
        return log.warn('call.workflow.runaway', { call_id: callId, node: effect.node });
    }
  }
}
