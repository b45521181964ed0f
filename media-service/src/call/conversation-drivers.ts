import type { AssistantConfig } from '../../../shared/domain/assistant-config';
import { speechPlan } from '../../../shared/domain/languages';
import type { SpeechToSpeech } from '../ports/speech-to-speech';
import { applyPronunciations } from '../text/pronunciations';
import { normalizeForSpeech } from '../text/normalize';
import { faultCounter } from './call-metrics';
import { Conversation } from './conversation';
import { LiveConversation } from './live-conversation';
import type { DriverFactory, DriverSetup } from './session-types';

/**
 * The standard pipeline: the recogniser of the assistant's language and `transcriber.provider`
 * (Flux, or OpenAI transcription; `speechPlan`) hears the caller (early audio replayed), the
 * assistant's model answers, the language's Aura voice speaks through the pacer. Teardown: the
 * conversation, then pacing stats, the pacer, the voice and the recogniser.
 */
export const openStandardConversation: DriverFactory = async (setup) => {
  const { deps, context, base, signal } = setup;
  const { config } = context;
  const { transcriber } = config;
  const plan = speechPlan(config);
  const recogniser = plan.stt.provider === 'openai' ? deps.openaiStt : { stt: deps.stt, label: undefined };
  if (!recogniser) {
    deps.log.warn('call.speech.unavailable', { call_id: context.call.id, reason: 'no OpenAI transcription provider configured' });
    base.finish('error');
    return undefined;
  }
  if (recogniser.label !== undefined) base.counters.sttLabel = recogniser.label;
  const onFault = faultCounter(base.counters, deps.log, context.call.id);
  const stt = await recogniser.stt.open({
    model: plan.stt.model,
    language: plan.stt.language,
    keyterms: transcriber.keyterms,
    eotThreshold: transcriber.eot_threshold,
    ...(transcriber.eager && plan.stt.provider === 'deepgram' && { eagerEotThreshold: Math.max(0.3, transcriber.eot_threshold - 0.2) }),
    tag: base.callSid,
    signal,
    onFault,
  });
  setup.onClose(() => stt.close());
  setup.callerAudio.attach((frame) => stt.send(frame));
  const tts = deps.tts.open({ voice: plan.voice, speed: config.voice.speed, signal, tag: base.callSid, onFault });
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
  return new Conversation({ ...base, voice: { tts, pacer, now: deps.now, toSpeech, kick }, llm, stt, session: setup.session });
};

/**
 * Live mode (docs/design.md "Live mode"): one speech-to-speech session replaces Flux, the model and Aura.
 * Without a `realtime` provider the call cannot run: logged, and it ends `error`.
 */
export const openLiveConversation: DriverFactory = (setup) => {
  const { realtime, log } = setup.deps;
  if (!realtime) {
    log.warn('call.live.unavailable', { call_id: setup.context.call.id, reason: 'no speech-to-speech provider configured' });
    setup.base.finish('error');
    return Promise.resolve(undefined);
  }
  const pacer = setup.openPacer();
  // The session's faults (a reconnect) are the call's, counted in its metrics like the standard pipeline's.
  const onFault = faultCounter(setup.base.counters, log, setup.context.call.id);
  const counted: SpeechToSpeech = { open: (options) => realtime.open({ ...options, onFault }) };
  return Promise.resolve(new LiveConversation({ ...setup.base, realtime: counted, pacer, callerAudio: setup.callerAudio }));
};

/**
 * The conversation kind of each assistant `mode`: the one place a new kind (workflows next) plugs
 * in. Every kind implements `ConversationDriver` over the shared `CallPolicy`.
 */
export const CONVERSATION_DRIVERS: Record<AssistantConfig['mode'], DriverFactory> = {
  standard: openStandardConversation,
  live: openLiveConversation,
};

/** Opens the conversation `setup.context`'s assistant asks for. */
export function openConversation(setup: DriverSetup): ReturnType<DriverFactory> {
  return CONVERSATION_DRIVERS[setup.context.config.mode](setup);
}
