import type { EndedReason, TranscriptEntry } from '../../../shared/domain/call';
import { containsEndPhrase } from '../../../shared/domain/call-script';
import type { AnsweredBy } from '../ports/telephony';
import { IdlePrompts } from './idle-prompts';
import { Keypad } from './keypad';
import type { ConversationBaseDeps } from './session-types';
import { TimerSet } from './timer-set';
import { TranscriptLog } from './transcript-log';
import { transferCall } from './transfer';
import { Voicemail } from './voicemail';

/** Tool calls after which the model is asked again, each answered "not available" (a model looping on them stops). */
const MAX_TOOL_ROUNDS = 2;

/** A tool call as either conversation kind reports it: only its name matters to the policy. */
export interface NamedCall {
  readonly name: string;
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
  /** Gives the model a tool call's error result. */
  toolError(call: Call, error: string): void;
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
  readonly #idle: IdlePrompts;
  readonly #keypad: Keypad;
  /** The call's named timers: greeting, silence, dtmf, voicemail, transfer. */
  readonly timers: TimerSet;
  /** What each side said (docs/design.md §4). */
  readonly log: TranscriptLog;
  readonly voicemail: Voicemail;
  #ending: EndedReason | undefined;
  #noticeTaken = false;
  #toolRounds = 0;

  constructor(deps: ConversationBaseDeps, hooks: PolicyHooks<Call>) {
    this.#d = deps;
    this.#hooks = hooks;
    this.timers = new TimerSet(deps.timers);
    this.log = new TranscriptLog(deps.t0);
    this.#idle = new IdlePrompts(deps.context);
    this.#keypad = new Keypad(this.timers, deps.tuning.dtmfIdleMs, (text) => this.#keyed(text));
    const { call, config, script } = deps.context;
    this.voicemail = new Voicemail({
      enabled: call.direction === 'outbound' && config.advanced.voicemail_detection,
      message: script.voicemailMessage,
      quietMs: deps.tuning.voicemailQuietMs,
      timers: this.timers,
      hooks: {
        claimEnding: () => {
          if (this.#ending !== undefined) return false;
          this.#claim('voicemail');
          return true;
        },
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
   * Starts the call per `first_message_mode`: `greet` after `greeting_delay_ms`; or, waiting for
   * the caller, after `greet_after_silence_s` (when set) or else the silence clock.
   */
  open(greet: () => void): void {
    const { advanced, first_message_mode: mode } = this.#d.context.config;
    if (mode !== 'wait_for_user') return this.timers.set('greet', advanced.greeting_delay_ms, greet);
    if (advanced.greet_after_silence_s > 0) this.timers.set('greet', advanced.greet_after_silence_s * 1000, greet);
    else this.armSilence();
  }

  /** Starts the silence clock, unless the call is ending or someone is talking or thinking. */
  armSilence(): void {
    this.timers.cancel('silence');
    if (this.#ending !== undefined || this.#hooks.busy()) return;
    this.timers.set('silence', this.#d.context.config.advanced.silence_timeout_s * 1000, () => this.#onSilence());
  }

  /** Someone started talking (or a reply started): the silence clock stops. */
  cancelSilence(): void {
    this.timers.cancel('silence');
  }

  /** The caller said something: the next silence starts the idle messages over. */
  callerSpoke(): void {
    this.#idle.reset();
  }

  /** One keypad key (`keypad` on, the call not ending): gathered into one caller message. */
  press(digit: string): void {
    if (!this.#d.context.config.advanced.keypad || this.#ending !== undefined || this.voicemail.active) return;
    this.cancelSilence();
    this.#keypad.press(digit);
  }

  /** The carrier's answering-machine verdict (outbound calls with `voicemail_detection`). */
  onAmd(answeredBy: AnsweredBy): void {
    this.voicemail.onAmd(answeredBy);
  }

  /** The AI-disclosure / recording notice, once per call, right after the assistant's first words; else undefined. */
  takeNotice(): string | undefined {
    if (this.#noticeTaken) return undefined;
    this.#noticeTaken = true;
    const { notice } = this.#d.context.script;
    return notice === '' ? undefined : notice;
  }

  /**
   * A reply played to the end: acts on its `end_call` or `transfer` tool, other tools (asked again
   * at most twice), or an end phrase. Returns false when the conversation simply goes on.
   */
  afterReply(text: string, calls: readonly Call[]): boolean {
    const { config, script } = this.#d.context;
    const endCall = calls.find((call) => call.name === 'end_call');
    if (endCall) {
      this.log.tool('end_call', this.#d.now());
      void this.endCall('assistant_ended', { goodbye: script.endCallMessage !== '' && text === '' });
      return true;
    }
    const transfer = calls.find((call) => call.name === 'transfer');
    if (transfer) {
      void this.#transfer(transfer);
      return true;
    }
    if (calls.length > 0 && this.#toolRounds++ < MAX_TOOL_ROUNDS) {
      for (const call of calls) this.#hooks.toolError(call, `The tool ${call.name} is not available on this call.`);
      this.#hooks.replyAgain();
      return true;
    }
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

  /** The transcript (docs/design.md §4): what each side said, assistant text cut to what was heard. */
  transcript(): TranscriptEntry[] {
    return this.log.entries(this.#d.now());
  }

  /** Decides the ending: every timer but a transfer's fallback stops, and nothing new is thought up. */
  #claim(reason: EndedReason): void {
    this.#ending = reason;
    this.timers.clear(['transfer']);
    this.#hooks.stopThinking();
  }

  #keyed(text: string): void {
    const now = this.#d.now();
    this.log.user(text, now, now);
    this.#idle.reset();
    if (this.#hooks.audible() && this.#d.context.config.advanced.interruptions !== 'never') this.#hooks.bargeIn();
    this.#hooks.answerKeypad(text, now);
  }

  #onSilence(): void {
    const text = this.#idle.next();
    if (text !== undefined) return this.#hooks.sayIdle(text);
    void this.endCall('silence_timeout', { goodbye: true });
  }

  async #transfer(call: Call): Promise<void> {
    this.#ending = 'transferred';
    this.log.tool(`transfer to ${this.#d.context.transferNumber}`, this.#d.now());
    if (await transferCall(this.#d, this.timers)) return;
    this.#ending = undefined;
    this.#hooks.toolError(call, 'The transfer failed.');
    this.#hooks.sayReply(this.#d.context.script.transferFailed);
  }

  async #sayAndWait(kind: 'goodbye' | 'voicemail', text: string): Promise<void> {
    await this.timers.waitAtMost(this.#hooks.say(kind, text), this.#d.tuning.goodbyeMaxMs);
  }
}
