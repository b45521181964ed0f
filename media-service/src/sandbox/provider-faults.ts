/**
 * Faults a sandbox call's providers can be told to show (docs/local-stack.md "Sandbox calls"), keyed
 * by call SID on the {@link TranscriptBoard} beside the caller's words: the carrier writes the fault
 * when it answers a call to a fault number, and each stand-in reads it through the `tag` the real
 * adapters send the sandbox (the call SID). Every fault waits for the caller's first turn, then the
 * stand-in breaks its own wire protocol the way the vendor would: a dropped socket, an HTTP 5xx
 * with OpenAI's error body, a stream that goes quiet with its socket open.
 */
export type ProviderFault =
  /**
   * The recogniser's socket drops once, right after the caller's first end of turn: Flux's, OpenAI
   * transcription's (after the turn's transcript), or, in live mode, the Realtime session's
   * (after the reply to the turn was started).
   */
  | 'stt-drop'
  /** The voice's (Aura) socket drops once, in the middle of the first reply after the caller's first turn. */
  | 'tts-drop'
  /** The model answers every request of the call from the caller's first turn on with HTTP 500. */
  | 'llm-5xx'
  /** The model streams a few chunks of each such reply, then nothing, its socket open. */
  | 'llm-stall'
  /**
   * Until a tool has answered, the model calls the call's first custom tool whatever the caller
   * said (point it at a server that never answers: the tool runner's timeout is what is shown).
   */
  | 'tool-hang';

/** The faults, in the order of their sandbox numbers. */
export const PROVIDER_FAULTS = ['stt-drop', 'tts-drop', 'llm-5xx', 'llm-stall', 'tool-hang'] as const satisfies readonly ProviderFault[];

/** Faults a stand-in shows once (the reconnect must then work); the others last the whole call. */
const ONCE: ReadonlySet<ProviderFault> = new Set(['stt-drop', 'tts-drop']);

/**
 * One call's fault and how far it has got: armed once the caller's first words were heard,
 * spent once a one-shot fault fired, and the model a lasting model fault belongs to (the first one
 * asked after arming: a fallback naming another model answers).
 */
export class CallFaults {
  readonly #faults = new Map<string, { fault: ProviderFault; spent: boolean; model?: string }>();
  readonly #heard = new Set<string>();

  /** The carrier answered a call to a fault number. */
  set(callSid: string, fault: ProviderFault): void {
    this.#faults.set(callSid, { fault, spent: false });
  }

  /** A caller utterance was handed to a recogniser: faults of the call are armed from now on. */
  heard(callSid: string): void {
    if (this.#faults.has(callSid)) this.#heard.add(callSid);
  }

  /** The call's armed fault, when it is `fault` and not spent (a one-shot one is spent by this call). */
  take(callSid: string | undefined, fault: ProviderFault): boolean {
    const entry = callSid === undefined ? undefined : this.#faults.get(callSid);
    if (!entry || entry.fault !== fault || entry.spent || !this.#heard.has(callSid!)) return false;
    if (ONCE.has(fault)) entry.spent = true;
    return true;
  }

  /** For a lasting model fault: whether `model` is the failing one (the first model asked becomes it). */
  modelFails(callSid: string | undefined, fault: ProviderFault, model: string): boolean {
    if (!this.take(callSid, fault)) return false;
    const entry = this.#faults.get(callSid!)!;
    entry.model ??= model;
    return entry.model === model;
  }

  forget(callSid: string): void {
    this.#faults.delete(callSid);
    this.#heard.delete(callSid);
  }
}
