import { applyGain, mixInto, type FrameSource } from '../audio/mix';
import { FRAME_BYTES, FRAME_MS, MULAW_SILENCE } from '../audio/mulaw';
import type { Tickable } from './pacer-scheduler';

export {
  intervalTicker,
  PacerScheduler,
  type PacerSchedulerOptions,
  type SchedulerStats,
  type Tickable,
  type Ticker,
} from './pacer-scheduler';

/** Where paced output goes; a `CallTransport` satisfies it as is. */
export interface PacerSink {
  sendAudio(mulaw: Uint8Array): void;
  sendMark(name: string): void;
  clear(): void;
}

/** Tuning of one pacer. */
export interface PacerOptions {
  /**
   * How far ahead of real time audio may be sent. 100 ms: a `clear` then drops at most 100 ms
   * that Twilio had buffered, and timer jitter under ~80 ms never starves the line (docs/protocols.md "Lessons from open-source voice pipelines").
   */
  leadMs?: number;
  /** Catch-up rate cap as a multiple of real time (pipecat `_write_audio_sleep`: 2×). */
  maxCatchUp?: number;
  /** Assistant volume 0.5–1.5, applied to voice frames only. Default 1 (no processing). */
  gain?: number;
  /** Continuous background (office ambience): mixed under voice and sent alone between replies. */
  background?: FrameSource;
  /** Lead kept while only background plays; small so a reply starting is not queued behind it. Default 40 ms. */
  backgroundLeadMs?: number;
}

/** Counters for one pacer. */
export interface PacerStats {
  voiceFramesSent: number;
  backgroundFramesSent: number;
  marksSent: number;
  clears: number;
  /** Voice dropped by `clear()` before it was sent. */
  droppedMs: number;
  /**
   * Pacing jitter as the caller hears it: gaps where the far end ran dry although voice was
   * waiting (our ticks came too late). 0 on a healthy event loop.
   */
  underruns: number;
  underrunMs: number;
  maxLeadMs: number;
}

const BURST_MS = 2 * FRAME_MS;

/**
 * Paces one call's outbound audio: 20 ms frames (the tail padded with 0xFF) released at real
 * time, at most `leadMs` ahead, catching up at ≤ `maxCatchUp`× real time with a burst of at most
 * 40 ms. Marks keep their place between frames, so Twilio echoes one exactly when the audio before
 * it has played. `clear()` drops everything unsent at once and forwards the `clear`.
 *
 * Audio handed to `enqueue` is referenced, not copied: do not reuse the buffer. Frames reach the
 * sink on the next scheduler tick (≤ 10 ms with the default scheduler).
 *
 * @example
 * ```ts
 * const pacer = new Pacer(transport, { gain: 0.9, background: new OfficeAmbience({ seed: callId }) });
 * const stop = scheduler.add(pacer);
 * pacer.enqueue(ttsChunk); pacer.mark('t3-c1');
 * // barge-in: pacer.clear()  ·  end of call: stop()
 * ```
 */
export class Pacer implements Tickable {
  readonly #sink: PacerSink;
  readonly #leadMs: number;
  readonly #maxCatchUp: number;
  readonly #gain: number;
  readonly #background: FrameSource | undefined;
  readonly #backgroundLeadMs: number;
  readonly #bgScratch = new Uint8Array(FRAME_BYTES);
  readonly #stats: PacerStats = {
    voiceFramesSent: 0,
    backgroundFramesSent: 0,
    marksSent: 0,
    clears: 0,
    droppedMs: 0,
    underruns: 0,
    underrunMs: 0,
    maxLeadMs: 0,
  };
  /** Whole-frame audio chunks and mark names, in order; `#head` is the next item. */
  #queue: (Uint8Array | string)[] = [];
  #head = 0;
  #offset = 0;
  #tail: Uint8Array | undefined;
  #queuedBytes = 0;
  /** When the audio sent so far finishes playing at the far end (0: nothing in flight). */
  #playhead = 0;
  #allowanceMs = BURST_MS;
  #lastTickMs: number | undefined;
  #backlogged = false;
  /** Told each mark as it leaves (the speaker times first audio out from it). */
  #markListeners: ((name: string) => void)[] = [];

  constructor(sink: PacerSink, options: PacerOptions = {}) {
    this.#sink = sink;
    this.#leadMs = Math.max(FRAME_MS, options.leadMs ?? 100);
    this.#maxCatchUp = options.maxCatchUp ?? 2;
    this.#gain = options.gain ?? 1;
    this.#background = options.background;
    this.#backgroundLeadMs = Math.max(FRAME_MS, options.backgroundLeadMs ?? 40);
  }

  /** Queues μ-law audio of any length after everything queued so far. */
  enqueue(mulaw: Uint8Array): void {
    if (mulaw.length === 0) return;
    this.#queuedBytes += mulaw.length;
    let data = mulaw;
    if (this.#tail) {
      const need = FRAME_BYTES - this.#tail.length;
      if (data.length < need) {
        this.#tail = concat(this.#tail, data);
        return;
      }
      const frame = new Uint8Array(FRAME_BYTES);
      frame.set(this.#tail);
      frame.set(data.subarray(0, need), this.#tail.length);
      this.#queue.push(frame);
      this.#tail = undefined;
      data = data.subarray(need);
    }
    const whole = data.length - (data.length % FRAME_BYTES);
    if (whole > 0) this.#queue.push(data.subarray(0, whole));
    if (whole < data.length) this.#tail = data.slice(whole);
  }

  /** Queues a mark after the audio queued so far (a partial last frame is padded first). */
  mark(name: string): void {
    this.flush();
    this.#queue.push(name);
  }

  /** Pads a partial last frame with μ-law silence so it is sent (call at the end of a reply). */
  flush(): void {
    if (!this.#tail) return;
    const frame = new Uint8Array(FRAME_BYTES).fill(MULAW_SILENCE);
    frame.set(this.#tail);
    this.#queuedBytes += FRAME_BYTES - this.#tail.length;
    this.#queue.push(frame);
    this.#tail = undefined;
  }

  /**
   * Barge-in: drops all unsent audio and marks, forwards `clear` to the sink (Twilio then drops its
   * buffer and echoes the marks already sent). Returns what never left the process.
   */
  clear(): { droppedMs: number; droppedMarks: string[] } {
    const droppedMarks = this.#queue.slice(this.#head).filter((item): item is string => typeof item === 'string');
    const droppedMs = this.#queuedBytes / 8;
    this.#queue = [];
    this.#head = 0;
    this.#offset = 0;
    this.#tail = undefined;
    this.#queuedBytes = 0;
    this.#playhead = 0;
    this.#backlogged = false;
    this.#stats.clears++;
    this.#stats.droppedMs += droppedMs;
    this.#sink.clear();
    return { droppedMs, droppedMarks };
  }

  /**
   * Calls `listener` with each mark's name as it is sent, before the sink gets it (the speaker or
   * live playback times an utterance's first audio out this way). Returns the unsubscribe.
   */
  onMarkSent(listener: (name: string) => void): () => void {
    this.#markListeners.push(listener);
    return () => {
      this.#markListeners = this.#markListeners.filter((candidate) => candidate !== listener);
    };
  }

  /** Milliseconds of voice waiting to be sent (including a partial last frame). */
  get queuedMs(): number {
    return this.#queuedBytes / 8;
  }

  /** Milliseconds of sent audio the far end has not played yet, at `nowMs`. */
  leadAt(nowMs: number): number {
    return Math.max(0, this.#playhead - nowMs);
  }

  /** A snapshot of the counters. */
  stats(): PacerStats {
    return { ...this.#stats };
  }

  /** Sends whatever is due at `nowMs`; the shared scheduler calls this every tick. */
  tick(nowMs: number): void {
    this.#refill(nowMs);
    for (;;) {
      const item = this.#queue[this.#head];
      if (typeof item === 'string') {
        this.#head++;
        this.#stats.marksSent++;
        for (let i = 0; i < this.#markListeners.length; i++) this.#markListeners[i]!(item);
        this.#sink.sendMark(item);
        continue;
      }
      const limit = item ? this.#leadMs : this.#background ? this.#backgroundLeadMs : 0;
      if (this.#allowanceMs < FRAME_MS || this.leadAt(nowMs) + FRAME_MS > limit) break;
      this.#send(nowMs, item ? this.#nextVoiceFrame(item) : this.#background!.nextFrame(new Uint8Array(FRAME_BYTES)), item !== undefined);
    }
    this.#backlogged = this.#head < this.#queue.length;
    if (this.#head > 64 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
  }

  #refill(nowMs: number): void {
    const elapsed = this.#lastTickMs === undefined ? BURST_MS : Math.max(0, nowMs - this.#lastTickMs);
    this.#lastTickMs = nowMs;
    this.#allowanceMs = Math.min(BURST_MS, this.#allowanceMs + elapsed * this.#maxCatchUp);
  }

  #send(nowMs: number, frame: Uint8Array, voice: boolean): void {
    if (this.#playhead < nowMs) {
      if (voice && this.#backlogged && this.#playhead > 0) {
        this.#stats.underruns++;
        this.#stats.underrunMs += nowMs - this.#playhead;
      }
      this.#playhead = nowMs;
    }
    this.#playhead += FRAME_MS;
    this.#allowanceMs -= FRAME_MS;
    this.#stats.maxLeadMs = Math.max(this.#stats.maxLeadMs, this.#playhead - nowMs);
    if (voice) this.#stats.voiceFramesSent++;
    else this.#stats.backgroundFramesSent++;
    this.#sink.sendAudio(frame);
  }

  /** The next 160 bytes of `chunk`: a zero-copy view, or a processed copy when gain/background apply. */
  #nextVoiceFrame(chunk: Uint8Array): Uint8Array {
    const view = chunk.subarray(this.#offset, this.#offset + FRAME_BYTES);
    this.#offset += FRAME_BYTES;
    this.#queuedBytes -= FRAME_BYTES;
    if (this.#offset >= chunk.length) {
      this.#head++;
      this.#offset = 0;
    }
    if (this.#gain === 1 && !this.#background) return view;
    const out = this.#gain === 1 ? view.slice() : applyGain(view, this.#gain);
    return this.#background ? mixInto(out, this.#background.nextFrame(this.#bgScratch)) : out;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
