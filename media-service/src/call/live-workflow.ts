import type { CallWorkflow, Workflow } from '../../../shared/domain/workflow';
import type { LlmToolDefinition } from '../ports/language-model';
import type { S2sSession } from '../ports/speech-to-speech';
import type { CallPolicy } from './call-policy';
import { runBasics, sharedHost } from './conversation-workflow';
import { verbatim, type Reply } from './live-responses';
import type { ConversationBaseDeps } from './session-types';
import { WorkflowRun } from './workflow/workflow-run';

/** A tool call of a live reply. */
type LiveCall = Reply['calls'][number];

/**
 * What a live conversation lends its workflow run. The policy and session are read when a node
 * acts, not when the run is built: the conversation builds its run before them.
 */
export interface LiveWorkflowSeat {
  deps: ConversationBaseDeps;
  policy(): CallPolicy<LiveCall>;
  session(): S2sSession | undefined;
  /** The caller is mid-turn (server VAD). */
  callerSpeaking(): boolean;
  /** Asks for a response of ours (a notice still due goes first); settles once played, cut or dropped. */
  request(kind: 'reply', instructions?: string): Promise<void>;
  /** Stops a reply (the provider's own, started on the caller's turn). */
  cancel(reply: Reply): void;
}

/**
 * A live call's run of its workflow (docs/design.md "Workflows", "Live mode"): the same
 * {@link WorkflowRun} as in standard mode, so the path and the variables are the same. What
 * differs is how the model is steered. Realtime answers a caller's turn on its own, with the
 * session's instructions and tools, so on entering each node the session is updated (the
 * assistant's prompt plus the node's instructions; the call's tools plus `next_step`), where
 * standard mode shapes each request. And the caller's turn reaches the run when the provider
 * starts its reply to it: a turn the run takes (acting nodes running, a node out of turns) cancels
 * that reply before it is heard.
 */
export class LiveWorkflow {
  readonly #seat: LiveWorkflowSeat;
  readonly #run: WorkflowRun;
  /** The instructions and step tool last given to the session (the session opens with the prompt and no step). */
  #steered: string;
  /** The verbatim instructions of the workflow's own lines now being said (a multiset: the same line may repeat). */
  readonly #saying = new Map<string, number>();

  constructor(workflow: Workflow, seat: LiveWorkflowSeat) {
    this.#seat = seat;
    this.#steered = steeringKey(seat.deps.context.script.systemPrompt, undefined);
    const say = (text: string) => this.#say(text);
    this.#run = new WorkflowRun({
      ...runBasics(seat.deps, seat.policy),
      workflow,
      host: {
        ...sharedHost(seat.deps, seat.policy, say),
        say,
        transfer: (number) => this.#transfer(number),
      },
      // A caller mid-turn (one who cut a `say` short) is answered when the turn ends, by the provider.
      reply: () => (seat.callerSpeaking() ? undefined : this.#reply()),
      toolResult: (callId, output) => seat.session()?.sendFunctionOutput(callId, output, false),
      settle: () => seat.policy().armSilence(),
      entered: () => this.steer(),
    });
  }

  /** The greeting is due: true when an acting start node runs instead (see {@link WorkflowRun.open}). */
  open(): boolean {
    return this.#run.open();
  }

  /**
   * The provider started `reply` on its own: the caller's turn ended. True when the run took the
   * turn (acting nodes are running, or the node is out of turns): the reply is cancelled before it
   * is heard, and the run says what comes next.
   */
  callerTurn(reply: Reply): boolean {
    if (!this.#run.callerTurn()) return false;
    this.#seat.cancel(reply);
    return true;
  }

  /**
   * A reply of this call played to the end: one of the workflow's own lines is done (nothing more
   * to act on: the run goes on), and a `next_step` moves the call on. True when the conversation
   * must not act on the reply itself.
   */
  afterReply(reply: Reply): boolean {
    if (reply.requested && reply.instructions !== undefined && this.#saying.has(reply.instructions)) return true;
    const taken = this.#run.afterReply(reply.calls.map((call) => ({ id: call.callId, name: call.name, arguments: call.arguments })));
    // A collect's instructions list the fields still missing: values kept by a refused `next_step` change them.
    this.steer();
    return taken;
  }

  /** The run as the call records it. */
  view(): CallWorkflow {
    return this.#run.view();
  }

  /** A workflow's fixed words, said verbatim as a response of their own. */
  async #say(text: string): Promise<void> {
    this.#seat.policy().cancelSilence();
    const instructions = verbatim(text);
    this.#saying.set(instructions, (this.#saying.get(instructions) ?? 0) + 1);
    try {
      await this.#seat.request('reply', instructions);
    } finally {
      const left = this.#saying.get(instructions)! - 1;
      if (left === 0) this.#saying.delete(instructions);
      else this.#saying.set(instructions, left);
    }
  }

  #reply(): void {
    this.steer();
    void this.#seat.request('reply');
  }

  /** A transfer node: the provider's conversation gets the call first, so a failed transfer's output answers it. */
  #transfer(number: string | null): void {
    const { deps } = this.#seat;
    if (number) deps.context.transferNumber = number;
    const call = { callId: `workflow_transfer_${deps.now()}`, name: 'transfer', arguments: '{}' };
    this.#seat.session()?.sendFunctionCall(call);
    this.#seat.policy().afterReply('', [call]);
  }

  /**
   * Gives the session the current node's instructions and tools, when they changed. Called once the
   * session opens too: a talking start node steers the provider's first reply, which may come
   * before the greeting (a caller who speaks first).
   */
  steer(): void {
    const steering = this.#run.steering();
    const { script, tools } = this.#seat.deps.context;
    const key = steeringKey(script.systemPrompt, steering);
    if (key === this.#steered) return;
    this.#steered = key;
    this.#seat.session()?.steer({
      instructions: steering ? `${script.systemPrompt}\n\n${steering.instructions}` : script.systemPrompt,
      tools: steering?.tool ? [...tools, steering.tool] : tools,
    });
  }
}

/** The run of `context.workflow` on a live call, or undefined when the assistant has none. */
export function liveWorkflow(seat: LiveWorkflowSeat): LiveWorkflow | undefined {
  const { workflow } = seat.deps.context;
  return workflow && new LiveWorkflow(workflow, seat);
}

function steeringKey(prompt: string, steering: { instructions: string; tool: LlmToolDefinition | undefined } | undefined): string {
  return JSON.stringify([prompt, steering?.instructions ?? null, steering?.tool ?? null]);
}
