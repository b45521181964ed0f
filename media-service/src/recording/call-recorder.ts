import { BYTES_PER_MS } from '../audio/mulaw';
import { MulawTrack } from './mulaw-track';
import { stereoWavFromMulaw } from './wav';

/** Default cap: one hour, the longest call `advanced.max_duration_s` allows (3600 s). */
export const DEFAULT_RECORDING_MAX_MS = 3_600_000;

/** Options of {@link CallRecorder}. */
export interface CallRecorderOptions {
  /** Audio past this many ms of stream time is dropped (default {@link DEFAULT_RECORDING_MAX_MS}). */
  maxMs?: number;
}

/**
 * Accumulates one call's audio on one timeline: left = caller, right = assistant. μ-law in,
 * stored as μ-law (1 byte/sample/channel, 57.6 MB for a full hour of both) until {@link toWav},
 * so recording costs the call session a copy per frame and nothing more. Times are stream audio
 * time (ms since the media stream started), so both sides line up as the caller heard them.
 *
 * @example
 * const recorder = new CallRecorder();
 * recorder.caller(frame, 0);          // inbound media, at its position in the stream
 * recorder.assistant(tts, 1_200);     // what was sent, when it was sent
 * await store.save({ businessId, callId, wav: recorder.toWav() });
 */
export class CallRecorder {
  readonly #caller: MulawTrack;
  readonly #assistant: MulawTrack;

  constructor(options: CallRecorderOptions = {}) {
    const maxBytes = Math.max(0, Math.floor((options.maxMs ?? DEFAULT_RECORDING_MAX_MS) * BYTES_PER_MS));
    this.#caller = new MulawTrack(maxBytes);
    this.#assistant = new MulawTrack(maxBytes);
  }

  /** Caller audio starting at audio time `atMs`; gaps are silence, overlaps overwrite. */
  caller(mulaw: Uint8Array, atMs: number): void {
    this.#caller.write(mulaw, Math.round(atMs * BYTES_PER_MS));
  }

  /** Assistant audio as sent, starting at audio time `atMs`. */
  assistant(mulaw: Uint8Array, atMs: number): void {
    this.#assistant.write(mulaw, Math.round(atMs * BYTES_PER_MS));
  }

  /** The recording's length: the end of the later channel. */
  get durationMs(): number {
    return Math.max(this.#caller.length, this.#assistant.length) / BYTES_PER_MS;
  }

  /** RIFF WAVE, PCM 16-bit, 8000 Hz, 2 channels (left caller, right assistant). */
  toWav(): Uint8Array {
    return stereoWavFromMulaw(this.#caller.bytes, this.#assistant.bytes);
  }
}
