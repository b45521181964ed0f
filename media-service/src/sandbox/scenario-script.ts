import type { AnsweredBy } from '../ports/telephony';
import type { ProviderFault } from './provider-faults';

/**
 * Scripts for the simulated person on a sandbox call: ordered steps with timing, run by
 * `SimulatedCallee` on the stream's audio clock (one step check per 20 ms frame). The same
 * scripts serve outbound callees and inbound callers.
 */

/**
 * Where the callee announces what it is about to say, so the sandbox speech-to-text (which only
 * measures energy) can emit the right transcript. The sandbox `TranscriptBoard` satisfies this
 * structurally; this side never imports it.
 */
export interface UtteranceSink {
  push(callSid: string, text: string): void;
  /** The call's language as its recogniser was told (the callee answers in it), if known. */
  language?(callSid: string): string | undefined;
  /** The call reached a fault number: its providers will fail this way (`provider-faults.ts`). */
  setFault?(callSid: string, fault: ProviderFault): void;
  /** What the sandbox voice said on the call, in order (`TranscriptBoard.spoken`), to read a recording by. */
  spoken?(callSid: string): readonly SpokenText[];
  /** Drops what the board keeps for a call that has ended. */
  forget?(callSid: string): void;
}

/** One text the sandbox voice turned into audio on a call, and the audio's length before whole frames. */
export interface SpokenText {
  text: string;
  durationMs: number;
}

/** One step of a scenario. Build them with {@link step}. */
export type ScenarioStep =
  /** Speak `text` (speech-like audio; duration ~60 ms per character unless given). */
  | { kind: 'say'; text: string; durationMs?: number }
  /**
   * Wait until the assistant has spoken (since this callee's last utterance or key press began) and then been quiet
   * `quietMs`; after `timeoutMs` the callee carries on, once the assistant is not speaking.
   */
  | {
      kind: 'waitForAssistant';
      quietMs: number;
      timeoutMs: number;
      /**
       * Only assistant speech that starts after this callee's last words ended counts: a caller who
       * talked over the assistant waits for its reply, not for the end of what they talked over.
       */
      replyOnly?: boolean;
    }
  /** Stay quiet for `ms`. */
  | { kind: 'pause'; ms: number }
  /** Speak over the assistant once it has been talking for `afterAssistantStartsMs`. */
  | { kind: 'bargeIn'; text: string; afterAssistantStartsMs: number; durationMs?: number; timeoutMs: number }
  /** Press keys, one every `gapMs` (Twilio `dtmf` messages). */
  | { kind: 'dtmf'; digits: string; gapMs: number }
  /** An answering machine's tone; AMD reports `machine_end_beep` when it ends. */
  | { kind: 'beep'; durationMs: number; frequencyHz: number }
  /**
   * An answering machine starts recording what the assistant says (until the call ends, or `maxMs`)
   * and the next step runs at once; the carrier reads the recording's words when the call ends.
   */
  | { kind: 'record'; maxMs: number }
  /** Answering-machine detection concludes here: the carrier posts the scenario's `answeredBy` (a `machine_end_*` verdict). */
  | { kind: 'amd' }
  /** Say nothing from here on; the call ends when the other side hangs up (or at `maxCallMs`). */
  | { kind: 'silence' }
  /** Hang up. */
  | { kind: 'hangup' };

/** A named script plus what answering-machine detection should conclude about it. */
export interface Scenario {
  name: string;
  description: string;
  /**
   * AMD verdict: `machine_end_beep` is posted when a `beep` step ends, another `machine_end_*` at an
   * `amd` step, anything else shortly after answer.
   */
  answeredBy: AnsweredBy;
  steps: readonly ScenarioStep[];
  /** Safety net: the callee hangs up at this audio time (ms from stream start). */
  maxCallMs: number;
}

/** Default time a callee waits for the assistant before carrying on anyway. */
const WAIT_TIMEOUT_MS = 20_000;

/**
 * Step builders with documented defaults.
 *
 * @example
 * ```ts
 * scenario('asks hours', [step.say('Hi, are you open Saturday?'), step.waitForAssistant(), step.hangup()]);
 * ```
 */
export const step = {
  say: (text: string, options: { durationMs?: number } = {}): ScenarioStep => ({ kind: 'say', text, ...options }),
  /** Default: quiet for 700 ms (longer than a pause between the assistant's sentences), give up after 20 s. */
  waitForAssistant: (options: { quietMs?: number; timeoutMs?: number; replyOnly?: boolean } = {}): ScenarioStep => ({
    kind: 'waitForAssistant',
    quietMs: options.quietMs ?? 700,
    timeoutMs: options.timeoutMs ?? WAIT_TIMEOUT_MS,
    ...(options.replyOnly && { replyOnly: true }),
  }),
  pause: (ms: number): ScenarioStep => ({ kind: 'pause', ms }),
  /** Default: interrupt 1 s into the assistant's speech. */
  bargeIn: (text: string, options: { afterAssistantStartsMs?: number; durationMs?: number; timeoutMs?: number } = {}): ScenarioStep => ({
    kind: 'bargeIn',
    text,
    afterAssistantStartsMs: options.afterAssistantStartsMs ?? 1000,
    timeoutMs: options.timeoutMs ?? WAIT_TIMEOUT_MS,
    ...(options.durationMs !== undefined && { durationMs: options.durationMs }),
  }),
  /** Default: 300 ms between keys. */
  dtmf: (digits: string, options: { gapMs?: number } = {}): ScenarioStep => ({ kind: 'dtmf', digits, gapMs: options.gapMs ?? 300 }),
  /** Default: 500 ms at 1000 Hz. */
  beep: (options: { durationMs?: number; frequencyHz?: number } = {}): ScenarioStep => ({
    kind: 'beep',
    durationMs: options.durationMs ?? 500,
    frequencyHz: options.frequencyHz ?? 1000,
  }),
  /** Default: records for at most 120 s (a voicemail box's limit is 1–3 minutes). */
  record: (options: { maxMs?: number } = {}): ScenarioStep => ({ kind: 'record', maxMs: options.maxMs ?? 120_000 }),
  amd: (): ScenarioStep => ({ kind: 'amd' }),
  silence: (): ScenarioStep => ({ kind: 'silence' }),
  hangup: (): ScenarioStep => ({ kind: 'hangup' }),
};

/** Builds a scenario; a human (`answeredBy: 'human'`) with a 5-minute safety net unless told. */
export function scenario(
  name: string,
  steps: readonly ScenarioStep[],
  options: { description?: string; answeredBy?: AnsweredBy; maxCallMs?: number } = {},
): Scenario {
  return {
    name,
    description: options.description ?? name,
    answeredBy: options.answeredBy ?? 'human',
    steps,
    maxCallMs: options.maxCallMs ?? 300_000,
  };
}
