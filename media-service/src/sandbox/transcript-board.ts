import { CallFaults, type ProviderFault } from './provider-faults';

/**
 * What each simulated callee is about to say, in order, keyed by call SID. The sandbox has no
 * speech recogniser: the callee registers its next utterance here before it plays the audio,
 * and the Flux stand-in pops one text for each speech segment it detects on the connection whose
 * `tag` query parameter is that call SID (the STT adapter sends `tag=<callSid>`).
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

  /** Drops everything left for a call that has ended. */
  forget(callSid: string): void {
    this.#queues.delete(callSid);
    this.#languages.delete(callSid);
    this.faults.forget(callSid);
  }
}
