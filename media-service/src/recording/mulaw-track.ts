import { BYTES_PER_MS, MULAW_SILENCE } from '../audio/mulaw';

/** First allocation: one minute of audio (480 KB); the buffer doubles from there. */
const INITIAL_BYTES = 60_000 * BYTES_PER_MS;

/**
 * One channel of a call as μ-law bytes on the call's timeline (8 bytes per ms). Writes land at
 * their time: a gap reads as silence (0xFF), an overlap overwrites, and nothing past `maxBytes`
 * is kept, so a runaway call cannot grow the buffer without bound.
 */
export class MulawTrack {
  #bytes = new Uint8Array(0);
  #length = 0;

  constructor(private readonly maxBytes: number) {}

  /** Bytes on the timeline so far (the end of the latest write). */
  get length(): number {
    return this.#length;
  }

  /** The timeline so far; valid until the next write. */
  get bytes(): Uint8Array {
    return this.#bytes.subarray(0, this.#length);
  }

  /** Writes `mulaw` starting at byte `offset`; the part before 0 or past `maxBytes` is dropped. */
  write(mulaw: Uint8Array, offset: number): void {
    const skip = Math.max(0, -offset);
    const start = Math.max(0, offset);
    const end = Math.min(offset + mulaw.length, this.maxBytes);
    if (end <= start) return;
    this.#reserve(end);
    this.#bytes.set(mulaw.subarray(skip, skip + end - start), start);
    this.#length = Math.max(this.#length, end);
  }

  #reserve(size: number): void {
    if (size <= this.#bytes.length) return;
    let capacity = Math.max(this.#bytes.length * 2, INITIAL_BYTES);
    while (capacity < size) capacity *= 2;
    const grown = new Uint8Array(Math.min(capacity, this.maxBytes)).fill(MULAW_SILENCE);
    grown.set(this.#bytes);
    this.#bytes = grown;
  }
}
