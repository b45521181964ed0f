import type { LlmToolCall } from '../ports/language-model';
import type { CallPolicy, NamedCall } from './call-policy';
import type { ChatHistory } from './chat-history';
import type { ConversationDeps } from './conversation';
import type { ConversationBaseDeps } from './session-types';
import type { WorkflowHost } from './workflow/node-type';
import { WorkflowRun, type WorkflowRunDeps } from './workflow/workflow-run';

/**
 * What a standard conversation lends its workflow run. The policy and history are read when a node
 * acts, not when the run is built: the conversation builds its run before them.
 */
export interface WorkflowSeat {
  deps: ConversationDeps;
  policy(): CallPolicy<LlmToolCall>;
  history(): ChatHistory;
  /** The caller is mid-turn. */
  callerSpeaking(): boolean;
  /** Starts a model reply. */
  reply(): void;
  /** The assistant went quiet: answer words held meanwhile, or start the silence clock. */
  settle(): void;
  /** A workflow's fixed words, as an assistant turn of their own (barge-in cuts them, in history too). */
  sayStep(text: string): Promise<void>;
}

/** The call's run of its workflow (docs/design.md "Workflows"), its nodes acting through the conversation. */
export function conversationWorkflowRun(workflow: NonNullable<ConversationDeps['context']['workflow']>, seat: WorkflowSeat): WorkflowRun {
  return new WorkflowRun({
    ...runBasics(seat.deps, seat.policy),
    workflow,
    host: workflowHost(seat),
    // A caller mid-turn (one who cut a `say` short) is answered when the turn ends, not talked over.
    reply: () => (seat.callerSpeaking() ? undefined : void seat.reply()),
    toolResult: (callId, output) => seat.history().toolResult(callId, output),
    settle: () => seat.settle(),
  });
}

/** What a run gets alike from either conversation kind: the call's variables, clock and log, and whether it is ending. */
export function runBasics(
  deps: ConversationBaseDeps,
  policy: () => Pick<CallPolicy, 'pendingReason'>,
): Pick<WorkflowRunDeps, 'ending' | 'callVariables' | 'assistantVariables' | 'now' | 't0' | 'log' | 'callId'> {
  const { context, now, t0, log } = deps;
  return {
    ending: () => policy().pendingReason !== undefined,
    callVariables: context.call.variables ?? {},
    // The assistant's variables over the call's built-in ones (`{{direction}}`, …): the same values the greeting and prompt get.
    assistantVariables: context.script.variables,
    now,
    t0,
    log,
    callId: context.call.id,
  };
}

/**
 * The acting parts of a host alike in either conversation kind: a tool node runs on the call's
 * runner (its line in the transcript, the call's `actions` keep it); an end says its words, if
 * any, as a step of the workflow, then ends the call (with the end message when it has none).
 */
export function sharedHost<Call extends NamedCall>(
  deps: ConversationBaseDeps,
  policy: () => CallPolicy<Call>,
  say: (text: string) => Promise<void>,
): Pick<WorkflowHost, 'runTool' | 'end'> {
  return {
    runTool: async (name, args) => {
      const { output, line } = await deps.tools.runWithLine({ name, arguments: args });
      policy().log.tool(line, deps.now());
      const parsed = JSON.parse(output) as Record<string, unknown>;
      return { ok: !Object.hasOwn(parsed, 'error'), output: parsed };
    },
    end: async (text) => {
      if (text !== '') await say(text);
      await policy().endCall('assistant_ended', { goodbye: text === '' });
    },
  };
}

/** What a workflow's acting nodes do on this call: speak, run tools, transfer, end. */
function workflowHost(seat: WorkflowSeat): WorkflowHost {
  return {
    ...sharedHost(seat.deps, seat.policy, (text) => seat.sayStep(text)),
    say: (text) => seat.sayStep(text),
    transfer: (number) => {
      if (number) seat.deps.context.transferNumber = number;
      const call = { id: `workflow_transfer_${seat.deps.now()}`, name: 'transfer', arguments: '{}' };
      // The model's history must hold the call a failed transfer's result answers.
      seat.history().push({ role: 'assistant', content: null, toolCalls: [call] });
      seat.policy().afterReply('', [call]);
    },
  };
}
