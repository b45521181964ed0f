import type { ProviderError } from '../../../shared/errors';
import type { FaultListener } from './provider-faults';

/**
 * Streaming speech-to-text with turn detection, as the call engine needs it: the recogniser (not
 * a local VAD) decides when the caller's turn starts and ends. Shaped after Deepgram Flux's turn
 * events so eager end-of-turn (start the LLM early, cancel on resume) is expressible; plain TS so
 * `call/` and `pipeline/` never see a vendor type.
 */

/** Options for one recognition stream (one per call). */
export interface SttOpenOptions {
  /** Provider model, e.g. `flux-general-en`. */
  model: string;
  /** BCP-47 language; a hint only where the model is multilingual. */
  language: string;
  /** Domain terms to boost (business names, products). */
  keyterms: readonly string[];
  /** Confidence needed to end a turn (0.5–0.9; higher waits longer). */
  eotThreshold: number;
  /** When set, enables `eager_end_of_turn` / `turn_resumed` at this lower confidence; a recogniser without them ignores it. */
  eagerEotThreshold?: number;
  /** Request label for usage reporting; the sandbox keys the simulated callee's words by it (the call SID). */
  tag: string;
  /** Aborting closes the stream (as `close()` does). */
  signal: AbortSignal;
  /** Hears the faults the stream survived (a reconnect), for the call's log and metrics. */
  onFault?: FaultListener;
}

/**
 * Events of a recognition stream, in receipt order. After `eager_end_of_turn` either
 * `turn_resumed` (the caller went on) or `end_of_turn` with the identical transcript follows.
 */
export type SttEvent =
  | { type: 'start_of_turn'; turnIndex: number }
  | { type: 'update'; turnIndex: number; transcript: string }
  | { type: 'eager_end_of_turn'; turnIndex: number; transcript: string }
  | { type: 'turn_resumed'; turnIndex: number }
  | {
      type: 'end_of_turn';
      turnIndex: number;
      transcript: string;
      /**
       * Audio time (ms since the first byte sent on this stream) at which the caller's last word
       * ended: the start of the voice-to-voice latency the caller perceives.
       */
      endOfSpeechMs?: number;
    }
  /** The stream failed (auth, provider error, watchdog, a socket drop no reconnect could mend); `closed` follows. */
  | { type: 'error'; error: ProviderError }
  /** Terminal; nothing follows. */
  | { type: 'closed' };

/** Receives every event synchronously, in order. */
export type SttListener = (event: SttEvent) => void;

/**
 * An open recognition stream. Events are delivered to listeners synchronously as they arrive
 * (a listener, not an async iterator: the turn-taking reducer must see them in receipt order with
 * no queue hop, and several observers — turn-taking, metrics — can subscribe).
 */
export interface SttStream {
  /** Forwards caller audio (μ-law 8 kHz). Never stop sending: send silence when muting (Flux times out otherwise). */
  send(mulaw: Uint8Array): void;
  /** Flushes pending audio, asks the provider to finish, and closes; `closed` follows. Idempotent. */
  close(): void;
  /** Subscribes; returns the unsubscribe function. */
  on(listener: SttListener): () => void;
}

/** Opens recognition streams. */
export interface SpeechToText {
  /** Resolves once the provider accepted the stream; rejects with a `ProviderError` (e.g. 401) otherwise. */
  open(options: SttOpenOptions): Promise<SttStream>;
}
