import type { EndedReason, TranscriptEntry } from '../../../shared/domain/call';
import { containsEndPhrase, noticesDue } from '../../../shared/domain/call-script';
import type { AnsweredBy } from '../ports/telephony';
import { Notice } from './notice';
import type { ConversationBaseDeps } from './session-types';
import { TimerSet } from './timer-set';
import { TranscriptLog } from './transcript-log';
import { transferCall } from './transfer';
import { Voicemail } from './voicemail';
import { reduceKeypad, type KeypadEvent, type KeypadSettings } from './rules/keypad';
import { reduceSilence, SILENCE_START, type SilenceEvent, type SilenceSettings, type SilenceState } from './rules/silence';
import { OPENING_START, reduceOpening, type OpeningEvent, type OpeningSettings, type OpeningState } from './rules/opening';

/** Tool rounds in a row (without the caller speaking) after which the model is asked again; a model looping on tools stops. */
const MAX_TOOL_ROUNDS = 3;

/** A voicemail message's wait bound per character (docs/decisions.md "What a voicemail owes the law"). */
const VOICEMAIL_MS_PER_CHARACTER = 120;

/** Said while a tool is still running after `toolFillerAfterMs` (never in the model's history). */
export const TOOL_FILLER_LINE = 'One moment while I take care of that.';

/** A tool call as either conversation kind reports it: its name and the model's JSON arguments. */
export interface NamedCall {
  readonly name: string;
  readonly arguments: string;
}

/** What the policy asks of its conversation: the voice and the model, which each kind drives its own way. */
export interface PolicyHooks<Call extends NamedCall> {
  /** Stops the assistant mid-word and forgets the reply in flight. */
  silenceAssistant(): void;
  /** The call started ending: drop work only a next reply could use (an eager guess). */
  stopThinking(): void;
  /** Says fixed words as their own utterance; resolves once played or cut. */
  say(kind: 'goodbye' | 'voicemail', text: string): Promise<void>;
  /** Says an idle message as a turn of its own (the caller may answer it). */
  sayIdle(text: string): void;
  /** The silence clock waits: a reply in flight, speech still playing, or the caller mid-turn. */
  busy(): boolean;
  /** Assistant audio is queued or playing now. */
  audible(): boolean;
  /** Barge-in: the caller's input cuts the assistant off. */
  bargeIn(): void;
  /** A keypad entry for the model (already in the transcript), entered at clock ms `at`. */
  answerKeypad(text: string, at: number): void;
  /** Gives the model a tool call's result (JSON text: the tool's output, or `{"error": …}`). */
  toolResult(call: Call, output: string): void;
  /** Says a short filler while a tool runs (never in the model's history). */
  sayFiller(text: string): void;
  /** Asks the model for another reply (after tool results). */
  replyAgain(): void;
  /** Says fixed words as an assistant reply, then the conversation goes on (a failed transfer's apology). */
  sayReply(text: string): void;
}

/**
 * The call-handling rules both conversation kinds (standard, live; later workflows) share, in one
 * place: the ending (first reason wins, a provider failure overrides), the goodbye and the safety
 * fallback, the silence clock and idle messages, keypad entry, voicemail, the notice, and what a
 * finished reply's tools and end phrases mean. The conversation drives the voice through
 * {@link PolicyHooks}; the policy never touches a provider.
 */
export class CallPolicy<Call extends NamedCall = NamedCall> {
  readonly #d: ConversationBaseDeps;
  readonly #hooks: PolicyHooks<Call>;
  readonly #silenceSettings: SilenceSettings;
  #silence: SilenceState = SILENCE_START;
  readonly #keypadSettings: KeypadSettings;
  #digits = '';
  /** The call's named timers: greeting, silence, dtmf, voicemail, transfer. */
  readonly timers: TimerSet;
  /** What each side said (docs/design.md "Resources"). */
  readonly log: TranscriptLog;
  readonly voicemail: Voicemail;
  /** The AI-disclosure / recording notice: said before the first question, uncuttable, repeated until heard. */
  readonly notice: Notice;
  #ending: EndedReason | undefined;
  readonly #openingSettings: OpeningSettings;
  #opening: OpeningState = OPENING_START;
  #greet: () => void = () => undefined;
  #toolRounds = 0;
  #toolsRunning = 0;

  constructor(deps: ConversationBaseDeps, hooks: PolicyHooks<Call>) {
    this.#d = deps;
    this.#hooks = hooks;
    this.timers = new TimerSet(deps.timers);
    this.log = new TranscriptLog(deps.t0);
    const { advanced } = deps.context.config;
    this.#silenceSettings = {
      timeoutMs: advanced.silence_timeout_s * 1000,
      messages: deps.context.script.idleMessages,
      max: advanced.idle_max,
    };
    this.#keypadSettings = { enabled: advanced.keypad, idleMs: deps.tuning.dtmfIdleMs, neverInterrupt: advanced.interruptions === 'never' };
    const { call, config, script } = deps.context;
    this.notice = new Notice(script.notice, noticesDue(config));
    const screen = call.direction === 'outbound' && config.advanced.voicemail_detection;
    this.#openingSettings = {
      mode: config.first_message_mode,
      greetingDelayMs: config.advanced.greeting_delay_ms,
      greetAfterSilenceMs: config.advanced.greet_after_silence_s * 1000,
      screen,
      screenMs: Math.max(config.advanced.greeting_delay_ms, deps.tuning.screenMs),
    };
    this.voicemail = new Voicemail({
      enabled: call.direction === 'outbound' && config.advanced.voicemail_detection,
      message: script.voicemailMessage,
      quietMs: deps.tuning.voicemailQuietMs,
      timers: this.timers,
      hooks: {
        ending: () => this.#ending !== undefined,
        claimEnding: () => this.#claim('voicemail'),
        silenceAssistant: () => hooks.silenceAssistant(),
        say: (text) => this.#sayAndWait('voicemail', text),
        finish: () => this.#d.finish('voicemail'),
      },
    });
  }

  /** The reason the call is ending, once decided (a carrier `stop` then keeps it). */
  get pendingReason(): EndedReason | undefined {
    return this.#ending;
  }

  /**
   * Starts the call's opening (`./rules/opening.ts`): `greet` after `greeting_delay_ms`; waiting for
   * the caller, after `greet_after_silence_s` (when set) or else the silence clock; on an outbound
   * call screened for machines, once a person is on the line.
   */
  open(greet: () => void): void {
    this.#greet = greet;
    this.opening({ type: 'start' });
  }

  /** An outbound call still listening for a machine: nothing of ours may be said yet. */
  get openingScreening(): boolean {
    return this.#opening.phase === 'waiting' && this.#opening.for === 'callee';
  }

  /**
   * Feeds the opening an event and carries out its effects. True when the event was a caller turn
   * the greeting now answers (the conversation must not answer it too).
   */
  opening(event: OpeningEvent): boolean {
    const step = reduceOpening(this.#openingSettings, this.#opening, event);
    this.#opening = step.state;
    for (const effect of step.effects) {
      if (effect.type === 'arm') this.timers.set('greet', effect.ms, () => this.opening({ type: 'timer' }));
      else if (effect.type === 'cancel') this.timers.cancel('greet');
      else if (effect.type === 'listen') this.armSilence();
      else if (this.#ending === undefined) this.#greet();
    }
    return step.answered;
  }

  /** Starts the silence clock (`./rules/silence.ts`), unless the call is ending or someone is talking or thinking. */
  armSilence(): void {
    this.#silenceStep({ type: 'quiet', busy: this.#ending !== undefined || this.#hooks.busy() });
  }

  /** Someone started talking (or a reply started): the silence clock stops. */
  cancelSilence(): void {
    this.#silenceStep({ type: 'activity' });
  }

  /** The caller said something: the next silence starts the idle messages over, and tools may run again. */
  callerSpoke(): void {
    this.#silenceStep({ type: 'caller_spoke' });
    this.#toolRounds = 0;
  }

  /**
   * Tools of the last reply are running: the caller's words wait in the history for their results
   * (a model request must answer every tool call before the next message).
   */
  get toolsRunning(): boolean {
    return this.#toolsRunning > 0;
  }

  /** One keypad key (`keypad` on, the call not ending): gathered into one caller message. */
  press(digit: string): void {
    this.#keypadStep({ type: 'press', digit, closed: this.#ending !== undefined || this.voicemail.active, audible: this.#hooks.audible() });
  }

  /** The carrier's answering-machine verdict (outbound calls with `voicemail_detection`). */
  onAmd(answeredBy: AnsweredBy): void {
    this.voicemail.onAmd(answeredBy);
    const verdict = answeredBy === 'human' ? 'human' : answeredBy === 'unknown' ? 'unknown' : 'machine';
    this.opening({ type: 'amd', verdict });
  }

  /**
   * A reply played to the end: acts on its `end_call` or `transfer` tool, runs its other tools and
   * asks the model again with their results (at most {@link MAX_TOOL_ROUNDS} rounds in a row), or
   * ends on an end phrase. Returns false when the conversation simply goes on.
   */
  afterReply(text: string, calls: readonly Call[]): boolean {
    const { config, script } = this.#d.context;
    const endCall = calls.find((call) => call.name === 'end_call');
    if (endCall) {
      this.log.tool('end_call', this.#d.now());
      this.#d.tools.record(endCall, { ok: true, result: 'call ended' }, this.#d.now());
      void this.endCall('assistant_ended', { goodbye: script.endCallMessage !== '' && text === '' });
      return true;
    }
    const transfer = calls.find((call) => call.name === 'transfer');
    if (transfer) {
      void this.#transfer(transfer);
      return true;
    }
    if (calls.length > 0 && this.#toolRounds++ < MAX_TOOL_ROUNDS) {
      void this.#runTools(calls);
      return true;
    }
    const tooMany = JSON.stringify({ error: 'Too many tool calls in a row. Answer the caller now.' });
    for (const call of calls) this.#hooks.toolResult(call, tooMany);
    if (!containsEndPhrase(text, config.advanced.end_call_phrases)) return false;
    void this.endCall('end_phrase', { goodbye: false });
    return true;
  }

  /** Ends the call: optional goodbye (`end_call_message`), then the session hangs up. */
  async endCall(reason: EndedReason, options: { goodbye: boolean }): Promise<void> {
    if (this.#ending !== undefined) return;
    this.#claim(reason);
    const goodbye = this.#d.context.script.endCallMessage;
    if (options.goodbye && goodbye !== '') {
      if (reason === 'max_duration' || reason === 'canceled') this.#hooks.silenceAssistant();
      await this.#sayAndWait('goodbye', goodbye);
    }
    this.#d.finish(reason);
  }

  /**
   * A provider failed: the call ends `error`, after a graceful line when `safety_fallback` is on
   * and the voice still works (`voiceLost` false).
   */
  fail(error: Error, options: { voiceLost: boolean }): void {
    if (this.#ending === 'error') return;
    this.#d.log.error('call.provider.failed', { call_id: this.#d.context.call.id, error: error.message });
    this.#claim('error');
    this.#hooks.silenceAssistant();
    if (!this.#d.context.config.advanced.safety_fallback || options.voiceLost) return this.#d.finish('error');
    void this.#sayAndWait('goodbye', this.#d.context.script.fallback).then(() => this.#d.finish('error'));
  }

  /** Stops every timer (the session is tearing down). */
  close(): void {
    this.timers.clear();
  }

  /** The transcript (docs/design.md "Resources"): what each side said, assistant text cut to what was heard. */
  transcript(): TranscriptEntry[] {
    return this.log.entries(this.#d.now());
  }

  /** Decides the ending: every timer but a transfer's fallback stops, and nothing new is thought up. */
  #claim(reason: EndedReason): void {
    this.#ending = reason;
    this.timers.clear(['transfer']);
    this.#hooks.stopThinking();
  }

  /** Carries out the keypad rules (`./rules/keypad.ts`); the pause timer is `dtmf`. */
  #keypadStep(event: KeypadEvent): void {
    const step = reduceKeypad(this.#keypadSettings, this.#digits, event);
    this.#digits = step.digits;
    for (const effect of step.effects) {
      if (effect.type === 'arm')
        this.timers.set('dtmf', effect.ms, () => this.#keypadStep({ type: 'pause', audible: this.#hooks.audible() }));
      else if (effect.type === 'cancel') this.timers.cancel('dtmf');
      else if (effect.type === 'quiet') this.cancelSilence();
      else if (effect.type === 'barge_in') this.#hooks.bargeIn();
      else this.#keyed(effect.text);
    }
  }

  #keyed(text: string): void {
    const now = this.#d.now();
    this.log.user(text, now, now);
    this.#silenceStep({ type: 'caller_spoke' });
    // Keys are a person: on an outbound call still listening for a machine, the greeting answers them.
    if (this.opening({ type: 'caller_turn', machine: false, words: 1 })) return;
    this.#hooks.answerKeypad(text, now);
  }

  #silenceStep(event: SilenceEvent): void {
    const step = reduceSilence(this.#silenceSettings, this.#silence, event);
    this.#silence = step.state;
    for (const effect of step.effects) {
      if (effect.type === 'arm')
        this.timers.set('silence', effect.ms, () => this.#silenceStep({ type: 'timer', busy: this.#hooks.busy() }));
      else if (effect.type === 'cancel') this.timers.cancel('silence');
      else if (effect.type === 'idle') this.#hooks.sayIdle(effect.text);
      else void this.endCall(effect.reason, { goodbye: true });
    }
  }

  /** Runs a reply's tools together (a filler if they take long), then gives the model their results. */
  async #runTools(calls: readonly Call[]): Promise<void> {
    this.#toolsRunning++;
    const filler = this.#d.tools.fillerFor(calls) ?? TOOL_FILLER_LINE;
    this.timers.set('tool-filler', this.#d.tuning.toolFillerAfterMs, () => this.#hooks.sayFiller(filler));
    const ran = await Promise.all(calls.map((call) => this.#d.tools.runWithLine(call)));
    this.timers.cancel('tool-filler');
    this.#toolsRunning--;
    // In the transcript, so the call's reading (and the after-call analysis) knows what was done.
    for (const { line } of ran) this.log.tool(line, this.#d.now());
    if (this.#ending !== undefined) return;
    calls.forEach((call, index) => this.#hooks.toolResult(call, ran[index]!.output));
    this.#hooks.replyAgain();
  }

  async #transfer(call: Call): Promise<void> {
    this.#ending = 'transferred';
    this.log.tool(`transfer to ${this.#d.context.transferNumber}`, this.#d.now());
    // Recorded first: the carrier may stop the stream (and the session record the call) before the redirect's reply.
    const action = this.#d.tools.record(call, { ok: true, result: 'transferred' }, this.#d.now());
    if (await transferCall(this.#d, this.timers)) return;
    this.#ending = undefined;
    if (action) Object.assign(action, { ok: false, result: '', error: 'The transfer failed.' });
    this.#hooks.toolResult(call, JSON.stringify({ error: 'The transfer failed.' }));
    this.#hooks.sayReply(this.#d.context.script.transferFailed);
  }

  /**
   * Says fixed words and waits for them to play, bounded so a lost mark never holds the call open.
   * A voicemail message (up to 600 characters, 40 s of speech) gets a bound of its own length, at
   * 120 ms a character (speech is 60 to 70), so it is never cut short; `max_duration` still ends it.
   */
  async #sayAndWait(kind: 'goodbye' | 'voicemail', text: string): Promise<void> {
    const bound = this.#d.tuning.goodbyeMaxMs + (kind === 'voicemail' ? text.length * VOICEMAIL_MS_PER_CHARACTER : 0);
    await this.timers.waitAtMost(this.#hooks.say(kind, text), bound);
  }
}
