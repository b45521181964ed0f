import type { EndedReason, TranscriptEntry } from '../../../shared/domain/call';
import { containsEndPhrase } from '../../../shared/domain/call-script';
import type { LanguageModel, LlmMessage, LlmRequest, LlmStream, LlmToolCall } from '../ports/language-model';
import type { SttEvent, SttStream } from '../ports/speech-to-text';
import type { AnsweredBy } from '../ports/telephony';
import type { TurnTiming } from './call-metrics';
import type { ConversationBaseDeps } from './session-types';
import { streamReply } from './reply-stream';
import type { Speaker, Utterance, UtteranceKind } from './speaker';
import { IdlePrompts } from './idle-prompts';
import { TimerSet } from './timer-set';
import { heardText, TranscriptLog } from './transcript-log';
import { TRANSFER_FAILED, transferCall } from './transfer';
import { isBackchannel, shouldInterrupt } from './turn-taking';
import { Voicemail } from './voicemail';

/** What a conversation needs from its session. */
export interface ConversationDeps extends ConversationBaseDeps {
  speaker: Speaker;
  llm: LanguageModel;
  stt: SttStream;
}

interface Turn {
  controller: AbortController;
  utterance: Utterance;
  message?: Extract<LlmMessage, { role: 'assistant' }>;
}

const FALLBACK_LINE = "I'm sorry, I'm having technical trouble and can't continue right now. Please call back in a little while. Goodbye.";
/** A Flux turn longer than this is not answered eagerly: a long guess is rarely kept (docs/protocols.md B4). */
const EAGER_MAX_WORDS = 60;

/**
 * The conversation of one call (docs/design.md §6): greeting per `first_message_mode`, turn-taking on
 * Flux events, eager replies, barge-in with history cut to what was heard, fillers, keypad input,
 * idle messages and the silence timeout, voicemail, the built-in `end_call` and `transfer` tools,
 * end phrases and the safety fallback. It decides; the session owns the sockets and timers' end.
 */
export class Conversation {
  readonly #d: ConversationDeps;
  readonly #history: LlmMessage[] = [];
  readonly #log: TranscriptLog;
  #turn: Turn | undefined;
  #speculative: { transcript: string; controller: AbortController; stream: LlmStream; startedAt: number } | undefined;
  #ending: EndedReason | undefined;
  #greetingDone = false;
  #noticeSpoken = false;
  #userTurnStartAt: number | undefined;
  /** The recogniser's latest words of the caller's turn still open (kept if the caller hangs up mid-turn). */
  #openTurnText = '';
  /** The caller hung up: what they said last is written down, never answered. */
  #callerGone = false;
  #userSpoke = false;
  #heldUserTurn = false;
  readonly #idle: IdlePrompts;
  #toolRounds = 0;
  #dtmf = '';
  readonly #voicemail: Voicemail;
  readonly #timers: TimerSet;

  constructor(deps: ConversationDeps) {
    this.#d = deps;
    this.#log = new TranscriptLog(deps.t0);
    this.#timers = new TimerSet(deps.timers);
    this.#idle = new IdlePrompts(deps.context);
    const { call, config, script } = deps.context;
    this.#voicemail = new Voicemail({
      enabled: call.direction === 'outbound' && config.advanced.voicemail_detection,
      message: script.voicemailMessage,
      quietMs: deps.tuning.voicemailQuietMs,
      timers: this.#timers,
      hooks: {
        claimEnding: () => {
          if (this.#ending && this.#ending !== 'voicemail') return false;
          this.#ending = 'voicemail';
          this.#timers.cancel('silence');
          this.#dropSpeculative();
          return true;
        },
        silenceAssistant: () => this.#silenceAssistant(),
        say: (text) => this.#sayAndWait('voicemail', text),
        finish: () => this.#d.finish('voicemail'),
      },
    });
  }

  /** The reason the call is ending, once decided (a carrier `stop` then keeps it). */
  get pendingReason(): EndedReason | undefined {
    return this.#ending;
  }

  /** Starts the call per `first_message_mode` and `greeting_delay_ms`. */
  async open(): Promise<void> {
    const { advanced, first_message_mode: mode } = this.#d.context.config;
    if (mode === 'wait_for_user') {
      if (advanced.greet_after_silence_s > 0)
        this.#timers.set('greet', advanced.greet_after_silence_s * 1000, () => !this.#userSpoke && this.#greet());
      else this.#armSilence();
      return;
    }
    this.#timers.set('greet', advanced.greeting_delay_ms, () => this.#greet());
  }

  #greet(): void {
    if (this.#ending || this.#turn || this.#userSpoke) return;
    const first = this.#d.context.script.firstMessage;
    // assistant_first, or wait_for_user greeting a silent caller (greet_after_silence_s): the first message when set.
    if (this.#d.context.config.first_message_mode !== 'model_generated' && first !== '') {
      this.#speakScripted('greeting', first);
      this.#afterFirstUtterance();
      return;
    }
    void this.#reply('greeting');
  }

  /** Recogniser events, in order. */
  onStt(event: SttEvent): void {
    if ((event.type === 'update' || event.type === 'eager_end_of_turn') && event.transcript.trim() !== '')
      this.#openTurnText = event.transcript.trim();
    if (this.#ending && !this.#voicemail.active && !this.#callerGone) return;
    switch (event.type) {
      case 'start_of_turn':
        this.#userTurnStartAt = this.#d.now();
        this.#timers.cancel('silence');
        this.#voicemail.onSpeechStarted();
        return;
      case 'update':
        return this.#onUpdate(event.transcript);
      case 'eager_end_of_turn':
        return this.#onEager(event.transcript);
      case 'turn_resumed':
        return this.#dropSpeculative();
      case 'end_of_turn':
        return this.#onEndOfTurn(event.transcript, event.endOfSpeechMs);
      default:
        return;
    }
  }

  #onUpdate(transcript: string): void {
    if (this.#voicemail.active || !this.#d.speaker.audible) return;
    const { advanced } = this.#d.context.config;
    const interrupt = shouldInterrupt({
      mode: advanced.interruptions,
      minWords: advanced.interrupt_min_words,
      assistantSpeaking: true,
      greetingDone: this.#greetingDone,
      transcript,
    });
    if (interrupt) this.#bargeIn();
  }

  #onEager(transcript: string): void {
    if (!this.#d.context.config.transcriber.eager || this.#voicemail.active || this.#turn || this.#d.speaker.speaking) return;
    if (transcript.trim() === '' || transcript.split(/\s+/).length > EAGER_MAX_WORDS) return;
    this.#dropSpeculative();
    const controller = new AbortController();
    const stream = this.#d.llm.stream(this.#request(controller.signal, [{ role: 'user', content: transcript.trim() }]));
    this.#speculative = { transcript: transcript.trim(), controller, stream, startedAt: this.#d.now() };
    this.#d.counters.eagerStarted++;
  }

  #onEndOfTurn(transcript: string, endOfSpeechMs: number | undefined): void {
    const now = this.#d.now();
    const text = transcript.trim();
    const startAt = this.#userTurnStartAt ?? now;
    this.#userTurnStartAt = undefined;
    this.#openTurnText = '';
    if (text === '' && this.#callerGone) return;
    if (text === '') {
      this.#dropSpeculative();
      return this.#armSilence();
    }
    const endAt = endOfSpeechMs === undefined ? now : Math.min(now, this.#d.t0 + endOfSpeechMs);
    this.#log.user(text, startAt, endAt);
    this.#userSpoke = true;
    if (this.#callerGone) return;
    if (this.#voicemail.onCallerTurn(text, this.#log.userTurns) || this.#ending) return;
    this.#idle.reset();
    this.#history.push({ role: 'user', content: text });
    this.#answer({ endOfTurnAt: now, endOfSpeechAt: endOfSpeechMs === undefined ? undefined : endAt, eager: false }, text);
  }

  /** Replies to the caller's newest words, reusing an eager reply when its guess held. */
  #answer(timing: TurnTiming, text: string): void {
    if (this.#d.speaker.audible) {
      this.#dropSpeculative();
      if (!isBackchannel(text)) this.#heldUserTurn = true;
      return;
    }
    if (this.#turn) this.#cancelTurn();
    const speculative = this.#speculative;
    this.#speculative = undefined;
    if (speculative && speculative.transcript === text) {
      timing.eager = true;
      void this.#reply('reply', timing, speculative);
      return;
    }
    if (speculative) {
      speculative.controller.abort();
      this.#d.counters.eagerDiscarded++;
    }
    void this.#reply('reply', timing);
  }

  /** One assistant turn: stream the model into the voice, then act on its tool calls. */
  async #reply(
    kind: 'reply' | 'greeting',
    timing?: TurnTiming,
    reuse?: { controller: AbortController; stream: LlmStream; startedAt: number },
  ): Promise<void> {
    this.#timers.cancel('silence');
    const controller = reuse?.controller ?? new AbortController();
    const utterance = this.#d.speaker.begin(kind);
    this.#log.utterance(utterance);
    const turn: Turn = { controller, utterance };
    this.#turn = turn;
    if (timing) {
      timing.requestAt = reuse?.startedAt ?? this.#d.now();
      timing.utterance = utterance;
      this.#d.counters.turns.push(timing);
    }
    const extra: LlmMessage[] =
      kind === 'greeting' ? [{ role: 'system', content: 'The call has just connected. Greet the caller briefly.' }] : [];
    const stream = reuse?.stream ?? this.#d.llm.stream(this.#request(controller.signal, extra));
    const fillers = kind === 'reply' && this.#d.context.config.advanced.fillers;
    const result = await streamReply(
      {
        speaker: this.#d.speaker,
        counters: this.#d.counters,
        timers: this.#d.timers,
        fillerAfterMs: fillers ? this.#d.tuning.fillerAfterMs : undefined,
        sayFiller: (text) => this.#say('filler', text),
      },
      stream,
      utterance,
      controller.signal,
    );
    if (result.kind === 'failed') return this.fail(result.error);
    if (result.kind === 'cancelled' || controller.signal.aborted) return;
    const { toolCalls } = result;
    if (timing) timing.llmFirstTokenMs = stream.firstTokenMs;
    this.#d.speaker.end(utterance);
    turn.message = {
      role: 'assistant',
      content: utterance.text === '' ? null : utterance.text,
      ...(toolCalls.length > 0 && { toolCalls }),
    };
    this.#history.push(turn.message);
    this.#afterFirstUtterance();
    await utterance.done;
    if (this.#turn !== turn) return;
    this.#turn = undefined;
    await this.#afterReply(utterance, toolCalls);
  }

  async #afterReply(utterance: Utterance, toolCalls: LlmToolCall[]): Promise<void> {
    const { config, script } = this.#d.context;
    const endCall = toolCalls.find((call) => call.name === 'end_call');
    const transfer = toolCalls.find((call) => call.name === 'transfer');
    if (endCall) {
      this.#log.tool('end_call', this.#d.now());
      return this.endCall('assistant_ended', { goodbye: script.endCallMessage !== '' && utterance.text === '' });
    }
    if (transfer) return this.#transfer(transfer);
    if (toolCalls.length > 0 && this.#toolRounds++ < 2) {
      for (const call of toolCalls)
        this.#history.push({
          role: 'tool',
          toolCallId: call.id,
          content: JSON.stringify({ error: `The tool ${call.name} is not available on this call.` }),
        });
      return void this.#reply('reply');
    }
    if (containsEndPhrase(utterance.text, config.advanced.end_call_phrases)) return this.endCall('end_phrase', { goodbye: false });
    this.#afterSpeech();
  }

  /** The assistant went quiet: answer words held while it spoke, or start the silence clock. */
  #afterSpeech(): void {
    if (this.#d.speaker.speaking || this.#turn || this.#ending) return;
    this.#greetingDone = true;
    if (this.#heldUserTurn) {
      this.#heldUserTurn = false;
      return void this.#reply('reply');
    }
    this.#armSilence();
  }

  /** Speaks the AI-disclosure / recording notice once, right after the call's first assistant words. */
  #afterFirstUtterance(): void {
    if (this.#noticeSpoken) return;
    this.#noticeSpoken = true;
    const notice = this.#d.context.script.notice;
    if (notice === '') return;
    const utterance = this.#say('notice', notice);
    void utterance.done.then(() => this.#afterSpeech());
  }

  /** Barge-in: stop the model and the voice, clear the carrier, keep in history only what was heard. */
  #bargeIn(): void {
    const turn = this.#turn;
    this.#turn = undefined;
    turn?.controller.abort();
    const cut = this.#d.speaker.interrupt();
    if (cut.length === 0) return;
    this.#d.counters.interruptions++;
    this.#d.log('call.barge_in', { call_id: this.#d.context.call.id, heard_ms: Math.round((turn?.utterance.bytesPlayed ?? 0) / 8) });
    this.#greetingDone = true;
    this.#dropSpeculative();
    if (!turn?.message) return;
    const heard = heardText(turn.utterance);
    const index = this.#history.indexOf(turn.message);
    if (heard === '' && index >= 0) this.#history.splice(index, 1);
    else if (index >= 0) this.#history[index] = { role: 'assistant', content: heard };
  }

  /** A reply nobody heard yet is superseded by newer words: forget it entirely. */
  #cancelTurn(): void {
    const turn = this.#turn;
    if (!turn) return;
    this.#turn = undefined;
    turn.controller.abort();
    this.#d.speaker.interrupt();
    if (turn.message) this.#history.splice(this.#history.indexOf(turn.message), 1);
  }

  #dropSpeculative(): void {
    if (!this.#speculative) return;
    this.#speculative.controller.abort();
    this.#speculative = undefined;
    this.#d.counters.eagerDiscarded++;
  }

  /** Keypad: digits reach the model after a pause or `#` (when `keypad` is on). */
  onDtmf(digit: string): void {
    if (!this.#d.context.config.advanced.keypad || this.#ending || this.#voicemail.active) return;
    this.#dtmf += digit;
    this.#timers.cancel('silence');
    if (digit === '#') return this.#flushDtmf();
    this.#timers.set('dtmf', this.#d.tuning.dtmfIdleMs, () => this.#flushDtmf());
  }

  #flushDtmf(): void {
    this.#timers.cancel('dtmf');
    if (this.#dtmf === '') return;
    const text = `[keypad] ${this.#dtmf.split('').join(' ')}`;
    this.#dtmf = '';
    const now = this.#d.now();
    this.#log.user(text, now, now);
    this.#history.push({ role: 'user', content: text });
    if (this.#d.speaker.audible && this.#d.context.config.advanced.interruptions !== 'never') this.#bargeIn();
    this.#answer({ endOfTurnAt: now, eager: false }, text);
  }

  /** The carrier's answering-machine verdict (outbound calls with `voicemail_detection`). */
  onAmd(answeredBy: AnsweredBy): void {
    this.#voicemail.onAmd(answeredBy);
  }

  async #transfer(call: LlmToolCall): Promise<void> {
    this.#ending = 'transferred';
    this.#log.tool(`transfer to ${this.#d.context.transferNumber}`, this.#d.now());
    if (await transferCall(this.#d, this.#timers)) return;
    this.#ending = undefined;
    this.#history.push({ role: 'tool', toolCallId: call.id, content: JSON.stringify({ error: 'The transfer failed.' }) });
    const utterance = this.#say('reply', TRANSFER_FAILED);
    void utterance.done.then(() => this.#afterSpeech());
  }

  #armSilence(): void {
    this.#timers.cancel('silence');
    if (this.#ending || this.#turn || this.#d.speaker.speaking || this.#userTurnStartAt !== undefined) return;
    this.#timers.set('silence', this.#d.context.config.advanced.silence_timeout_s * 1000, () => this.#onSilence());
  }

  #onSilence(): void {
    const text = this.#idle.next();
    if (text !== undefined) return this.#speakScripted('idle', text);
    void this.endCall('silence_timeout', { goodbye: true });
  }

  /** The assistant ends the call: optional goodbye (`end_call_message`), then the session hangs up. */
  async endCall(reason: EndedReason, options: { goodbye: boolean }): Promise<void> {
    if (this.#ending) return;
    this.#ending = reason;
    this.#timers.clear(['transfer']);
    this.#dropSpeculative();
    const goodbye = this.#d.context.script.endCallMessage;
    if (options.goodbye && goodbye !== '') {
      if (reason === 'max_duration' || reason === 'canceled') this.#silenceAssistant();
      await this.#sayAndWait('goodbye', goodbye);
    }
    this.#d.finish(reason);
  }

  /** A provider failed: with `safety_fallback`, a graceful line first; the call ends `error`. */
  fail(error: Error, failed?: 'tts'): void {
    if (this.#ending === 'error') return;
    this.#d.log('call.provider.failed', { call_id: this.#d.context.call.id, error: error.message });
    this.#ending = 'error';
    this.#timers.clear(['transfer']);
    this.#dropSpeculative();
    this.#silenceAssistant();
    if (!this.#d.context.config.advanced.safety_fallback || failed === 'tts') return this.#d.finish('error');
    void this.#sayAndWait('goodbye', FALLBACK_LINE).then(() => this.#d.finish('error'));
  }

  /** Stops every timer and the model (the session is tearing down). */
  /**
   * The caller hung up: from now on the recogniser's last results (flushed by closing it) are
   * written to the transcript and never answered.
   */
  callerLeft(): void {
    this.#callerGone = true;
    this.#dropSpeculative();
  }

  /**
   * Keeps a caller turn the recogniser had not finished ("Thanks, bye" said just before hanging up):
   * its latest words go to the transcript as the caller's last line.
   */
  keepUnfinishedCallerTurn(): void {
    if (this.#openTurnText === '') return;
    const now = this.#d.now();
    this.#log.user(this.#openTurnText, this.#userTurnStartAt ?? now, now);
    this.#openTurnText = '';
    this.#userTurnStartAt = undefined;
  }

  close(): void {
    this.#timers.clear(['transfer']);
    this.#dropSpeculative();
    this.#turn?.controller.abort();
  }

  /** The transcript (docs/design.md §4): what each side said, assistant text cut to what was heard. */
  transcript(): TranscriptEntry[] {
    return this.#log.entries(this.#d.now());
  }

  #silenceAssistant(): void {
    this.#turn?.controller.abort();
    this.#turn = undefined;
    this.#d.speaker.interrupt();
  }

  /** Fixed words said as a turn of their own (greeting, idle message): barge-in cuts them in history too. */
  #speakScripted(kind: UtteranceKind, text: string): void {
    const utterance = this.#say(kind, text);
    const message: Turn['message'] = { role: 'assistant', content: text };
    this.#history.push(message);
    const turn: Turn = { controller: new AbortController(), utterance, message };
    this.#turn = turn;
    void utterance.done.then(() => {
      if (this.#turn !== turn) return;
      this.#turn = undefined;
      this.#afterSpeech();
    });
  }

  #say(kind: UtteranceKind, text: string): Utterance {
    const utterance = this.#d.speaker.say(kind, text);
    this.#log.utterance(utterance);
    return utterance;
  }

  async #sayAndWait(kind: UtteranceKind, text: string): Promise<void> {
    await this.#timers.waitAtMost(this.#say(kind, text).done, this.#d.tuning.goodbyeMaxMs);
  }

  #request(signal: AbortSignal, extra: LlmMessage[] = []): LlmRequest {
    const { config, script, tools } = this.#d.context;
    return {
      model: config.model.model,
      messages: [{ role: 'system', content: script.systemPrompt }, ...this.#history, ...extra],
      ...(tools.length > 0 && { tools }),
      temperature: config.model.temperature,
      maxTokens: config.model.max_tokens,
      priority: config.model.priority,
      race: config.model.race,
      signal,
    };
  }
}
