import { mixInto } from './mix';

/**
 * Both sides of a live call as one μ-law 8 kHz stream, for someone listening to it (docs/protocols.md
 * "Listening to a live call"). The caller's audio is the clock: a carrier (and a web call's caller
 * feed) delivers it continuously, 20 ms at a time, so each caller frame goes out at once with as
 * much of the assistant's queued audio mixed in as it is long. The assistant's audio arrives from
 * the pacer at most 100 ms ahead of real time, so the queue stays shallow; it is bounded anyway
 * (oldest dropped) so a stalled caller side never grows it, and a barge-in's `clear` empties it, as
 * the carrier drops what it had not played.
 */

/** The most assistant audio held (1 s of μ-law): ten times what the pacer runs ahead. */
export const LIVE_MIX_MAX_QUEUED_BYTES = 8000;

/**
 * One call's mixer; the recording mixes the same two channels by their timestamps after the call.
 *
 * @example
 * ```ts
 * const mix = new LiveMix();
 * mix.assistant(paced);          // from the pacer's sink
 * send(mix.caller(callerFrame)); // from the carrier: the mixed frame, a new array
 * ```
 */
export class LiveMix {
  readonly #queue: Uint8Array[] = [];
  /** Bytes of the queue's first chunk already mixed out. */
  #offset = 0;
  #queued = 0;
  readonly #maxQueued: number;

  constructor(maxQueuedBytes = LIVE_MIX_MAX_QUEUED_BYTES) {
    this.#maxQueued = maxQueuedBytes;
  }

  /** Assistant audio the carrier is being sent (copied: the pacer reuses its buffers). */
  assistant(frame: Uint8Array): void {
    if (frame.length === 0) return;
    this.#queue.push(frame.slice());
    this.#queued += frame.length;
    if (this.#queued > this.#maxQueued) this.#take(this.#queued - this.#maxQueued);
  }

  /** A caller frame: returns it (a new array) with the same length of queued assistant audio mixed in. */
  caller(frame: Uint8Array): Uint8Array {
    const out = frame.slice();
    this.#take(out.length, out);
    return out;
  }

  /** Barge-in: the assistant audio not yet heard is dropped. */
  clear(): void {
    this.#queue.length = 0;
    this.#offset = 0;
    this.#queued = 0;
  }

  /** Assistant audio queued, in bytes (8 a millisecond). */
  get queuedBytes(): number {
    return this.#queued;
  }

  /** Removes `bytes` from the queue's head, mixing them into `into` when given. */
  #take(bytes: number, into?: Uint8Array): void {
    let done = 0;
    while (done < bytes && this.#queue.length > 0) {
      const head = this.#queue[0]!;
      const n = Math.min(bytes - done, head.length - this.#offset);
      if (into) mixInto(into.subarray(done, done + n), head.subarray(this.#offset, this.#offset + n));
      done += n;
      this.#offset += n;
      this.#queued -= n;
      if (this.#offset === head.length) {
        this.#queue.shift();
        this.#offset = 0;
      }
    }
  }
}
