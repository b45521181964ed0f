import { FRAME_BYTES, mulawRms } from '../audio/mulaw';

/** Result of playing one frame. */
export interface PlayedFrame {
  /** Level of what played (16-bit RMS), or null when nothing was buffered (the line was silent). */
  rms: number | null;
  /** Marks whose audio has now fully played, in order. */
  echoed: readonly string[];
}

const NONE: readonly string[] = [];

/**
 * Twilio's outbound playback buffer as the sandbox models it: audio from our `media` messages is
 * queued and played at real time (one 20 ms frame per tick); a `mark` is echoed once every byte
 * queued before it has played, or at once when nothing is buffered; `clear` drops the buffer and
 * echoes every pending mark immediately (docs/protocols.md "Twilio"). Pure and clock-free: the stream calls
 * `play()` once per frame.
 */
export class PlayoutBuffer {
  #chunks: Uint8Array[] = [];
  #chunkOffset = 0;
  #marks: { name: string; at: number }[] = [];
  #received = 0;
  #played = 0;

  /** Bytes queued and not yet played. */
  get bufferedBytes(): number {
    return this.#received - this.#played;
  }

  /** Bytes played (or dropped by `clear`) since the stream started. */
  get playedBytes(): number {
    return this.#played;
  }

  /** Queues audio behind what is buffered. */
  append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#chunks.push(bytes);
    this.#received += bytes.length;
  }

  /** Queues a mark; returns it at once when nothing is buffered (Twilio echoes it immediately). */
  mark(name: string): readonly string[] {
    if (this.bufferedBytes === 0) return [name];
    this.#marks.push({ name, at: this.#received });
    return NONE;
  }

  /** Drops everything buffered; returns the bytes dropped and the marks to echo now. */
  clear(): { droppedBytes: number; echoed: readonly string[] } {
    const droppedBytes = this.bufferedBytes;
    const echoed = this.#marks.map((mark) => mark.name);
    this.#chunks = [];
    this.#chunkOffset = 0;
    this.#marks = [];
    this.#played = this.#received;
    return { droppedBytes, echoed };
  }

  /** Plays up to one frame of buffered audio; `tap` sees the bytes played (views into what was appended). */
  play(frameBytes = FRAME_BYTES, tap?: (bytes: Uint8Array) => void): PlayedFrame {
    if (this.bufferedBytes === 0) return { rms: null, echoed: NONE };
    let left = Math.min(frameBytes, this.bufferedBytes);
    let sumSquares = 0;
    const count = left;
    while (left > 0) {
      const chunk = this.#chunks[0]!;
      const take = Math.min(left, chunk.length - this.#chunkOffset);
      const rms = mulawRms(chunk, this.#chunkOffset, this.#chunkOffset + take);
      sumSquares += rms * rms * take;
      tap?.(chunk.subarray(this.#chunkOffset, this.#chunkOffset + take));
      this.#chunkOffset += take;
      left -= take;
      if (this.#chunkOffset >= chunk.length) {
        this.#chunks.shift();
        this.#chunkOffset = 0;
      }
    }
    this.#played += count;
    return { rms: Math.sqrt(sumSquares / count), echoed: this.#due() };
  }

  #due(): readonly string[] {
    if (this.#marks.length === 0 || this.#marks[0]!.at > this.#played) return NONE;
    const echoed: string[] = [];
    while (this.#marks.length > 0 && this.#marks[0]!.at <= this.#played) echoed.push(this.#marks.shift()!.name);
    return echoed;
  }
}
