/**
 * The caller's recent audio, kept by its position in the stream, so a recogniser that lost its
 * socket can be given again everything after the last turn it finished (docs/design.md "Provider
 * faults"). Bounded to {@link REPLAY_MAX_BYTES}; older audio is dropped first.
 */

/** 10 s of μ-law 8 kHz: longer than any turn the recogniser leaves open (Flux ends one after 5 s of quiet). */
export const REPLAY_MAX_BYTES = 80_000;

/** Audio by stream position (bytes since the stream's first byte). */
export class AudioReplay {
  #frames: { at: number; bytes: Uint8Array }[] = [];
  #start = 0;
  #end = 0;

  /** Bytes given so far: the stream position of the next frame. */
  get position(): number {
    return this.#end;
  }

  /** Keeps a copy of `mulaw` (the caller may reuse its buffer). */
  push(mulaw: Uint8Array): void {
    this.#frames.push({ at: this.#end, bytes: mulaw.slice() });
    this.#end += mulaw.length;
    while (this.#frames.length > 1 && this.#end - this.#frames[1]!.at >= REPLAY_MAX_BYTES) this.#frames.shift();
    this.#start = this.#frames[0]?.at ?? this.#end;
  }

  /** Forgets audio before `position` (a finished turn's). */
  dropBefore(position: number): void {
    while (this.#frames.length > 0 && this.#frames[0]!.at + this.#frames[0]!.bytes.length <= position) this.#frames.shift();
    this.#start = this.#frames[0]?.at ?? this.#end;
  }

  /** The kept audio from `position` on (from the oldest kept byte when that is later), and where it starts. */
  from(position: number): { at: number; bytes: Uint8Array } {
    const at = Math.max(position, this.#start);
    const parts = this.#frames.filter((frame) => frame.at + frame.bytes.length > at);
    const joined = new Uint8Array(Math.max(0, this.#end - at));
    let offset = 0;
    for (const frame of parts) {
      const skip = Math.max(0, at - frame.at);
      joined.set(frame.bytes.subarray(skip), offset);
      offset += frame.bytes.length - skip;
    }
    return { at, bytes: joined };
  }
}
