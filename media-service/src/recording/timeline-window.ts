import { BYTES_PER_MS, MULAW_SILENCE } from '../audio/mulaw';

/** Default window: 20 s of timeline (why: docs/decisions.md "Recordings"). */
export const RECORDING_WINDOW_MS = 20_000;

/** {@link RECORDING_WINDOW_MS} in bytes per channel. */
export const RECORDING_WINDOW_BYTES = RECORDING_WINDOW_MS * BYTES_PER_MS;

/** The window slides 5 s at a time (see {@link TimelineWindow}). */
const RECORDING_SLIDE_BYTES = 5_000 * BYTES_PER_MS;

/** Where audio goes once it has left the window, as interleaved stereo μ-law (caller, assistant). */
export interface FinishedAudioSink {
  append(stereo: Uint8Array): void;
  /** `frames` stereo frames of silence (a gap in the timeline), without the caller allocating them. */
  appendSilence(frames: number): void;
}

/** One side of the call. */
export type Side = 'caller' | 'assistant';

/**
 * Both channels of a call on one μ-law timeline (8 bytes per ms), of which only the most recent
 * `windowBytes` are kept in memory. Writes land at their time: a gap reads as silence (0xFF), an
 * overlap overwrites. Audio that falls more than the window behind the latest write is finished:
 * it goes to the sink in timeline order and can no longer change, so a later write to it is
 * dropped and counted ({@link lateBytes}). Nothing past `maxBytes` is kept.
 *
 * Each channel buffer holds the window plus `slideBytes` (at most a window): when a write runs
 * past the buffer, the window slides to end there, so finished audio leaves a slide at a time.
 * A bigger slide costs memory, a smaller one copying: sliding 20 s by 5 s copies each byte ~4
 * times (64 KB/s a call), where sliding every 20 ms frame would copy 160 KB a frame.
 */
export class TimelineWindow {
  readonly #windowBytes: number;
  /** Buffer length per channel: the window plus one slide. */
  readonly #capacity: number;
  readonly #maxBytes: number;
  readonly #sink: FinishedAudioSink;
  #caller: Uint8Array;
  #assistant: Uint8Array;
  /** Timeline offset of the buffers' first byte: everything before it has gone to the sink. */
  #base = 0;
  #length = 0;
  #lateBytes = 0;
  #ended = false;

  /** Memory a window of `windowBytes` holds (both channel buffers). */
  static retainedBytesFor(windowBytes: number): number {
    return 2 * (windowBytes + Math.min(windowBytes, RECORDING_SLIDE_BYTES));
  }

  constructor(options: { windowBytes: number; maxBytes: number; sink: FinishedAudioSink }) {
    if (!Number.isInteger(options.windowBytes) || options.windowBytes <= 0) throw new Error('windowBytes must be a positive integer.');
    this.#windowBytes = options.windowBytes;
    this.#capacity = TimelineWindow.retainedBytesFor(options.windowBytes) / 2;
    this.#maxBytes = options.maxBytes;
    this.#sink = options.sink;
    this.#caller = new Uint8Array(this.#capacity).fill(MULAW_SILENCE);
    this.#assistant = new Uint8Array(this.#capacity).fill(MULAW_SILENCE);
  }

  /** Bytes on the timeline so far (the end of the latest write), per channel. */
  get length(): number {
    return this.#length;
  }

  /** Bytes of writes dropped because they landed on audio already finished (older than the window). */
  get lateBytes(): number {
    return this.#lateBytes;
  }

  /** Memory the window holds (both channel buffers; none once ended). */
  get retainedBytes(): number {
    return this.#caller.length + this.#assistant.length;
  }

  /** Writes `mulaw` of one side starting at timeline byte `offset`. */
  write(side: Side, mulaw: Uint8Array, offset: number): void {
    if (this.#ended) return;
    let start = Math.max(0, offset);
    const end = Math.min(offset + mulaw.length, this.#maxBytes);
    if (end <= start) return;
    if (start < this.#base) {
      this.#lateBytes += Math.min(end, this.#base) - start;
      start = this.#base;
    }
    // In pieces of at most a window, so sliding for a piece never finishes the piece itself.
    for (let at = start; at < end; at += this.#windowBytes) {
      const pieceEnd = Math.min(end, at + this.#windowBytes);
      if (pieceEnd > this.#base + this.#capacity) this.#slideTo(pieceEnd - this.#windowBytes);
      const track = side === 'caller' ? this.#caller : this.#assistant;
      track.set(mulaw.subarray(at - offset, pieceEnd - offset), at - this.#base);
    }
    this.#length = Math.max(this.#length, end);
  }

  /** Sends the rest of the timeline to the sink and frees the buffers; later writes are ignored. */
  end(): void {
    if (this.#ended) return;
    this.#slideTo(this.#length);
    this.#ended = true;
    this.#caller = new Uint8Array(0);
    this.#assistant = new Uint8Array(0);
  }

  /** Finishes the timeline before `to`: sends it to the sink and moves the window up to it. */
  #slideTo(to: number): void {
    const held = Math.min(to, this.#base + this.#caller.length) - this.#base;
    if (held > 0) {
      const stereo = new Uint8Array(held * 2);
      for (let i = 0; i < held; i++) {
        stereo[2 * i] = this.#caller[i]!;
        stereo[2 * i + 1] = this.#assistant[i]!;
      }
      this.#sink.append(stereo);
    }
    if (to - this.#base > held) this.#sink.appendSilence(to - this.#base - held);
    for (const track of [this.#caller, this.#assistant]) {
      track.copyWithin(0, held);
      track.fill(MULAW_SILENCE, track.length - held);
    }
    this.#base = to;
  }
}
