import type { AssistantConfig } from '../../../shared/domain/assistant-config';
import { speechPlan } from '../../../shared/domain/languages';
import type { SpeechToSpeech } from '../ports/speech-to-speech';
import { applyPronunciations } from '../text/pronunciations';
import { normalizeForSpeech } from '../text/normalize';
import { faultCounter } from './call-metrics';
import { Conversation } from './conversation';
import { LiveConversation } from './live-conversation';
import { findProvider, LIVE_PROVIDER, VOICE_PROVIDER } from './providers';
import { workflowRules, type WorkflowRules } from './rules/workflow-slot';
import type { CallContext } from './call-context';
import type { DriverFactory, DriverSetup } from './session-types';

/**
 * The standard pipeline: the recogniser the registry has for `transcriber.provider` (Flux, or
 * OpenAI transcription) hears the caller in the assistant's language (`speechPlan`; early audio
 * replayed), the assistant's model answers, the registry's voice speaks the language's Aura voice
 * through the pacer. A recogniser or voice the registry lacks ends the call `error`. Teardown: the
 * conversation, then pacing stats, the pacer, the voice and the recogniser.
 */
export const openStandardConversation: DriverFactory = async (setup) => {
  const { deps, context, base, signal } = setup;
  const { config } = context;
  const { transcriber } = config;
  const plan = speechPlan(config);
  const recogniser = findProvider(deps.registry, 'recognisers', plan.stt.provider);
  if (!recogniser.ok) return unavailable(setup, 'call.speech.unavailable', recogniser.reason);
  const voice = findProvider(deps.registry, 'voices', VOICE_PROVIDER);
  if (!voice.ok) return unavailable(setup, 'call.speech.unavailable', voice.reason);
  base.counters.sttLabel = recogniser.entry.label;
  base.counters.ttsLabel = voice.entry.label;
  const onFault = faultCounter(base.counters, deps.log, context.call.id);
  // A recogniser without eager end of turn (OpenAI transcription) ignores `eagerEotThreshold`.
  const stt = await recogniser.entry.port.open({
    model: plan.stt.model,
    language: plan.stt.language,
    keyterms: transcriber.keyterms,
    eotThreshold: transcriber.eot_threshold,
    ...(transcriber.eager && { eagerEotThreshold: Math.max(0.3, transcriber.eot_threshold - 0.2) }),
    tag: base.callSid,
    signal,
    onFault,
  });
  setup.onClose(() => stt.close());
  setup.callerAudio.attach((frame) => stt.send(frame));
  const tts = voice.entry.port.open({ voice: plan.voice, speed: config.voice.speed, signal, tag: base.callSid, onFault });
  setup.onClose(() => tts.close());
  const llm = await deps.languageModelFor(base.context.call.business_id, config, context.customKeySealed, { tag: base.callSid, onFault });
  const pacer = setup.openPacer();
  setup.onClose(() => {
    const stats = pacer.stats();
    base.counters.pacing = {
      underruns: stats.underruns,
      underrunMs: stats.underrunMs,
      maxLeadMs: stats.maxLeadMs,
      voiceFrames: stats.voiceFramesSent,
    };
  });
  const toSpeech = (text: string) =>
    applyPronunciations(normalizeForSpeech(text, { readTitles: config.voice.read_titles }), config.voice.pronunciations);
  const kick = () => pacer.tick(deps.scheduler.now());
  const workflow = callWorkflowRules(context);
  return new Conversation({
    ...base,
    voice: { tts, pacer, now: deps.now, toSpeech, kick },
    llm,
    stt,
    session: setup.session,
    ...(workflow && { workflow }),
  });
};

/**
 * Live mode (docs/design.md "Live mode"): one speech-to-speech session replaces Flux, the model and Aura.
 * Without a speech-to-speech provider in the registry the call cannot run: logged, and it ends `error`.
 */
export const openLiveConversation: DriverFactory = (setup) => {
  const live = findProvider(setup.deps.registry, 'speechToSpeech', LIVE_PROVIDER);
  if (!live.ok) return unavailable(setup, 'call.live.unavailable', live.reason);
  const realtime = live.entry.port;
  const pacer = setup.openPacer();
  // The session's faults (a reconnect) are the call's, counted in its metrics like the standard pipeline's.
  const onFault = faultCounter(setup.base.counters, setup.deps.log, setup.context.call.id);
  const counted: SpeechToSpeech = { open: (options) => realtime.open({ ...options, onFault }) };
  const workflow = callWorkflowRules(setup.context);
  return Promise.resolve(
    new LiveConversation({ ...setup.base, realtime: counted, pacer, callerAudio: setup.callerAudio, ...(workflow && { workflow }) }),
  );
};

/** A provider the call needs is not configured: said in the log (`event`), and the call ends `error`. */
function unavailable(setup: DriverSetup, event: 'call.speech.unavailable' | 'call.live.unavailable', reason: string): Promise<undefined> {
  setup.deps.log.warn(event, { call_id: setup.context.call.id, reason });
  setup.base.finish('error');
  return Promise.resolve(undefined);
}

/**
 * The conversation kind of each assistant `mode`: the one place a new kind (a browser call next) plugs
 * in. Every kind implements `ConversationDriver` as an executor of the call's one reducer (`rules/call.ts`).
 */
export const CONVERSATION_DRIVERS: Record<AssistantConfig['mode'], DriverFactory> = {
  standard: openStandardConversation,
  live: openLiveConversation,
};

/** Opens the conversation `setup.context`'s assistant asks for. */
export function openConversation(setup: DriverSetup): ReturnType<DriverFactory> {
  return CONVERSATION_DRIVERS[setup.context.config.mode](setup);
}

/**
 * The workflow part of the call's rules (docs/design.md "Workflows"), when the assistant has one:
 * the call's variables, and the assistant's over the call's built-in ones (`{{direction}}`, …), the
 * same values the greeting and the prompt get.
 */
function callWorkflowRules(context: CallContext): WorkflowRules | undefined {
  const { workflow } = context;
  if (!workflow) return undefined;
  return workflowRules({ workflow, callVariables: context.call.variables ?? {}, assistantVariables: context.script.variables });
}
