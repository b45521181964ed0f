import type { CallRecord, StreamRefusal } from '../ports/call-records';
import { defaultAssistantConfig, type AssistantConfig } from '../../../shared/domain/assistant-config';
import type { BusinessProfile } from '../../../shared/domain/business-profile';
import { buildCallScript, offeredBuiltins, type CallScript } from '../../../shared/domain/call-script';
import { CallKnowledge } from '../tools/search-knowledge';
import { offeredTools } from '../tools/registry';
import { CallAllowance } from '../tools/call-allowance';
import type { FaultListener } from '../ports/provider-faults';
import { ToolRunner } from '../tools/tool-runner';
import { loadCustomTools } from '../tools/custom-tools';
import type { RunnableTool } from '../tools/tool-types';
import type { LlmToolDefinition } from '../ports/language-model';
import type { CallSessionDeps, SessionStart } from './session-types';
import type { Workflow } from '../../../shared/domain/workflow';
import type { ToolAction } from '../../../shared/domain/tool-action';
import { workflowBuiltins } from './workflow/workflow-source';

/** What a session knows about its call before the conversation starts. */
export interface CallContext {
  call: CallRecord;
  config: AssistantConfig;
  script: CallScript;
  /** Where `transfer` connects the caller ('' when the business set none). */
  transferNumber: string;
  /** The other party's number (the caller inbound, the callee outbound). */
  partyNumber: string;
  tools: LlmToolDefinition[];
  /** The tools the runner may execute: the offered built-ins that run a back end (`take_message`, …), then the custom tools. */
  actionTools: RunnableTool<any>[];
  profile: BusinessProfile | null;
  /** The assistant's sealed `custom_key` (provider `custom`), opened only by the language-model factory. */
  customKeySealed?: string;
  /** The business's sealed payment provider key, opened only by the payment-links adapter. */
  paymentKeySealed?: string;
  /** search_knowledge and its speculative retrieval, when offered. */
  knowledge?: CallKnowledge;
  /** The assistant's workflow (`workflow_id`, either mode), loaded once when the call starts. */
  workflow?: Workflow;
}

/** Why a stream gets no conversation. */
export type ContextRefusal = StreamRefusal;

/**
 * Attaches the stream to its call (one conditional write that also returns the call), then loads
 * the assistant's config, the business profile and (with `memory`) the caller's earlier calls, and
 * derives the call's script. Refuses, writing nothing, streams for unknown or ended calls, or a
 * stream whose carrier call differs from the one we placed (a replayed token).
 */
export async function loadCallContext(deps: CallSessionDeps, input: SessionStart): Promise<CallContext | ContextRefusal> {
  const { businessId, callId } = input.claims;
  const call = await deps.calls.attachStream(businessId, callId, input.start.callSid, new Date().toISOString());
  if (typeof call === 'string') return call;
  const [assistant, business] = await Promise.all([
    deps.assistants.findAssistant(businessId, call.assistant_id),
    deps.businesses.getBusiness(businessId),
  ]);
  const config = assistant?.config ?? defaultAssistantConfig();
  const partyNumber = call.direction === 'inbound' ? call.from_number : call.to_number;
  const remember = config.advanced.memory && !config.advanced.hipaa;
  // Custom tools (and the workflow, whose tool nodes may name more) load here, once per call, beside the memory: never on a turn.
  const [memory, { custom, workflow }] = await Promise.all([
    remember ? deps.recallMemory(businessId, partyNumber).catch(() => '') : '',
    loadToolsAndWorkflow(deps, call, business.webhook_secret_sealed, config),
  ]);
  const profile = business.profile ?? null;
  const paymentKeySealed = business.payment_key_sealed;
  const backEnds = {
    paymentLinks: deps.toolPorts.payments?.accepts({ businessId, keySealed: paymentKeySealed }) ?? false,
    knowledge: deps.knowledge !== undefined,
    // A web call has no carrier to redirect it: the model is never offered a transfer there.
    phoneLine: call.channel !== 'web',
  };
  const now = deps.wallClock?.() ?? new Date();
  const script = buildCallScript({
    config,
    callVariables: call.variables ?? {},
    profile,
    memory,
    direction: call.direction,
    partyNumber,
    backEnds,
    now,
  });
  const transferNumber = profile?.transfer_number ?? '';
  const offered = offeredTools(config, profile, backEnds);
  const knowledge =
    deps.knowledge && offeredBuiltins(config, profile, backEnds).knowledge
      ? new CallKnowledge(deps.knowledge, businessId, config.knowledge_ids ?? [], deps.log.child({ call_id: call.id }))
      : undefined;
  const knowledgeTools = knowledge ? [knowledge.tool] : [];
  return {
    call,
    config,
    script,
    transferNumber,
    partyNumber,
    tools: [...offered.definitions, ...knowledgeTools.map((tool) => tool.definition), ...custom.map((tool) => tool.definition)],
    actionTools: [...offered.actions, ...knowledgeTools, ...(workflow ? workflowBuiltins(workflow, offered.actions) : []), ...custom],
    ...(knowledge && { knowledge }),
    profile,
    ...(assistant?.custom_key_sealed && { customKeySealed: assistant.custom_key_sealed }),
    ...(paymentKeySealed && { paymentKeySealed }),
    ...(workflow && { workflow }),
  };
}

/** The assistant's workflow and the custom tools of its `tool_ids` and of the workflow's `tool` nodes. */
async function loadToolsAndWorkflow(
  deps: CallSessionDeps,
  call: CallContext['call'],
  sealedSecret: string,
  config: AssistantConfig,
): Promise<{ custom: RunnableTool<any>[]; workflow?: Workflow }> {
  const found =
    deps.workflows && config.workflow_id !== null
      ? await deps.workflows.load(call.business_id, config.workflow_id).catch((error: unknown) => {
          deps.log.error('call.workflow.load_failed', { call_id: call.id, error });
          return undefined;
        })
      : undefined;
  const toolIds = [...new Set([...config.tool_ids, ...(found?.toolIds ?? [])])];
  const custom =
    deps.customTools && toolIds.length > 0
      ? await loadCustomTools({ call, sealedSecret, backend: deps.customTools, log: deps.log }, toolIds).catch((error: unknown) => {
          // The call goes on with the built-ins: a caller hears an assistant that cannot look things up, not a dead line.
          deps.log.error('call.tool.load_failed', { call_id: call.id, error });
          return [];
        })
      : [];
  return { custom, ...(found && { workflow: found.workflow }) };
}

/** The runner of one call's built-in tools: the tools it offers, on the process's back ends. */
export function toolRunnerFor(
  deps: CallSessionDeps,
  context: CallContext,
  t0: number,
  onFault?: FaultListener,
  onRecord?: (action: ToolAction) => void,
): ToolRunner {
  const { call, config, profile, partyNumber, paymentKeySealed } = context;
  return new ToolRunner({
    tools: context.actionTools,
    context: {
      businessId: call.business_id,
      callId: call.id,
      assistantId: call.assistant_id,
      partyNumber,
      businessNumber: call.direction === 'inbound' ? call.to_number : call.from_number,
      allowance: new CallAllowance(),
      profile,
      ...(paymentKeySealed && { paymentKeySealed }),
      config,
      ports: deps.toolPorts,
    },
    now: deps.now,
    t0,
    timers: deps.timers,
    log: deps.log,
    ...(onFault && { onFault }),
    ...(onRecord && { onRecord }),
  });
}
