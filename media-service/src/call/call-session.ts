import type { CallRecord } from '../../../shared/db/call-repository';
import type { EndedReason } from '../../../shared/domain/call';
import { OfficeAmbience } from '../audio/mix';
import { Pacer } from '../pipeline/pacer';
import type { CallTransportEvent } from '../ports/call-transport';
import type { SttEvent, SttStream } from '../ports/speech-to-text';
import type { AnsweredBy } from '../ports/telephony';
import { CallRecorder } from '../recording/call-recorder';
import { applyPronunciations } from '../text/pronunciations';
import { normalizeForSpeech } from '../text/normalize';
import { loadCallContext, type CallContext } from './call-context';
import { buildCallMetrics, newCounters } from './call-metrics';
import { Conversation } from './conversation';
import { LiveConversation } from './live-conversation';
import type { CallSessionDeps, SessionHandle, SessionStart, SessionTuning } from './session-types';
import { Speaker } from './speaker';

/**
 * How long a hung-up call waits for the recogniser's last results. Flux answers CloseStream with its
 * final turn in well under a second; the bound keeps a silent provider from holding the ending.
 */
const LAST_WORDS_WAIT_MS = 1500;

/** 10 s of 20 ms frames: far more than loading a call and opening Flux ever takes. */
const EARLY_AUDIO_FRAMES = 500;

/** Defaults of {@link SessionTuning}. */
export const DEFAULT_SESSION_TUNING: SessionTuning = {
  /** The sweeper calls a session dead after 120 s without a heartbeat: 4 missed beats. */
  heartbeatMs: 30_000,
  /** Vocode plays a filler past ~500 ms; 700 ms keeps fillers off the normal (eager) path. */
  fillerAfterMs: 700,
  /** Typical keypad entry leaves < 1 s between keys. */
  dtmfIdleMs: 1500,
  goodbyeMaxMs: 8000,
  voicemailQuietMs: 2500,
};

/**
 * Starts the session that owns one call's media stream: it loads the call, opens the recogniser,
 * the voice and the pacer, runs the {@link Conversation}, and when the call ends (either side,
 * a timer, a failure) tears everything down in one place and records the call: transcript,
 * metrics, recording, and `call.ended`. Never throws: every failure ends the call cleanly.
 */
export function startCallSession(deps: CallSessionDeps, input: SessionStart): SessionHandle {
  const session = new CallSession(deps, input);
  const done = session
    .run()
    .catch((error: unknown) => deps.log('call.session.crashed', { call_id: input.claims.callId, error: String(error) }));
  return {
    callId: input.claims.callId,
    businessId: input.claims.businessId,
    onAmd: (answeredBy) => session.onAmd(answeredBy),
    stop: (reason) => session.stop(reason),
    done,
  };
}

class CallSession {
  readonly #deps: CallSessionDeps;
  readonly #input: SessionStart;
  readonly #tuning: SessionTuning;
  readonly #abort = new AbortController();
  readonly #counters = newCounters();
  readonly #cleanups: (() => void)[] = [];
  #t0 = 0;
  #context: CallContext | undefined;
  /** The call as this session last saw it from a write, once answered (its ending then skips a read). */
  #answered: CallRecord | undefined;
  #conversation: Conversation | LiveConversation | undefined;
  #recorder: CallRecorder | undefined;
  #reason: EndedReason | undefined;
  #carrierEnded = false;
  #resolveEnded!: () => void;
  readonly #ended = new Promise<void>((resolve) => (this.#resolveEnded = resolve));
  #pendingAmd: AnsweredBy | undefined;
  /** Waiting for the recogniser to close after the caller hung up. */
  readonly #sttClosed: (() => void)[] = [];

  constructor(deps: CallSessionDeps, input: SessionStart) {
    this.#deps = deps;
    this.#input = input;
    this.#tuning = { ...DEFAULT_SESSION_TUNING, ...deps.tuning };
  }

  async run(): Promise<void> {
    this.#t0 = this.#deps.now();
    const { transport } = this.#input;
    const offTransport = transport.on((event) => this.#onTransport(event));
    this.#cleanups.push(offTransport);
    try {
      const context = await loadCallContext(this.#deps, this.#input);
      if (typeof context === 'string') {
        this.#deps.log('call.session.refused', { call_id: this.#input.claims.callId, reason: context });
        transport.close('refused');
        return;
      }
      this.#context = context;
      if (this.#reason === undefined) await this.#converse(context);
    } catch (error) {
      this.#deps.log('call.session.failed', { call_id: this.#input.claims.callId, error: String(error) });
      this.#finish('error');
    } finally {
      for (const cleanup of this.#cleanups.reverse()) safely(cleanup);
      this.#abort.abort();
      transport.close();
    }
    await this.#record();
  }

  /** Ends the call from outside (drain deadline, ops). */
  stop(reason: 'canceled' | 'error'): void {
    void this.#conversation?.endCall(reason, { goodbye: false });
    this.#finish(reason);
  }

  onAmd(answeredBy: AnsweredBy): void {
    if (this.#conversation) this.#conversation.onAmd(answeredBy);
    else this.#pendingAmd = answeredBy;
  }

  async #converse(context: CallContext): Promise<void> {
    const { deps, claims } = { deps: this.#deps, claims: this.#input.claims };
    const { config } = context;
    const { call } = context;
    // The carrier's answered callback often gets there first; then there is nothing to mark. When
    // it lands between the attach and this mark, the mark's failed write still returns the call.
    const ringing = call.status === 'queued' || call.status === 'ringing';
    this.#answered = ringing ? await deps.lifecycle.markAnswered(claims.businessId, claims.callId) : call;
    if (config.advanced.recording && !config.advanced.hipaa && deps.recordings) {
      const target = { businessId: claims.businessId, callId: claims.callId };
      this.#recorder = new CallRecorder({ store: deps.recordings, target, maxMs: (config.advanced.max_duration_s + 60) * 1000 });
    }
    if (config.mode === 'live') return this.#converseLive(context);
    const stt = await this.#openStt(context);
    const tts = deps.tts.open({ voice: config.voice.voice_id, speed: config.voice.speed, signal: this.#abort.signal });
    this.#cleanups.push(() => tts.close());
    const llm = await deps.languageModelFor(claims.businessId, config, context.customKeySealed);
    const pacer = this.#openPacer(context);
    const speaker = new Speaker({
      tts,
      pacer,
      now: deps.now,
      toSpeech: (text) =>
        applyPronunciations(normalizeForSpeech(text, { readTitles: config.voice.read_titles }), config.voice.pronunciations),
      onFailure: (error) => this.#conversation?.fail(error, 'tts'),
      kick: () => pacer.tick(deps.scheduler.now()),
    });
    this.#cleanups.push(() => speaker.close());
    this.#cleanups.push(() => {
      const stats = pacer.stats();
      this.#counters.ttsCharacters = speaker.charactersSent;
      this.#counters.pacing = {
        underruns: stats.underruns,
        underrunMs: stats.underrunMs,
        maxLeadMs: stats.maxLeadMs,
        voiceFrames: stats.voiceFramesSent,
      };
    });
    this.#speakerRef = speaker;
    const conversation = new Conversation({
      context,
      speaker,
      llm,
      stt,
      telephony: deps.telephony,
      lifecycle: deps.lifecycle,
      callSid: this.#input.start.callSid,
      counters: this.#counters,
      tuning: this.#tuning,
      now: deps.now,
      timers: deps.timers,
      log: deps.log,
      finish: (reason) => this.#finish(reason),
      t0: this.#t0,
    });
    this.#conversation = conversation;
    this.#cleanups.push(() => conversation.close());
    this.#cleanups.push(stt.on((event) => this.#onStt(event)));
    this.#startTimers(context);
    if (this.#pendingAmd) conversation.onAmd(this.#pendingAmd);
    void conversation.open();
    await this.#ended;
    await this.#hangUp();
  }

  #speakerRef: Speaker | undefined;

  /**
   * Live mode (docs/design.md §6): one speech-to-speech session replaces Flux, the LLM and Aura; the live
   * conversation hears the transport's media and marks itself. No `realtime` dep: the call fails cleanly.
   */
  async #converseLive(context: CallContext): Promise<void> {
    const { realtime } = this.#deps;
    if (!realtime) {
      this.#deps.log('call.live.unavailable', { call_id: context.call.id, reason: 'no speech-to-speech provider configured' });
      return this.#finish('error');
    }
    const pacer = this.#openPacer(context);
    const live = new LiveConversation({
      context,
      realtime,
      pacer,
      transport: this.#input.transport,
      telephony: this.#deps.telephony,
      lifecycle: this.#deps.lifecycle,
      callSid: this.#input.start.callSid,
      counters: this.#counters,
      tuning: this.#tuning,
      now: this.#deps.now,
      timers: this.#deps.timers,
      log: this.#deps.log,
      finish: (reason) => this.#finish(reason),
      t0: this.#t0,
    });
    this.#conversation = live;
    this.#liveRef = live;
    this.#cleanups.push(() => live.close());
    this.#startTimers(context);
    if (this.#pendingAmd) live.onAmd(this.#pendingAmd);
    void live.open(this.#earlyAudio.splice(0));
    await this.#ended;
    await this.#hangUp();
  }

  #liveRef: LiveConversation | undefined;

  async #openStt(context: CallContext): Promise<SttStream> {
    const { transcriber } = context.config;
    const stt = await this.#deps.stt.open({
      model: transcriber.model,
      language: context.config.language,
      keyterms: transcriber.keyterms,
      eotThreshold: transcriber.eot_threshold,
      ...(transcriber.eager && { eagerEotThreshold: Math.max(0.3, transcriber.eot_threshold - 0.2) }),
      tag: this.#input.start.callSid,
      signal: this.#abort.signal,
    });
    this.#cleanups.push(() => stt.close());
    this.#sttRef = stt;
    // The caller may speak before the recogniser is up (people answer with "Hello?"): replay it.
    for (const frame of this.#earlyAudio.splice(0)) stt.send(frame);
    return stt;
  }

  #sttRef: SttStream | undefined;
  /** Caller audio that arrived while the call was loading and Flux was connecting (≤ 10 s). */
  readonly #earlyAudio: Uint8Array[] = [];

  #openPacer(context: CallContext): Pacer {
    const { transport } = this.#input;
    const sink = {
      sendAudio: (frame: Uint8Array) => {
        this.#recorder?.assistant(frame, this.#deps.now() - this.#t0);
        transport.sendAudio(frame);
      },
      sendMark: (name: string) => {
        this.#speakerRef?.onMarkSent(name);
        this.#liveRef?.onMarkSent(name);
        transport.sendMark(name);
      },
      clear: () => transport.clear(),
    };
    const background = context.config.advanced.background === 'office' ? new OfficeAmbience({ seed: context.call.id }) : undefined;
    const pacer = new Pacer(sink, { gain: context.config.voice.volume, ...(background && { background }) });
    this.#cleanups.push(this.#deps.scheduler.add(pacer));
    return pacer;
  }

  #startTimers(context: CallContext): void {
    const { timers } = this.#deps;
    // The dialler stores the minutes it could reserve as `time_limit_s` (≤ max_duration_s).
    const limitS = typeof context.call.time_limit_s === 'number' ? context.call.time_limit_s : context.config.advanced.max_duration_s;
    const maxMs = Math.min(limitS, context.config.advanced.max_duration_s) * 1000;
    const max = timers.setTimeout(() => void this.#conversation?.endCall('max_duration', { goodbye: true }), maxMs);
    this.#cleanups.push(() => timers.clearTimeout(max));
    let beat: unknown;
    const schedule = () => {
      beat = timers.setTimeout(() => {
        const { businessId, callId } = this.#input.claims;
        this.#deps
          .heartbeat(businessId, callId)
          .catch((error: unknown) => this.#deps.log('call.heartbeat.failed', { call_id: callId, error: String(error) }));
        schedule();
      }, this.#tuning.heartbeatMs);
    };
    schedule();
    this.#cleanups.push(() => timers.clearTimeout(beat));
  }

  #onTransport(event: CallTransportEvent): void {
    switch (event.type) {
      case 'media':
        this.#counters.sttBytes += event.payload.length;
        if (this.#sttRef) this.#sttRef.send(event.payload);
        else if (!this.#liveRef && this.#earlyAudio.length < EARLY_AUDIO_FRAMES) this.#earlyAudio.push(event.payload);
        this.#recorder?.caller(event.payload, event.timestampMs);
        return;
      case 'mark':
        return this.#speakerRef?.onMark(event.name, event.afterClear);
      case 'dtmf':
        return this.#conversation?.onDtmf(event.digit);
      case 'stop':
      case 'closed':
        if (this.#carrierEnded) return;
        this.#carrierEnded = true;
        return void this.#hearLastWords().finally(() => this.#finish(this.#conversation?.pendingReason ?? 'caller_hung_up'));
      case 'start':
        return;
    }
  }

  #onStt(event: SttEvent): void {
    if (event.type === 'closed') {
      for (const resolve of this.#sttClosed.splice(0)) resolve();
      if (this.#reason === undefined && !this.#carrierEnded) this.#conversation?.fail(new Error('the speech-to-text stream closed'));
      return;
    }
    if (event.type === 'error') return this.#carrierEnded ? undefined : this.#conversation?.fail(event.error);
    if (this.#conversation instanceof Conversation) this.#conversation.onStt(event);
  }

  /**
   * The caller hung up, perhaps mid-sentence: close the recogniser so it flushes what it heard, wait
   * a bounded moment for those last results, and keep a turn it left unfinished. Otherwise words
   * said just before hanging up ("Thanks, bye") never reach the transcript.
   */
  async #hearLastWords(): Promise<void> {
    const conversation = this.#conversation;
    const stt = this.#sttRef;
    if (!(conversation instanceof Conversation) || !stt || this.#reason !== undefined) return;
    conversation.callerLeft();
    let timer: unknown;
    await new Promise<void>((resolve) => {
      this.#sttClosed.push(resolve);
      timer = this.#deps.timers.setTimeout(resolve, LAST_WORDS_WAIT_MS);
      stt.close();
    });
    this.#deps.timers.clearTimeout(timer);
    conversation.keepUnfinishedCallerTurn();
  }

  #finish(reason: EndedReason): void {
    if (this.#reason !== undefined) return;
    this.#reason = reason;
    this.#resolveEnded();
  }

  /** We end the call at the carrier unless the carrier ended it (or a transfer redirected it). */
  async #hangUp(): Promise<void> {
    if (this.#carrierEnded || this.#reason === 'transferred') return;
    try {
      await this.#deps.telephony.hangup(this.#input.start.callSid);
    } catch (error) {
      this.#deps.log('call.hangup.failed', { call_id: this.#input.claims.callId, error: String(error) });
    }
  }

  /** Writes the outcome once: recording (unless HIPAA), then the ended call with transcript and metrics. */
  async #record(): Promise<void> {
    const context = this.#context;
    if (!context) return;
    const { businessId, callId } = this.#input.claims;
    const reason = this.#reason ?? 'error';
    let recordingKey: string | null = null;
    if (this.#recorder) {
      try {
        recordingKey = await this.#recorder.finish();
      } catch (error) {
        this.#deps.log('call.recording.failed', { call_id: callId, error: String(error) });
      }
    }
    const durationS = (this.#deps.now() - this.#t0) / 1000;
    const transcript = this.#conversation?.transcript() ?? [];
    const { providers } = this.#deps;
    const model = this.#context?.config.model.provider;
    const labels =
      this.#liveRef && providers.llm !== 'sandbox'
        ? { ...providers, llm: 'openai-realtime' }
        : model === 'custom' && !this.#liveRef
          ? { ...providers, llm: 'custom' }
          : providers;
    const metrics = buildCallMetrics(this.#counters, durationS, labels, this.#t0);
    try {
      await this.#deps.lifecycle.end(businessId, callId, {
        endedReason: reason,
        transcript,
        metrics,
        recordingKey,
        config: context.config,
        call: this.#answered,
      });
    } catch (error) {
      this.#deps.log('call.record.failed', { call_id: callId, error: String(error) });
    }
    this.#deps.log('call.session.ended', {
      call_id: callId,
      reason,
      duration_s: Math.round(durationS),
      turns: this.#counters.turns.length,
    });
  }
}

function safely(cleanup: () => void): void {
  try {
    cleanup();
  } catch {
    // Teardown continues whatever one step throws.
  }
}
