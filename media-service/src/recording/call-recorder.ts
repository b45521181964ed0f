import { BYTES_PER_MS } from '../audio/mulaw';
import { MIN_PART_BYTES, type RecordingStore, type RecordingTarget } from '../ports/recording-store';
import { RecordingParts } from './recording-parts';
import { RECORDING_WINDOW_BYTES, TimelineWindow } from './timeline-window';
import { WAV_FRAME_BYTES, WAV_HEADER_BYTES } from './wav';

/** Default cap: one hour, the longest call `advanced.max_duration_s` allows (3600 s). */
export const DEFAULT_RECORDING_MAX_MS = 3_600_000;

/** Options of {@link CallRecorder}. */
export interface CallRecorderOptions {
  store: RecordingStore;
  target: RecordingTarget;
  /** Audio past this many ms of stream time is dropped (default {@link DEFAULT_RECORDING_MAX_MS}). */
  maxMs?: number;
  /** Bytes of WAV data per part (default {@link MIN_PART_BYTES}; smaller only against a store that allows it). */
  partBytes?: number;
  /** Timeline kept open for late writes, bytes per channel (default 20 s). */
  windowBytes?: number;
}

/**
 * The most memory one recorder holds, whatever the call's length: the window's two channel
 * buffers; part 1 and the part being filled as stereo μ-law (2 bytes per 4 of WAV data, so half a
 * part each); and the part on its way out, as μ-law while it is decoded and as PCM. 13.5 MB
 * (12.9 MiB) with the defaults, where the whole call in memory was 173 MB for an hour.
 */
export function recorderMemoryBound(partBytes = MIN_PART_BYTES, windowBytes = RECORDING_WINDOW_BYTES): number {
  const mulawPart = partBytes / 2;
  return TimelineWindow.retainedBytesFor(windowBytes) + 3 * mulawPart + partBytes + WAV_HEADER_BYTES;
}

/**
 * Records one call as it runs: left = caller, right = assistant, 8 kHz 16-bit PCM WAV, streamed
 * to the store in parts so memory stays under {@link recorderMemoryBound} however long the call.
 * Times are stream audio time (ms since the media stream started), so both sides line up as the
 * caller heard them; the last 20 s stay open because the two sides arrive slightly out of order.
 *
 * @example
 * const recorder = new CallRecorder({ store, target: { businessId, callId } });
 * recorder.caller(frame, 0);          // inbound media, at its position in the stream
 * recorder.assistant(tts, 1_200);     // what was sent, when it was sent
 * const key = await recorder.finish(); // null when nothing was recorded
 */
export class CallRecorder {
  readonly #window: TimelineWindow;
  readonly #parts: RecordingParts;
  /** The window's buffers, held from the start until {@link finish}. */
  readonly #windowRetained: number;

  constructor(options: CallRecorderOptions) {
    const partBytes = options.partBytes ?? MIN_PART_BYTES;
    const windowBytes = options.windowBytes ?? RECORDING_WINDOW_BYTES;
    // What the window releases at the end (its whole buffer at most) must fit in one part; see finish().
    if (TimelineWindow.retainedBytesFor(windowBytes) / 2 > partBytes / WAV_FRAME_BYTES)
      throw new Error('A part must hold more audio than the window.');
    this.#parts = new RecordingParts({ store: options.store, target: options.target, partBytes });
    this.#window = new TimelineWindow({
      windowBytes,
      maxBytes: Math.max(0, Math.floor((options.maxMs ?? DEFAULT_RECORDING_MAX_MS) * BYTES_PER_MS)),
      sink: this.#parts,
    });
    this.#windowRetained = this.#window.retainedBytes;
  }

  /** Caller audio starting at audio time `atMs`; gaps are silence, overlaps overwrite. */
  caller(mulaw: Uint8Array, atMs: number): void {
    this.#window.write('caller', mulaw, Math.round(atMs * BYTES_PER_MS));
  }

  /** Assistant audio as sent, starting at audio time `atMs`. */
  assistant(mulaw: Uint8Array, atMs: number): void {
    this.#window.write('assistant', mulaw, Math.round(atMs * BYTES_PER_MS));
  }

  /** The recording's length: the end of the later channel. */
  get durationMs(): number {
    return this.#window.length / BYTES_PER_MS;
  }

  /** Ms of audio dropped because it arrived more than the window late (per channel). */
  get lateMs(): number {
    return this.#window.lateBytes / BYTES_PER_MS;
  }

  /** Memory held now (window, waiting μ-law, the PCM part being uploaded). */
  get retainedBytes(): number {
    return this.#window.retainedBytes + this.#parts.retainedBytes;
  }

  /** An upper bound of the most memory held so far (the window's buffers plus the parts' peak). */
  get peakRetainedBytes(): number {
    return this.#windowRetained + this.#parts.peakRetainedBytes;
  }

  /**
   * Ends the recording: writes the rest and completes the object. Resolves to its key (the call's
   * `recording_key`), or null when nothing was recorded; rejects when the upload failed (it has
   * then been aborted).
   */
  async finish(): Promise<string | null> {
    // The window's last 20–25 s may fill a part: let the part in flight land first.
    await this.#parts.settled();
    this.#window.end();
    return this.#parts.finish();
  }

  /**
   * Resolves once no part upload is in flight. A call never needs it (a part takes 164 s of
   * audio to fill); a caller feeding audio faster than real time awaits it between parts.
   */
  settled(): Promise<void> {
    return this.#parts.settled();
  }

  /** Drops the recording (nothing is stored; a started upload is aborted). */
  async discard(): Promise<void> {
    const discarded = this.#parts.discard(); // first: what the window still holds is then ignored
    this.#window.end();
    await discarded;
  }
}
