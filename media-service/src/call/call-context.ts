import type { CallRecord, StreamRefusal } from '../../../shared/db/call-repository';
import { defaultAssistantConfig, type AssistantConfig } from '../../../shared/domain/assistant-config';
import type { BusinessProfile } from '../../../shared/domain/business-profile';
import { buildCallScript, offeredBuiltins, type CallScript } from '../../../shared/domain/call-script';
import type { LlmToolDefinition } from '../ports/language-model';
import type { CallSessionDeps, SessionStart } from './session-types';

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
  /** The assistant's sealed `custom_key` (provider `custom`), opened only by the language-model factory. */
  customKeySealed?: string;
}

/** Why a stream gets no conversation. */
export type ContextRefusal = StreamRefusal;

/** The built-in tools this engine runs today; the others (booking, messages…) come later and are never offered unbuilt. */
export function builtinTools(config: AssistantConfig, profile: BusinessProfile | null): LlmToolDefinition[] {
  const offered = offeredBuiltins(config, profile);
  const tools: LlmToolDefinition[] = [];
  if (offered.endCall) {
    tools.push({
      name: 'end_call',
      description: 'Hang up the call. Use it only after the conversation is finished and you have said goodbye.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
    });
  }
  if (offered.transfer) {
    tools.push({
      name: 'transfer',
      description: 'Transfer the caller to a person on the team. Tell the caller you are transferring them first.',
      parameters: {
        type: 'object',
        properties: { reason: { type: 'string', description: 'Why the caller needs a person.' } },
        additionalProperties: false,
      },
    });
  }
  return tools;
}

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
  const memory = remember ? await deps.recallMemory(businessId, partyNumber).catch(() => '') : '';
  const profile = business.profile ?? null;
  const script = buildCallScript({ config, callVariables: call.variables ?? {}, profile, memory, direction: call.direction });
  const transferNumber = profile?.transfer_number ?? '';
  return {
    call,
    config,
    script,
    transferNumber,
    partyNumber,
    tools: builtinTools(config, profile),
    ...(assistant?.custom_key_sealed && { customKeySealed: assistant.custom_key_sealed }),
  };
}
