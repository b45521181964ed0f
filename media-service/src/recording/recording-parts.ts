import { MULAW_SILENCE } from '../audio/mulaw';
import type { RecordingStore, RecordingTarget, RecordingUpload } from '../ports/recording-store';
import type { FinishedAudioSink } from './timeline-window';
import { decodeMulawInto, WAV_FRAME_BYTES, wavHeader } from './wav';

/**
 * Samples decoded between two yields to the event loop: a whole part (2.6 M samples) takes
 * 2–11 ms on the 2-core dev VM, longer than a 20 ms pacing tick can spare; a slice is ~0.1 ms.
 */
const SAMPLES_PER_SLICE = 65_536;

const EMPTY = new Uint8Array(0);

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Stereo μ-law frames waiting in memory: a list of chunks, 2 bytes per frame. */
class FrameQueue {
  #chunks: Uint8Array[] = [];
  #bytes = 0;

  get frames(): number {
    return this.#bytes / 2;
  }

  get bytes(): number {
    return this.#bytes;
  }

  push(chunk: Uint8Array): void {
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
  }

  /** Everything queued; the queue is empty after. */
  takeAll(): Uint8Array[] {
    const chunks = this.#chunks;
    this.#chunks = [];
    this.#bytes = 0;
    return chunks;
  }
}

/**
 * Turns finished stereo μ-law into the call's WAV in the store while the call runs, holding at
 * most part 1 and the filling part as μ-law, plus the part on its way out (as μ-law while it is
 * decoded, and as 16-bit PCM).
 *
 * The WAV header holds the data length, known only at the end, and a multipart object's parts
 * must be ≥ 5 MiB except the last, so the header cannot be a part of its own. Part 1 is therefore
 * the header plus the first `partFrames` frames, kept as μ-law (2.6 MB) until the call ends;
 * parts 2, 3, … go out as they fill; at the end part 1 and the remainder (the last part, any
 * size) go out and the upload completes. A recording no longer than part 1 is one PUT.
 *
 * A part that fills while the previous one is still uploading (the store stalled for a whole
 * part's duration, 164 s at 5 MiB) fails the recording rather than queue without bound; so does
 * any upload error. A failed or discarded recording aborts its upload.
 */
export class RecordingParts implements FinishedAudioSink {
  readonly #store: RecordingStore;
  readonly #target: RecordingTarget;
  readonly #partFrames: number;
  readonly #head = new FrameQueue();
  readonly #current = new FrameQueue();
  #upload: Promise<RecordingUpload> | undefined;
  #chain: Promise<void> = Promise.resolve();
  #nextPart = 2;
  #inFlightBytes = 0;
  #peakBytes = 0;
  #error: unknown;
  #closed = false;

  constructor(options: { store: RecordingStore; target: RecordingTarget; partBytes: number }) {
    if (!Number.isInteger(options.partBytes / WAV_FRAME_BYTES) || options.partBytes <= 0)
      throw new Error(`partBytes must be a positive multiple of ${WAV_FRAME_BYTES}.`);
    this.#store = options.store;
    this.#target = options.target;
    this.#partFrames = options.partBytes / WAV_FRAME_BYTES;
  }

  /** Memory held now: μ-law waiting for its part, plus the PCM part being uploaded. */
  get retainedBytes(): number {
    return this.#head.bytes + this.#current.bytes + this.#inFlightBytes;
  }

  /** The most {@link retainedBytes} ever was. */
  get peakRetainedBytes(): number {
    return this.#peakBytes;
  }

  append(stereo: Uint8Array): void {
    let rest = stereo;
    while (rest.length > 0 && this.#accepting()) {
      const queue = this.#queueWithRoom();
      const take = Math.min(rest.length, (this.#partFrames - queue.frames) * 2);
      queue.push(take === rest.length ? rest : rest.slice(0, take));
      rest = take === rest.length ? new Uint8Array(0) : rest.slice(take);
      this.#noteRetained();
      if (this.#current.frames === this.#partFrames) this.#ship();
    }
  }

  appendSilence(frames: number): void {
    for (let left = frames; left > 0 && this.#accepting();) {
      const take = Math.min(left, this.#partFrames - this.#queueWithRoom().frames);
      this.append(new Uint8Array(take * 2).fill(MULAW_SILENCE));
      left -= take;
    }
  }

  /** Resolves once no part upload is in flight (a failed one included). */
  async settled(): Promise<void> {
    await this.#chain;
  }

  /**
   * Writes what is left (part 1 with the header, the last part) and completes the object.
   * Resolves to its key, or null when nothing was recorded; rejects when the recording failed.
   */
  async finish(): Promise<string | null> {
    if (this.#closed) throw new Error('Recording already finished or discarded.');
    this.#closed = true;
    await this.#chain;
    if (this.#error !== undefined) throw this.#error;
    const uploaded = (this.#nextPart - 2) * this.#partFrames;
    const dataBytes = (this.#head.frames + uploaded + this.#current.frames) * WAV_FRAME_BYTES;
    if (dataBytes === 0) return null;
    const header = wavHeader(dataBytes);
    try {
      if (!this.#upload && this.#current.frames === 0) {
        const wav = await this.#toPcm(this.#takeForUpload(this.#head), header);
        return (await this.#store.save({ ...this.#target, wav })).key;
      }
      return await this.#completeUpload(header);
    } finally {
      this.#inFlightBytes = 0;
    }
  }

  /** Part 1 (header + head), then the last part if any, then CompleteMultipartUpload; aborts on failure. */
  async #completeUpload(header: Uint8Array): Promise<string> {
    const upload = await this.#startUpload();
    try {
      await upload.putPart(1, await this.#toPcm(this.#takeForUpload(this.#head), header));
      if (this.#current.frames > 0) await upload.putPart(this.#nextPart++, await this.#toPcm(this.#takeForUpload(this.#current)));
      await upload.complete();
      return upload.key;
    } catch (error) {
      await upload.abort().catch(() => undefined);
      throw error;
    }
  }

  /** Drops the recording: frees the audio and aborts the upload if one was started. */
  async discard(): Promise<void> {
    this.#closed = true;
    this.#fail(new Error('Recording discarded.'));
    await this.#chain;
  }

  #accepting(): boolean {
    return !this.#closed && this.#error === undefined;
  }

  #queueWithRoom(): FrameQueue {
    return this.#head.frames < this.#partFrames ? this.#head : this.#current;
  }

  /** Uploads the full current part as the next part number, at most one at a time. */
  #ship(): void {
    if (this.#inFlightBytes > 0) {
      this.#fail(new Error('Recording upload fell behind: a part filled while the previous one was still uploading.'));
      return;
    }
    const partNumber = this.#nextPart++;
    const frames = this.#takeForUpload(this.#current);
    this.#chain = this.#chain
      .then(async () => {
        const pcm = await this.#toPcm(frames);
        await (await this.#startUpload()).putPart(partNumber, pcm);
      })
      .then(
        () => void (this.#inFlightBytes = 0),
        (error: unknown) => this.#fail(error),
      );
  }

  /** Moves the queue's frames out of it, counted as in flight until the upload lands. */
  #takeForUpload(queue: FrameQueue): Uint8Array[] {
    this.#inFlightBytes = queue.bytes;
    return queue.takeAll();
  }

  /** The frames as WAV data after `header` (or none), decoded a slice at a time between event-loop turns. */
  async #toPcm(frames: Uint8Array[], header: Uint8Array = EMPTY): Promise<Uint8Array> {
    const samples = frames.reduce((sum, chunk) => sum + chunk.length, 0);
    const pcm = new Uint8Array(header.length + samples * 2);
    pcm.set(header);
    this.#inFlightBytes += pcm.length;
    this.#noteRetained();
    let at = header.length;
    let sinceTurn = 0;
    for (const [index, chunk] of frames.entries()) {
      for (let from = 0; from < chunk.length; from += SAMPLES_PER_SLICE) {
        const slice = chunk.subarray(from, from + SAMPLES_PER_SLICE);
        decodeMulawInto(slice, pcm, at);
        at += slice.length * 2;
        sinceTurn += slice.length;
        if (sinceTurn >= SAMPLES_PER_SLICE) {
          sinceTurn = 0;
          await nextTurn();
        }
      }
      frames[index] = EMPTY; // decoded: the μ-law can go
    }
    this.#inFlightBytes = pcm.length;
    return pcm;
  }

  #startUpload(): Promise<RecordingUpload> {
    this.#upload ??= this.#store.startUpload(this.#target);
    return this.#upload;
  }

  /** Records the first failure, frees the audio, and aborts the upload once nothing is in flight. */
  #fail(error: unknown): void {
    if (this.#error !== undefined) return;
    this.#error = error;
    this.#head.takeAll(); // dropped
    this.#current.takeAll();
    this.#chain = this.#chain
      .then(async () => {
        this.#inFlightBytes = 0;
        if (this.#upload) await (await this.#upload).abort();
      })
      .catch(() => undefined);
  }

  #noteRetained(): void {
    this.#peakBytes = Math.max(this.#peakBytes, this.retainedBytes);
  }
}
