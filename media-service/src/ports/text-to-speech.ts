import type { ProviderError } from '../../../shared/errors';
import type { FaultListener } from './provider-faults';

/**
 * Streaming text-to-speech for telephony: text goes in clause by clause as the LLM streams, μ-law
 * 8 kHz comes out, and barge-in can drop whatever has not been delivered yet. Plain TS so the
 * pipeline never sees a vendor type.
 */

/** Options for one synthesis stream (normally one per call, reused across turns). */
export interface TtsOpenOptions {
  /** Provider voice; for Aura the model name, e.g. `aura-2-thalia-en` (used when empty). */
  voice: string;
  /** Speaking-rate multiplier (1.0 = normal; the product allows 0.7–1.2). */
  speed: number;
  /** Aborting closes the stream (as `close()` does). */
  signal: AbortSignal;
  /** Request label (the call SID); only the sandbox is sent it, where a fault number's fault reads it. */
  tag?: string;
  /** Hears the faults the stream survived (a reconnect), for the call's log and metrics. */
  onFault?: FaultListener;
}

/** Events of a synthesis stream, in receipt order. */
export type TtsEvent =
  | {
      type: 'audio';
      mulaw: Uint8Array;
      /**
       * Set on the first audio of a segment (the first `speak()` after open, `flushed` or
       * `cleared`): milliseconds from that `speak()` to this audio, the TTS time to first byte.
       */
      firstByteMs?: number;
    }
  /** Everything spoken before the matching `flush()` has been delivered. */
  | { type: 'flushed' }
  /** The provider confirmed a `clear()`; audio from before it will not arrive. */
  | { type: 'cleared' }
  /** The stream failed (auth, provider error, a socket drop no reconnect could mend); `closed` follows. */
  | { type: 'error'; error: ProviderError }
  /** Terminal; nothing follows. */
  | { type: 'closed' };

/** Receives every event synchronously, in order. */
export type TtsListener = (event: TtsEvent) => void;

/**
 * An open synthesis stream. It is returned at once and buffers commands until the connection is
 * up, so the first `speak()` costs no extra round trip; a failed connection arrives as `error`.
 */
export interface TtsStream {
  /** Queues text for synthesis (send clause-sized pieces: providers may wait for a sentence end or a flush). */
  speak(text: string): void;
  /** Forces synthesis of everything queued; `flushed` follows its audio. Call at the end of each reply. */
  flush(): void;
  /** Barge-in: drops queued text and undelivered audio at once; `cleared` follows. */
  clear(): void;
  /** Closes the connection; `closed` follows. Idempotent. */
  close(): void;
  /** Subscribes; returns the unsubscribe function. */
  on(listener: TtsListener): () => void;
}

/** Opens synthesis streams. */
export interface TextToSpeech {
  /** Starts connecting and returns the stream immediately (see {@link TtsStream}). */
  open(options: TtsOpenOptions): TtsStream;
}
