import type { AnsweredBy } from '../ports/telephony';
import type { TimerSet } from './timer-set';
import { soundsLikeVoicemail } from './turn-taking';

/** What voicemail handling does to its call. */
export interface VoicemailHooks {
  /** Claims the call's ending for `voicemail`; false when it is already ending for another reason. */
  claimEnding(): boolean;
  /** Stops the assistant mid-word and forgets any reply in flight. */
  silenceAssistant(): void;
  /** Says the message and resolves once it played (bounded). */
  say(text: string): Promise<void>;
  /** Ends the call `voicemail`. */
  finish(): void;
}

/** Settings of {@link Voicemail}. */
export interface VoicemailOptions {
  /** Outbound call with `voicemail_detection` on. */
  enabled: boolean;
  /** `voicemail_message` ('' hangs up as soon as a machine is detected). */
  message: string;
  /** Quiet after the greeting before speaking when no beep is reported. */
  quietMs: number;
  timers: TimerSet;
  hooks: VoicemailHooks;
}

/**
 * Answering machines on outbound calls (docs/protocols.md "Lessons from open-source voice pipelines"): the carrier's AMD verdict, or a
 * voicemail-sounding first caller turn, stops the assistant; then the message is left after the
 * beep (`machine_end_*`) or after the greeting falls quiet, and the call ends `voicemail`.
 */
export class Voicemail {
  #state: 'none' | 'waiting' | 'leaving' = 'none';
  readonly #o: VoicemailOptions;

  constructor(options: VoicemailOptions) {
    this.#o = options;
  }

  /** True once a machine was detected: the conversation stops reacting to the caller. */
  get active(): boolean {
    return this.#state !== 'none';
  }

  /** The carrier's AMD verdict. */
  onAmd(answeredBy: AnsweredBy): void {
    if (!this.#o.enabled) return;
    if (answeredBy === 'fax') return this.#detected(true, false);
    if (answeredBy.startsWith('machine_')) this.#detected(answeredBy !== 'machine_start', true);
  }

  /** The machine (or person) started talking: the quiet wait restarts. */
  onSpeechStarted(): void {
    this.#o.timers.cancel('voicemail');
  }

  /**
   * A caller turn ended; returns true when voicemail handling took it (a machine is on the line, or
   * this turn reveals one: only the first two turns are checked).
   */
  onCallerTurn(text: string, userTurns: number): boolean {
    if (this.#state === 'waiting') {
      this.#o.timers.set('voicemail', this.#o.quietMs, () => void this.#leave());
      return true;
    }
    if (this.#state === 'leaving') return true;
    if (this.#o.enabled && userTurns <= 2 && soundsLikeVoicemail(text)) {
      this.#detected(false, true);
      return true;
    }
    return false;
  }

  #detected(greetingOver: boolean, leaveMessage: boolean): void {
    if (this.#state === 'leaving') return;
    if (this.#state === 'none') {
      if (!this.#o.hooks.claimEnding()) return;
      this.#state = 'waiting';
      this.#o.hooks.silenceAssistant();
      if (this.#o.message === '' || !leaveMessage) return this.#o.hooks.finish();
    }
    if (greetingOver) return void this.#leave();
    this.#o.timers.set('voicemail', this.#o.quietMs, () => void this.#leave());
  }

  async #leave(): Promise<void> {
    if (this.#state !== 'waiting') return;
    this.#state = 'leaving';
    this.#o.timers.cancel('voicemail');
    await this.#o.hooks.say(this.#o.message);
    this.#o.hooks.finish();
  }
}
