import type { SpokenText } from './scenario-script';

/** Texts kept per call for {@link TranscriptBoard.spoke}: more than any voicemail call says. */
const SPOKEN_PER_CALL = 200;
/** Calls kept for {@link TranscriptBoard.spoke}. */
const SPOKEN_CALLS = 1000;
import { CallFaults, type ProviderFault } from './provider-faults';

/**
 * What each simulated callee is about to say, in order, keyed by call SID. The sandbox has no
 * speech recogniser: the callee registers its next utterance here before it plays the audio,
 * and the Flux stand-in pops one text for each speech segment it detects on the connection whose
 * `tag` query parameter is that call SID (the STT adapter sends `tag=<callSid>`).
 *
 * The other way, the Aura stand-in writes what the assistant's voice said (`spoke`, by the Aura
 * `tag`), which a sandbox answering machine reads its recording against.
 *
 * Structurally implements the telephony side's `UtteranceSink { push(callSid, text) }`, so the
 * callee can be handed a board without either side importing the other. The board also carries
 * the call's other per-call facts the stand-ins share: the language its recogniser was told, and
 * the provider fault of a fault number (`provider-faults.ts`), both read by the same `tag`.
 *
 * @example
 * ```ts
 * const board = new TranscriptBoard();
 * board.push('CA123', 'Hi, I would like to book a cleaning.');
 * board.next('CA123'); // → 'Hi, I would like to book a cleaning.'
 * board.next('CA123'); // → undefined
 * ```
 */
export class TranscriptBoard {
  readonly #queues = new Map<string, string[]>();
  readonly #languages = new Map<string, string>();
  readonly #spoken = new Map<string, SpokenText[]>();
  /** The provider faults of calls to fault numbers (set by the carrier, read by the stand-ins). */
  readonly faults = new CallFaults();

  /** The carrier answered a call to a fault number: the call's providers will show `fault`. */
  setFault(callSid: string, fault: ProviderFault): void {
    this.faults.set(callSid, fault);
  }

  /**
   * Records the language a sandbox recogniser was told for the call (Flux `language_hint`, an
   * OpenAI transcription `language`), so the simulated person answers in it.
   */
  setLanguage(callSid: string, language: string): void {
    this.#languages.set(callSid, language.split(/[-_]/)[0]!.toLowerCase());
  }

  /** The call's language (ISO 639-1) as its recogniser was told, or undefined (English) when none was. */
  language(callSid: string): string | undefined {
    return this.#languages.get(callSid);
  }

  /** Registers the next thing the callee on `callSid` will say (blank text is ignored). */
  push(callSid: string, text: string): void {
    const trimmed = text.trim();
    if (trimmed === '') return;
    const queue = this.#queues.get(callSid);
    if (queue) queue.push(trimmed);
    else this.#queues.set(callSid, [trimmed]);
  }

  /** Pops the oldest registered utterance for `callSid`, or `undefined` when none is waiting. */
  next(callSid: string): string | undefined {
    const queue = this.#queues.get(callSid);
    const text = queue?.shift();
    if (queue && queue.length === 0) this.#queues.delete(callSid);
    if (text !== undefined) this.faults.heard(callSid);
    return text;
  }

  /** Utterances registered but not yet heard, for assertions and debugging. */
  pending(callSid: string): readonly string[] {
    return [...(this.#queues.get(callSid) ?? [])];
  }

  /**
   * Records a text the sandbox voice said on `callSid` (the Aura `tag`), so an answering machine's
   * recording can be read back as words (machine-recording.ts). Bounded: the last
   * {@link SPOKEN_PER_CALL} texts of the last {@link SPOKEN_CALLS} calls (a call the carrier never
   * ends, on a real carrier with the sandbox voice, is dropped in time).
   */
  spoke(callSid: string, text: string, durationMs: number): void {
    let texts = this.#spoken.get(callSid);
    if (!texts) {
      texts = [];
      this.#spoken.set(callSid, texts);
      if (this.#spoken.size > SPOKEN_CALLS) this.#spoken.delete(this.#spoken.keys().next().value!);
    }
    texts.push({ text, durationMs });
    if (texts.length > SPOKEN_PER_CALL) texts.shift();
  }

  /** What the sandbox voice said on `callSid`, in order. */
  spoken(callSid: string): readonly SpokenText[] {
    return [...(this.#spoken.get(callSid) ?? [])];
  }

  /** Drops everything left for a call that has ended. */
  forget(callSid: string): void {
    this.#queues.delete(callSid);
    this.#languages.delete(callSid);
    this.#spoken.delete(callSid);
    this.faults.forget(callSid);
  }
}
