/**
 * The caller's recent audio, kept by its position in the stream, so a recogniser that lost its
 * socket can be given again everything after the last turn it finished (docs/design.md "Provider
 * faults"). Bounded to {@link REPLAY_MAX_BYTES}; older audio is dropped first.
 *
 * It runs on every 20 ms frame of every call, so it is a ring buffer: a push is one copy into a
 * buffer allocated once, with no allocation per frame; the numbers are in
 * docs/performance.md "On the quiet VM: before, after, and the recogniser's replay buffer".
 */

/** 10 s of μ-law 8 kHz: longer than any turn the recogniser leaves open (Flux ends one after 5 s of quiet). */
export const REPLAY_MAX_BYTES = 80_000;

/** Audio by stream position (bytes since the stream's first byte). */
export class AudioReplay {
  readonly #ring: Uint8Array;
  /** Stream position of the oldest byte kept. */
  #start = 0;
  /** Stream position of the next byte. */
  #end = 0;

  constructor(capacity = REPLAY_MAX_BYTES) {
    this.#ring = new Uint8Array(capacity);
  }

  /** Bytes given so far: the stream position of the next frame. */
  get position(): number {
    return this.#end;
  }

  /** Keeps a copy of `mulaw` (the caller may reuse its buffer); the oldest bytes go past the capacity. */
  push(mulaw: Uint8Array): void {
    const capacity = this.#ring.length;
    const bytes = mulaw.length > capacity ? mulaw.subarray(mulaw.length - capacity) : mulaw;
    const offset = (this.#end + (mulaw.length - bytes.length)) % capacity;
    const first = Math.min(bytes.length, capacity - offset);
    this.#ring.set(bytes.subarray(0, first), offset);
    if (first < bytes.length) this.#ring.set(bytes.subarray(first), 0);
    this.#end += mulaw.length;
    this.#start = Math.max(this.#start, this.#end - capacity);
  }

  /** Forgets audio before `position` (a finished turn's). */
  dropBefore(position: number): void {
    this.#start = Math.min(this.#end, Math.max(this.#start, position));
  }

  /** The kept audio from `position` on (from the oldest kept byte when that is later), and where it starts. */
  from(position: number): { at: number; bytes: Uint8Array } {
    const at = Math.min(this.#end, Math.max(position, this.#start));
    const length = this.#end - at;
    const capacity = this.#ring.length;
    const offset = at % capacity;
    const first = Math.min(length, capacity - offset);
    const bytes = new Uint8Array(length);
    bytes.set(this.#ring.subarray(offset, offset + first), 0);
    if (first < length) bytes.set(this.#ring.subarray(0, length - first), first);
    return { at, bytes };
  }
}
