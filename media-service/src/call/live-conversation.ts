import type { EndedReason, TranscriptEntry } from '../../../shared/domain/call';
import { containsEndPhrase } from '../../../shared/domain/call-script';
import type { CallTransport, CallTransportEvent } from '../ports/call-transport';
import type { S2sEvent, S2sSession, SpeechToSpeech } from '../ports/speech-to-speech';
import type { AnsweredBy } from '../ports/telephony';
import { IdlePrompts } from './idle-prompts';
import { LiveCaller } from './live-caller';
import { LivePlayback, type PlaybackPacer } from './live-playback';
import { LiveResponses, verbatim, type Reply } from './live-responses';
import type { ConversationBaseDeps } from './session-types';
import type { UtteranceKind } from './speaker';
import { TimerSet } from './timer-set';
import { TranscriptLog } from './transcript-log';
import { TRANSFER_FAILED, transferCall } from './transfer';

export { verbatim } from './live-responses';

/** What a live conversation needs from its session. */
export interface LiveConversationDeps extends ConversationBaseDeps {
  realtime: SpeechToSpeech;
  pacer: PlaybackPacer;
  transport: CallTransport;
}

/**
 * The live-mode conversation of one call (docs/design.md §6): one speech-to-speech session hears the caller
 * and answers in its own voice. We keep what the provider cannot: greeting per
 * `first_message_mode`, paced playback with marks, barge-in (clear, cancel, truncate to what was
 * heard), transcript, metrics, the `end_call`/`transfer` tools, end phrases, silence and idle
 * messages. `interrupt_min_words` does not apply: Realtime gives no words before speech stops.
 */
export class LiveConversation {
  readonly #d: LiveConversationDeps;
  readonly #playback: LivePlayback;
  readonly #log: TranscriptLog;
  readonly #abort = new AbortController();
  readonly #responses = new LiveResponses(() => this.#session);
  readonly #caller = new LiveCaller();
  readonly #timers: TimerSet;
  readonly #offs: (() => void)[] = [];
  #digits = '';
  #session: S2sSession | undefined;
  #ending: EndedReason | undefined;
  #greetingDone = false;
  #noticeSpoken = false;
  readonly #idle: IdlePrompts;
  #toolRounds = 0;

  constructor(deps: LiveConversationDeps) {
    this.#d = deps;
    this.#playback = new LivePlayback(deps.pacer, deps.now);
    this.#log = new TranscriptLog(deps.t0);
    this.#timers = new TimerSet(deps.timers);
    this.#idle = new IdlePrompts(deps.context);
  }

  /** The reason the call is ending, once decided (a carrier `stop` then keeps it). */
  get pendingReason(): EndedReason | undefined {
    return this.#ending;
  }

  /**
   * Opens the provider session and starts the call per `first_message_mode` and `greeting_delay_ms`.
   * `earlyAudio`: caller audio that arrived while the call was loading, replayed first.
   */
  async open(earlyAudio: readonly Uint8Array[] = []): Promise<void> {
    const { context, callSid } = this.#d;
    const { config } = context;
    const session = this.#d.realtime.open({
      instructions: context.script.systemPrompt,
      voice: config.live_voice,
      tools: context.tools,
      language: config.language,
      speed: config.voice.speed,
      interruptResponse: config.advanced.interruptions !== 'never',
      tag: callSid,
      signal: this.#abort.signal,
    });
    this.#session = session;
    for (const frame of earlyAudio) session.appendAudio(frame);
    this.#offs.push(
      session.on((event) => this.#onEvent(event)),
      this.#d.transport.on((event) => this.#onTransport(event)),
    );
    if (config.first_message_mode !== 'wait_for_user')
      return this.#timers.set('greet', config.advanced.greeting_delay_ms, () => this.#greet());
    if (config.advanced.greet_after_silence_s > 0)
      this.#timers.set('greet', config.advanced.greet_after_silence_s * 1000, () => this.#greet());
    else this.#armSilence();
  }

  #greet(): void {
    if (this.#ending || this.#caller.spoke || this.#caller.speaking) return;
    const first = this.#d.context.script.firstMessage;
    if (this.#d.context.config.first_message_mode !== 'model_generated' && first !== '')
      void this.#responses.request('greeting', verbatim(first));
    else void this.#responses.request('greeting');
  }

  #onTransport(event: CallTransportEvent): void {
    if (event.type === 'media') this.#session?.appendAudio(event.payload);
    else if (event.type === 'mark') this.#playback.onMark(event.name, event.afterClear);
  }

  /** The pacer sent a mark (first-audio-out timing). */
  onMarkSent(name: string): void {
    this.#playback.onMarkSent(name);
  }

  #onEvent(event: S2sEvent): void {
    switch (event.type) {
      case 'speech_started':
        return this.#onSpeechStarted(event.itemId);
      case 'speech_stopped':
        return this.#caller.stopped(event.itemId, this.#d.now());
      case 'caller_transcript':
        return this.#onCallerWords(event.itemId, event.text);
      case 'response_created':
        return this.#onResponseCreated(event.responseId, event.tag);
      case 'audio':
      case 'transcript_delta':
      case 'transcript_done':
        return this.#onOutput(event);
      case 'function_call':
        return void this.#responses
          .get(event.responseId)
          ?.calls.push({ callId: event.callId, name: event.name, arguments: event.arguments });
      case 'response_done':
        return this.#onResponseDone(event.responseId, event.status, event.usage);
      case 'error':
        if (event.fatal) return this.fail(event.error);
        return this.#d.log('call.live.provider_refused', { call_id: this.#d.context.call.id, error: event.error.message });
      case 'closed':
        if (this.#ending === undefined) this.fail(new Error('the speech-to-speech session closed'));
        return;
      case 'ready':
        return;
    }
  }

  #onSpeechStarted(itemId: string): void {
    this.#caller.started(itemId, this.#d.now());
    this.#timers.cancel('silence');
    this.#timers.cancel('greet');
    const { interruptions } = this.#d.context.config.advanced;
    const allowed = interruptions === 'anytime' || (interruptions === 'after_greeting' && this.#greetingDone);
    if (allowed && this.#playback.audible && this.#ending === undefined) this.#bargeIn();
  }

  #onCallerWords(itemId: string, text: string): void {
    const said = this.#caller.words(itemId, text);
    if (!said) return;
    this.#log.user(text.trim(), said.startAt, said.endAt ?? this.#d.now());
    this.#idle.reset();
  }

  #onResponseCreated(responseId: string, tag: string | undefined): void {
    this.#timers.cancel('silence');
    const reply = this.#responses.created(responseId, tag);
    if (reply.requested) return;
    reply.turn = this.#caller.takeTurn();
    // A reply the provider started on its own while we end the call would talk over the goodbye.
    if (this.#ending !== undefined) this.#responses.cancel(reply);
  }

  #onOutput(event: Extract<S2sEvent, { type: 'audio' | 'transcript_delta' | 'transcript_done' }>): void {
    const reply = this.#responses.get(event.responseId);
    if (!reply || reply.cancelled) return; // audio still in flight after a barge-in or cancel
    const { utterance, created } = this.#playback.item(event.itemId, reply.kind);
    if (created) {
      reply.utterances.push(utterance);
      reply.items.push(event.itemId);
      this.#log.utterance(utterance);
    }
    if (event.type === 'transcript_delta') utterance.text += event.text;
    else if (event.type === 'transcript_done') utterance.text = event.text.trim();
    else {
      utterance.requestedAt ??= this.#d.now();
      this.#playback.audio(event.itemId, event.mulaw);
      const turn = reply.turn;
      if (turn && !turn.utterance) {
        turn.utterance = utterance;
        turn.llmFirstTokenMs = this.#d.now() - turn.endOfTurnAt;
        this.#d.counters.turns.push(turn);
      }
    }
  }

  #onResponseDone(responseId: string, status: string, usage: { input: number; output: number }): void {
    this.#d.counters.llmInput += usage.input;
    this.#d.counters.llmOutput += usage.output;
    const reply = this.#responses.get(responseId);
    if (reply) {
      for (const itemId of reply.items) this.#playback.flush(itemId);
      void Promise.all(reply.utterances.map((u) => u.done)).then(() => this.#afterReply(reply, status));
    }
    this.#responses.done(responseId);
  }

  /** A reply has played to the end (or was cut): act on its tools, end phrases, or wait for the caller. */
  async #afterReply(reply: Reply, status: string): Promise<void> {
    this.#responses.settle(reply);
    if (reply.utterances.length > 0) this.#greetingDone = true;
    if (this.#ending !== undefined || reply.cancelled || status !== 'completed') return;
    const text = reply.utterances.map((u) => u.text).join(' ');
    const endCall = reply.calls.find((call) => call.name === 'end_call');
    const transfer = reply.calls.find((call) => call.name === 'transfer');
    if (endCall) {
      this.#log.tool('end_call', this.#d.now());
      return this.endCall('assistant_ended', { goodbye: this.#d.context.script.endCallMessage !== '' && text === '' });
    }
    if (transfer) return this.#transfer(transfer.callId);
    if (reply.calls.length > 0 && this.#toolRounds++ < 2) {
      for (const call of reply.calls)
        this.#session?.sendFunctionOutput(
          call.callId,
          JSON.stringify({ error: `The tool ${call.name} is not available on this call.` }),
          false,
        );
      return void this.#responses.request('reply');
    }
    if (containsEndPhrase(text, this.#d.context.config.advanced.end_call_phrases)) return this.endCall('end_phrase', { goodbye: false });
    if (!this.#noticeSpoken && reply.utterances.length > 0) {
      this.#noticeSpoken = true;
      if (this.#d.context.script.notice !== '') return void this.#responses.request('notice', verbatim(this.#d.context.script.notice));
    }
    this.#armSilence();
  }

  /** Barge-in: clear the carrier, stop the response, truncate each item to what the caller heard. */
  #bargeIn(): void {
    const cut = this.#playback.interrupt();
    for (const reply of this.#responses.all())
      if (this.#responses.isActive(reply) || reply.utterances.some((u) => cut.some((c) => c.utterance === u)))
        this.#responses.cancel(reply);
    for (const item of cut) if (item.utterance.bytesReceived > 0) this.#session?.truncate(item.itemId, item.heardMs);
    if (cut.length === 0) return;
    this.#d.counters.interruptions++;
    this.#greetingDone = true;
    this.#d.log('call.barge_in', { call_id: this.#d.context.call.id, heard_ms: cut[0]!.heardMs });
  }

  /** Keypad (when `keypad` is on): digits reach the model as a typed caller message after `#` or a pause. */
  onDtmf(digit: string): void {
    if (!this.#d.context.config.advanced.keypad || this.#ending !== undefined) return;
    this.#digits += digit;
    this.#timers.cancel('silence');
    if (digit === '#') return this.#sendDigits();
    this.#timers.set('dtmf', this.#d.tuning.dtmfIdleMs, () => this.#sendDigits());
  }

  #sendDigits(): void {
    this.#timers.cancel('dtmf');
    if (this.#digits === '' || !this.#session) return;
    const text = `[keypad] ${this.#digits.split('').join(' ')}`;
    this.#digits = '';
    const now = this.#d.now();
    this.#log.user(text, now, now);
    this.#idle.reset();
    if (this.#playback.audible && this.#d.context.config.advanced.interruptions !== 'never') this.#bargeIn();
    this.#session.sendUserText(text);
    void this.#responses.request('reply');
  }

  /** The carrier's answering-machine verdict: leave the voicemail message (if any), then end. */
  onAmd(answeredBy: AnsweredBy): void {
    const { config, script, call } = this.#d.context;
    if (!config.advanced.voicemail_detection || call.direction !== 'outbound' || this.#ending !== undefined) return;
    if (!answeredBy.startsWith('machine_') && answeredBy !== 'fax') return;
    this.#ending = 'voicemail';
    this.#timers.clear(['transfer', 'voicemail']);
    this.#silence();
    if (answeredBy === 'fax' || script.voicemailMessage === '') return this.#d.finish('voicemail');
    const wait = answeredBy === 'machine_start' ? this.#d.tuning.voicemailQuietMs : 0;
    this.#timers.set(
      'voicemail',
      wait,
      () => void this.#sayAndWait('voicemail', script.voicemailMessage).then(() => this.#d.finish('voicemail')),
    );
  }

  async #transfer(callId: string): Promise<void> {
    this.#ending = 'transferred';
    this.#log.tool(`transfer to ${this.#d.context.transferNumber}`, this.#d.now());
    if (await transferCall(this.#d, this.#timers)) return;
    this.#ending = undefined;
    this.#session?.sendFunctionOutput(callId, JSON.stringify({ error: 'The transfer failed.' }), false);
    void this.#responses.request('reply', verbatim(TRANSFER_FAILED));
  }

  #armSilence(): void {
    this.#timers.cancel('silence');
    if (this.#ending !== undefined || this.#responses.busy || this.#playback.audible || this.#caller.speaking) return;
    this.#timers.set('silence', this.#d.context.config.advanced.silence_timeout_s * 1000, () => this.#onSilence());
  }

  #onSilence(): void {
    const text = this.#idle.next();
    if (text !== undefined) return void this.#responses.request('idle', verbatim(text));
    void this.endCall('silence_timeout', { goodbye: true });
  }

  /** Ends the call: optional goodbye (`end_call_message`), then the session hangs up. */
  async endCall(reason: EndedReason, options: { goodbye: boolean }): Promise<void> {
    if (this.#ending !== undefined) return;
    this.#ending = reason;
    this.#timers.clear(['transfer', 'voicemail']);
    const goodbye = this.#d.context.script.endCallMessage;
    if (options.goodbye && goodbye !== '') {
      if (reason === 'max_duration' || reason === 'canceled') this.#silence();
      await this.#sayAndWait('goodbye', goodbye);
    }
    this.#d.finish(reason);
  }

  /** The provider failed: the voice is gone with it, so the call ends `error` without a fallback line. */
  fail(error: Error): void {
    if (this.#ending === 'error') return;
    this.#d.log('call.provider.failed', { call_id: this.#d.context.call.id, error: error.message });
    this.#ending = 'error';
    this.#timers.clear(['transfer', 'voicemail']);
    this.#silence();
    this.#d.finish('error');
  }

  /** Stops timers and closes the provider session (the session is tearing down). */
  close(): void {
    this.#timers.clear(['transfer', 'voicemail']);
    for (const off of this.#offs) off();
    this.#abort.abort();
    this.#playback.close();
  }

  /** The transcript: what each side said, assistant text cut to what was heard. */
  transcript(): TranscriptEntry[] {
    return this.#log.entries(this.#d.now());
  }

  #silence(): void {
    this.#playback.interrupt();
    for (const reply of this.#responses.all()) this.#responses.cancel(reply);
  }

  async #sayAndWait(kind: UtteranceKind, text: string): Promise<void> {
    await this.#timers.waitAtMost(this.#responses.request(kind, verbatim(text)), this.#d.tuning.goodbyeMaxMs);
  }
}
