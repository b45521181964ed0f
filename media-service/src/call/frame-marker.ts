import { FRAME_BYTES, MULAW_SILENCE } from '../audio/mulaw';
import type { Utterance } from './speaker';

/** Where framed audio and marks go (the pacer, or a recorder in tests). */
export interface FrameSink {
  enqueue(mulaw: Uint8Array): void;
  mark(name: string): void;
}

/**
 * A mark every 200 ms of audio: barge-in then knows what was heard to within 200 ms. Each mark is a
 * message out and its echo a message in, so this halves them (docs/decisions.md "What the caller
 * heard comes from echoed marks").
 */
const MARK_EVERY_BYTES = 1600;

/** The parts of an utterance framing reads and advances. */
type Framed = Pick<Utterance, 'id' | 'bytesReceived' | 'firstQueuedAt' | 'flushed'>;

/**
 * Frames one audio source (a TTS stream, a Realtime output item) into whole 20 ms frames with a
 * mark `<utterance id>:<bytes>` after the first frame and then every 200 ms, and `<id>:end` at the
 * end, so echoed marks say how much of each utterance the caller heard (docs/protocols.md "Twilio"). A partial
 * tail waits for more audio or for `flush`, which pads it with silence.
 */
export class FrameMarker {
  readonly #sink: FrameSink;
  readonly #now: () => number;
  readonly #onFirstFrame: (() => void) | undefined;
  #carry: Uint8Array | undefined;

  /** `onFirstFrame` runs once per utterance, right after its first frame is queued. */
  constructor(sink: FrameSink, now: () => number, onFirstFrame?: () => void) {
    this.#sink = sink;
    this.#now = now;
    this.#onFirstFrame = onFirstFrame;
  }

  /**
   * Queues the whole frames of the held tail plus `mulaw` for `utterance`; holds the new tail. The
   * held tail is completed into one frame from the head of `mulaw`, and the rest is queued as a view
   * of it: no copy of the chunk (a provider's chunks are rarely whole frames, so there is nearly
   * always a tail).
   */
  audio(utterance: Framed, mulaw: Uint8Array): void {
    let data = mulaw;
    if (this.#carry) {
      const need = FRAME_BYTES - this.#carry.length;
      if (data.length < need) {
        const carry = new Uint8Array(this.#carry.length + data.length);
        carry.set(this.#carry);
        carry.set(data, this.#carry.length);
        this.#carry = carry;
        return;
      }
      const frame = new Uint8Array(FRAME_BYTES);
      frame.set(this.#carry);
      frame.set(data.subarray(0, need), this.#carry.length);
      this.#carry = undefined;
      this.#enqueue(utterance, frame);
      data = data.subarray(need);
    }
    const whole = data.length - (data.length % FRAME_BYTES);
    if (whole < data.length) this.#carry = data.slice(whole);
    this.#enqueue(utterance, data.subarray(0, whole));
  }

  /**
   * No more audio for `utterance`: pads and queues the tail, sets `flushed`, and marks the end.
   * Returns false (and marks nothing) when the utterance had no audio at all.
   */
  flush(utterance: Framed): boolean {
    if (this.#carry) {
      const frame = new Uint8Array(FRAME_BYTES).fill(MULAW_SILENCE);
      frame.set(this.#carry);
      this.#carry = undefined;
      this.#enqueue(utterance, frame);
    }
    utterance.flushed = true;
    if (utterance.bytesReceived === 0) return false;
    this.#sink.mark(`${utterance.id}:end`);
    return true;
  }

  /** Forgets the held tail (barge-in). */
  clear(): void {
    this.#carry = undefined;
  }

  #enqueue(utterance: Framed, frames: Uint8Array): void {
    let offset = 0;
    while (offset < frames.length) {
      const before = utterance.bytesReceived;
      const step = before === 0 ? FRAME_BYTES : MARK_EVERY_BYTES - (before % MARK_EVERY_BYTES);
      const piece = frames.subarray(offset, offset + step);
      offset += piece.length;
      utterance.bytesReceived += piece.length;
      utterance.firstQueuedAt ??= this.#now();
      this.#sink.enqueue(piece);
      if (before === 0 || utterance.bytesReceived % MARK_EVERY_BYTES === 0) this.#sink.mark(`${utterance.id}:${utterance.bytesReceived}`);
      if (before === 0) this.#onFirstFrame?.();
    }
  }
}

/** Splits a mark name into its utterance id and position (bytes heard, or `end`). */
export function parseMark(name: string): { utteranceId: number; position: string | undefined } {
  const [idText, position] = name.split(':');
  return { utteranceId: Number(idText), position };
}

/** The mark queued after an utterance's first frame: when the pacer sends it, first audio went out. */
export function isFirstFrameMark(position: string | undefined): boolean {
  return position === String(FRAME_BYTES);
}
