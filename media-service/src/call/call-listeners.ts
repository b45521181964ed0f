import { LiveMix } from '../audio/live-mix';
import type { EndedReason } from '../../../shared/domain/call';
import type { CallObservation } from './call-observer';

/**
 * Someone listening to a live call (the `/web/listen` socket): told what a web call's browser is
 * told, and played both sides of the call mixed. Its methods must not throw.
 */
export interface CallListener {
  observe(observation: CallObservation): void;
  /** Both sides mixed, μ-law 8 kHz, one caller frame's length at a time (20 ms from a carrier). */
  audio(mulaw: Uint8Array): void;
  /** The call ended with this `ended_reason`; nothing more follows. */
  ended(reason: EndedReason): void;
}

/**
 * The listeners of one call session. With none, every hook returns at its first test: a phone call
 * nobody listens to mixes nothing and builds no observations (docs/performance.md "Issue 32:
 * listening to a live call"). The mixer exists only while someone listens.
 */
export class CallListeners {
  readonly #listeners = new Set<CallListener>();
  #mix: LiveMix | undefined;
  #endedWith: EndedReason | undefined;

  /** Whether anyone listens. */
  get size(): number {
    return this.#listeners.size;
  }

  /** Adds a listener; returns its removal. A listener added after the call ended is told so at once. */
  add(listener: CallListener): () => void {
    if (this.#endedWith !== undefined) {
      safely(() => listener.ended(this.#endedWith!));
      return () => undefined;
    }
    this.#listeners.add(listener);
    this.#mix ??= new LiveMix();
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.#mix = undefined;
    };
  }

  observe(observation: CallObservation): void {
    for (const listener of this.#listeners) safely(() => listener.observe(observation));
  }

  /** A caller frame as the carrier delivered it: the mixed frame goes to every listener. */
  caller(frame: Uint8Array): void {
    if (!this.#mix) return;
    const mixed = this.#mix.caller(frame);
    for (const listener of this.#listeners) safely(() => listener.audio(mixed));
  }

  /** An assistant frame as the pacer sends it. */
  assistant(frame: Uint8Array): void {
    this.#mix?.assistant(frame);
  }

  /** Barge-in: the assistant audio not yet played is dropped. */
  clear(): void {
    this.#mix?.clear();
  }

  /** The call ended: every listener is told, then let go. */
  end(reason: EndedReason): void {
    if (this.#endedWith !== undefined) return;
    this.#endedWith = reason;
    for (const listener of this.#listeners) safely(() => listener.ended(reason));
    this.#listeners.clear();
    this.#mix = undefined;
  }
}

function safely(run: () => void): void {
  try {
    run();
  } catch {
    // A listener's failure never reaches the call.
  }
}
