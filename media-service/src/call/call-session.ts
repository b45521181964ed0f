import type { CallRecord } from '../ports/call-records';
import type { EndedReason } from '../../../shared/domain/call';
import { OfficeAmbience } from '../audio/mix';
import { Pacer } from '../pipeline/pacer';
import type { CallTransportEvent } from '../ports/call-transport';
import type { AnsweredBy, Telephony } from '../ports/telephony';
import { CallTap } from './call-observer';
import { CallListeners, type CallListener } from './call-listeners';
import { amdForCall } from './amd-watch';
import { CallRecorder } from '../recording/call-recorder';
import { loadCallContext, toolRunnerFor, type CallContext } from './call-context';
import { faultCounter, newCounters } from './call-metrics';
import { CallerAudio } from './caller-audio';
import { openConversation } from './conversation-drivers';
import type { ToolRunner } from '../tools/tool-runner';
import { recordCallEnding } from './call-ending-record';
import { timeLimitSchedule } from './time-limit';
import type { CallSessionDeps, ConversationDriver, SessionHandle, SessionStart, SessionTuning, SessionView } from './session-types';
import { DEFAULT_SESSION_TUNING } from './session-tuning';

/**
 * Starts the session that owns one call's media stream: it loads the call, opens the recogniser,
 * the voice and the pacer, runs the conversation its assistant's `mode` asks for (a
 * {@link ConversationDriver}), and when the call ends (either side,
 * a timer, a failure) tears everything down in one place and records the call: transcript,
 * metrics, recording, and `call.ended`. Never throws: every failure ends the call cleanly.
 */
export function startCallSession(deps: CallSessionDeps, input: SessionStart): SessionHandle {
  const session = new CallSession(deps, input);
  const done = session
    .run()
    .catch((error: unknown) => deps.log.error('call.session.crashed', { call_id: input.claims.callId, error: String(error) }));
  return {
    callId: input.claims.callId,
    businessId: input.claims.businessId,
    onAmd: (answeredBy) => session.onAmd(answeredBy),
    stop: (reason) => session.stop(reason),
    listen: (listener) => session.listen(listener),
    done,
  };
}

class CallSession implements SessionView {
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
  #driver: ConversationDriver | undefined;
  /** Caller audio on its way to the conversation (kept while it loads). */
  readonly #callerAudio = new CallerAudio();
  #recorder: CallRecorder | undefined;
  #tools: ToolRunner | undefined;
  #reason: EndedReason | undefined;
  /** Clock ms when the ending was decided: the call's `ended_at`, whatever the teardown and upload take after it. */
  #endedAt = 0;
  #carrierEnded = false;
  #resolveEnded!: () => void;
  readonly #ended = new Promise<void>((resolve) => (this.#resolveEnded = resolve));
  /** The carrier's answering-machine verdict, once known (its first one). */
  #amd: AnsweredBy | undefined;
  /** The call's carrier: the process's, or none to speak of (a web call's). */
  readonly #telephony: Telephony;
  /** Tells the call's observer (a web call's browser) and its listeners what happens; idle while neither is there. */
  readonly #tap: CallTap;
  /** Whoever listens to the call (`/web/listen`). */
  readonly #listeners = new CallListeners();

  constructor(deps: CallSessionDeps, input: SessionStart) {
    this.#deps = deps;
    this.#input = input;
    this.#tuning = { ...DEFAULT_SESSION_TUNING, ...deps.tuning };
    this.#telephony = input.telephony ?? deps.telephony;
    const { observe } = input;
    const observed = (observation: Parameters<CallListener['observe']>[0]) => {
      observe?.(observation);
      this.#listeners.observe(observation);
    };
    this.#tap = new CallTap(observed, this.#counters, () => observe !== undefined || this.#listeners.size > 0);
  }

  async run(): Promise<void> {
    this.#t0 = this.#deps.now();
    const { transport } = this.#input;
    const offTransport = transport.on((event) => this.#onTransport(event));
    this.#cleanups.push(offTransport);
    try {
      const context = await loadCallContext(this.#deps, this.#input);
      if (typeof context === 'string') {
        this.#deps.log.warn('call.session.refused', { call_id: this.#input.claims.callId, reason: context });
        transport.close('refused');
        return;
      }
      this.#context = context;
      if (this.#reason === undefined) await this.#converse(context);
    } catch (error) {
      this.#deps.log.error('call.session.failed', { call_id: this.#input.claims.callId, error: String(error) });
      this.#finish('error');
    } finally {
      for (const cleanup of this.#cleanups.reverse()) safely(cleanup);
      this.#listeners.end(this.#reason ?? 'error');
      this.#abort.abort();
      transport.close();
    }
    await this.#record();
  }

  /** Ends the call from outside (drain deadline, ops). */
  stop(reason: 'canceled' | 'error'): void {
    void this.#driver?.endCall(reason, { goodbye: false });
    this.#finish(reason);
  }

  /** Adds a listener (`/web/listen`); returns its removal. */
  listen(listener: CallListener): () => void {
    return this.#listeners.add(listener);
  }

  /** The carrier's verdict, from its callback here or from the call's record (`amd-watch.ts`): the first one counts. */
  onAmd(answeredBy: AnsweredBy): void {
    if (this.#amd !== undefined) return;
    this.#amd = answeredBy;
    this.#driver?.onAmd(answeredBy);
  }

  async #converse(context: CallContext): Promise<void> {
    const { deps, claims } = { deps: this.#deps, claims: this.#input.claims };
    const { config, call } = context;
    // The carrier's answered callback often gets there first; then there is nothing to mark. When
    // it lands between the attach and this mark, the mark's failed write still returns the call.
    const ringing = call.status === 'queued' || call.status === 'ringing';
    this.#answered = ringing ? await deps.lifecycle.markAnswered(claims.businessId, claims.callId) : call;
    if (config.advanced.recording && !config.advanced.hipaa && deps.recordings) {
      const target = { businessId: claims.businessId, callId: claims.callId };
      this.#recorder = new CallRecorder({ store: deps.recordings, target, maxMs: (config.advanced.max_duration_s + 60) * 1000 });
    }
    const tap = this.#tap;
    const tools = toolRunnerFor(deps, context, this.#t0, faultCounter(this.#counters, deps.log, call.id), (a) => tap.tool(a));
    this.#tools = tools;
    this.#cleanups.push(() => tools.close());
    const driver = await openConversation({
      deps,
      context,
      base: {
        context,
        telephony: this.#telephony,
        lifecycle: deps.lifecycle,
        callSid: this.#input.start.callSid,
        counters: this.#counters,
        tuning: this.#tuning,
        now: deps.now,
        timers: deps.timers,
        log: deps.log,
        finish: (reason) => this.#finish(reason),
        t0: this.#t0,
        tools,
        tap,
      },
      session: this,
      signal: this.#abort.signal,
      callerAudio: this.#callerAudio,
      openPacer: () => this.#openPacer(context),
      onClose: (cleanup) => void this.#cleanups.push(cleanup),
    });
    if (!driver) return;
    this.#driver = driver;
    this.#cleanups.push(() => driver.close());
    this.#startTimers(context);
    const deliver = (verdict: AnsweredBy) => this.onAmd(verdict);
    const stopAmd = amdForCall(context, {
      known: this.#amd,
      calls: this.#deps.calls,
      timers: this.#deps.timers,
      replay: (v) => driver.onAmd(v),
      deliver,
    });
    if (stopAmd) this.#cleanups.push(stopAmd);
    // Asked to end before its stream started (queued or ringing): it ends at once, unheard.
    if (call.end_requested_at !== undefined) this.stop('canceled');
    else driver.start();
    await this.#ended;
    await this.#hangUp();
  }

  /** The session's ending is decided ({@link SessionView}). */
  get ended(): boolean {
    return this.#reason !== undefined;
  }

  /** The carrier ended the call ({@link SessionView}). */
  get carrierEnded(): boolean {
    return this.#carrierEnded;
  }

  /** The call's pacer: its marks go to the carrier, its audio to the carrier and the recording. */
  #openPacer(context: CallContext): Pacer {
    const { transport } = this.#input;
    const sink = {
      sendAudio: (frame: Uint8Array) => {
        this.#recorder?.assistant(frame, this.#deps.now() - this.#t0);
        if (this.#listeners.size > 0) this.#listeners.assistant(frame);
        transport.sendAudio(frame);
      },
      sendMark: (name: string) => {
        this.#tap.markSent(name);
        transport.sendMark(name);
      },
      clear: () => {
        this.#listeners.clear();
        transport.clear();
      },
    };
    const background = context.config.advanced.background === 'office' ? new OfficeAmbience({ seed: context.call.id }) : undefined;
    const pacer = new Pacer(sink, { gain: context.config.voice.volume, ...(background && { background }) });
    this.#cleanups.push(this.#deps.scheduler.add(pacer));
    return pacer;
  }

  /**
   * The time limit (docs/decisions.md "Max duration"): the goodbye starts early enough to end before
   * the limit, and the session hangs up just before it whatever is still playing, so `duration_s`
   * never passes `max_duration_s`. Heartbeats keep the sweeper away.
   */
  #startTimers(context: CallContext): void {
    const { timers } = this.#deps;
    // The dialler stores the minutes it could reserve as `time_limit_s` (≤ max_duration_s).
    const limitS = context.call.time_limit_s ?? context.config.advanced.max_duration_s;
    const limit = timeLimitSchedule({
      limitMs: Math.min(limitS, context.config.advanced.max_duration_s) * 1000,
      sinceAnswerMs: this.#sinceAnswerMs(context.call),
      goodbye: context.script.endCallMessage,
      speed: context.config.voice.speed,
    });
    const goodbye = timers.setTimeout(() => void this.#driver?.endCall('max_duration', { goodbye: true }), limit.goodbyeInMs);
    const hangUp = timers.setTimeout(() => this.#finish(this.#driver?.pendingReason ?? 'max_duration'), limit.hangUpInMs);
    this.#cleanups.push(
      () => timers.clearTimeout(goodbye),
      () => timers.clearTimeout(hangUp),
    );
    let beat: unknown;
    const schedule = () => {
      beat = timers.setTimeout(() => {
        const { businessId, callId } = this.#input.claims;
        this.#deps
          .heartbeat(businessId, callId)
          .catch((error: unknown) => this.#deps.log.error('call.heartbeat.failed', { call_id: callId, error: String(error) }));
        schedule();
      }, this.#tuning.heartbeatMs);
    };
    schedule();
    this.#cleanups.push(() => timers.clearTimeout(beat));
    const { businessId, callId } = this.#input.claims;
    const stopWatching = this.#deps.watchEndRequest?.(businessId, callId, () => {
      // POST /calls/{id}/end: no goodbye; the hang-up below ends it at the carrier or its socket.
      this.#deps.log.info('call.end_requested', { call_id: callId });
      this.stop('canceled');
    });
    if (stopWatching) this.#cleanups.push(stopWatching);
  }

  /** How long ago the call was answered: its stream started that long after the answer, and this session has run since. */
  #sinceAnswerMs(call: CallRecord): number {
    const answeredAt = Date.parse(this.#answered?.started_at ?? '');
    const streamAt = Date.parse(call.media_started_at ?? '');
    const beforeStream = Number.isNaN(answeredAt) || Number.isNaN(streamAt) ? 0 : Math.max(0, streamAt - answeredAt);
    return beforeStream + (this.#deps.now() - this.#t0);
  }

  #onTransport(event: CallTransportEvent): void {
    switch (event.type) {
      case 'media':
        this.#counters.sttBytes += event.payload.length;
        this.#callerAudio.push(event.payload);
        this.#recorder?.caller(event.payload, event.timestampMs);
        if (this.#listeners.size > 0) this.#listeners.caller(event.payload);
        return;
      case 'mark':
        return this.#driver?.onMark(event.name, event.afterClear);
      case 'dtmf':
        return this.#driver?.onDtmf(event.digit);
      case 'stop':
      case 'closed':
        if (this.#carrierEnded) return;
        this.#carrierEnded = true;
        return void this.#hearLastWords().finally(() => this.#finish(this.#driver?.pendingReason ?? 'caller_hung_up'));
      case 'start':
        return;
    }
  }

  /** The caller hung up, perhaps mid-sentence: the conversation keeps their last words (bounded). */
  async #hearLastWords(): Promise<void> {
    if (this.#reason === undefined) await this.#driver?.callerHungUp();
  }

  #finish(reason: EndedReason): void {
    if (this.#reason !== undefined) return;
    this.#reason = reason;
    this.#endedAt = this.#deps.now();
    this.#resolveEnded();
  }

  /**
   * We end the call at the carrier unless the carrier ended it (or a transfer redirected it). A
   * transport that is the call itself (a web call's socket) is ended instead, whoever ended the
   * call (it tells the browser why, if it still listens): no carrier is asked.
   */
  async #hangUp(): Promise<void> {
    const { transport } = this.#input;
    if (transport.end) return transport.end(this.#reason ?? 'error');
    if (this.#carrierEnded || this.#reason === 'transferred') return;
    try {
      await this.#telephony.hangup(this.#input.start.callSid);
    } catch (error) {
      this.#deps.log.error('call.hangup.failed', { call_id: this.#input.claims.callId, error: String(error) });
    }
  }

  /** Writes the outcome once: recording (unless HIPAA), then the ended call with transcript and metrics. */
  async #record(): Promise<void> {
    if (!this.#context) return;
    await recordCallEnding(this.#deps, {
      context: this.#context,
      claims: this.#input.claims,
      reason: this.#reason ?? 'error',
      endedAt: this.#reason === undefined ? this.#deps.now() : this.#endedAt,
      t0: this.#t0,
      counters: this.#counters,
      recorder: this.#recorder,
      driver: this.#driver,
      tools: this.#tools,
      answered: this.#answered,
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
