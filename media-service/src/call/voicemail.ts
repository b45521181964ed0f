import type { AnsweredBy } from '../ports/telephony';
import { reduceVoicemail, type VoicemailEvent, type VoicemailPhase, type VoicemailSettings } from './rules/voicemail';
import type { TimerSet } from './timer-set';

/** What voicemail handling does to its call. */
export interface VoicemailHooks {
  /** The call is already ending for another reason. */
  ending(): boolean;
  /** Claims the call's ending for `voicemail`. */
  claimEnding(): void;
  /** Stops the assistant mid-word and forgets any reply in flight. */
  silenceAssistant(): void;
  /** Says the message and resolves once it played (bounded). */
  say(text: string): Promise<void>;
  /** Ends the call `voicemail`. */
  finish(): void;
}

/** Settings of {@link Voicemail}. */
export interface VoicemailOptions extends VoicemailSettings {
  timers: TimerSet;
  hooks: VoicemailHooks;
}

/**
 * Answering machines on outbound calls: carries out the rules of `./rules/voicemail.ts` (the quiet
 * timer is `voicemail` in the call's timers).
 */
export class Voicemail {
  #phase: VoicemailPhase = 'none';
  readonly #o: VoicemailOptions;

  constructor(options: VoicemailOptions) {
    this.#o = options;
  }

  /** True once a machine was detected: the conversation stops reacting to the caller. */
  get active(): boolean {
    return this.#phase !== 'none';
  }

  /** The carrier's AMD verdict. */
  onAmd(answeredBy: AnsweredBy): void {
    this.#step({ type: 'amd', answeredBy, ending: this.#o.hooks.ending() });
  }

  /** The machine (or person) started talking: the quiet wait restarts. */
  onSpeechStarted(): void {
    this.#step({ type: 'speech_started' });
  }

  /**
   * A caller turn ended; returns true when voicemail handling took it (a machine is on the line, or
   * this turn reveals one: only the first two turns are checked).
   */
  onCallerTurn(text: string, userTurns: number): boolean {
    return this.#step({ type: 'caller_turn', text, userTurns, ending: this.#o.hooks.ending() });
  }

  #step(event: VoicemailEvent): boolean {
    const step = reduceVoicemail(this.#o, this.#phase, event);
    this.#phase = step.phase;
    const { hooks, timers } = this.#o;
    for (const effect of step.effects) {
      if (effect.type === 'claim') hooks.claimEnding();
      else if (effect.type === 'silence') hooks.silenceAssistant();
      else if (effect.type === 'arm') timers.set('voicemail', effect.ms, () => this.#step({ type: 'quiet' }));
      else if (effect.type === 'cancel') timers.cancel('voicemail');
      else if (effect.type === 'leave') void hooks.say(effect.text).then(() => hooks.finish());
      else hooks.finish();
    }
    return step.took;
  }
}
