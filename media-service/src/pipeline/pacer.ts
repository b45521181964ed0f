import { FRAME_BYTES, padToFrames } from '../telephony/media-stream-messages';

/** Where paced output goes: the call transport's `media` and `mark` messages. */
export interface PacedOutput {
  media(frame: Uint8Array): void;
  mark(name: string): void;
}

type Item = { kind: 'frame'; bytes: Uint8Array } | { kind: 'mark'; name: string };

const FRAME_MS = 20;

/**
 * Paces one call's outbound audio: 20 ms frames released in real time, at most `leadMs` ahead of
 * the wall clock, so Twilio's buffer stays shallow and a `clear` on barge-in drops little (pipecat
 * paces at ≤ 2× real time for the same reason). Marks keep their place between frames, so a mark
 * is echoed exactly when the audio before it has played. After a pause the clock restarts at "now"
 * instead of bursting to make up for the silence.
 */
export class Pacer {
  private readonly queue: Item[] = [];
  private sentUntil = 0;

  constructor(
    private readonly output: PacedOutput,
    private readonly leadMs = 100,
  ) {}

  /** Queues audio (padded to whole frames with μ-law silence). */
  enqueue(mulaw: Uint8Array): void {
    const padded = padToFrames(mulaw);
    for (let offset = 0; offset < padded.length; offset += FRAME_BYTES) {
      this.queue.push({ kind: 'frame', bytes: padded.subarray(offset, offset + FRAME_BYTES) });
    }
  }

  /** Queues a mark after the audio queued so far. */
  mark(name: string): void {
    this.queue.push({ kind: 'mark', name });
  }

  /** Drops everything not yet sent (barge-in); returns the milliseconds of audio dropped. */
  clear(): number {
    const dropped = this.queue.filter((item) => item.kind === 'frame').length * FRAME_MS;
    this.queue.length = 0;
    return dropped;
  }

  /** Milliseconds of audio waiting to be sent. */
  get queuedMs(): number {
    return this.queue.filter((item) => item.kind === 'frame').length * FRAME_MS;
  }

  /** Sends whatever is due at `nowMs`; called by the shared scheduler every tick. */
  tick(nowMs: number): void {
    if (this.sentUntil < nowMs) this.sentUntil = nowMs;
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      if (head.kind === 'frame' && this.sentUntil >= nowMs + this.leadMs) return;
      this.queue.shift();
      if (head.kind === 'mark') {
        this.output.mark(head.name);
      } else {
        this.output.media(head.bytes);
        this.sentUntil += FRAME_MS;
      }
    }
  }
}

/** A timer source (real `setInterval` in production, driven by hand in tests). */
export interface Ticker {
  start(everyMs: number, onTick: () => void): () => void;
}

/**
 * One timer for every call in the process: 100 concurrent calls cost one 10 ms interval, not 100
 * timers drifting against each other.
 */
export class PacerScheduler {
  private readonly pacers = new Set<Pacer>();
  private stop: (() => void) | undefined;

  constructor(
    private readonly now: () => number,
    private readonly ticker: Ticker = { start: (ms, fn) => { const id = setInterval(fn, ms); return () => clearInterval(id); } },
    private readonly tickMs = 10,
  ) {}

  /** Starts pacing a call's output; returns the function that stops it. */
  add(pacer: Pacer): () => void {
    this.pacers.add(pacer);
    this.stop ??= this.ticker.start(this.tickMs, () => this.tickAll());
    return () => {
      this.pacers.delete(pacer);
      if (this.pacers.size === 0 && this.stop) {
        this.stop();
        this.stop = undefined;
      }
    };
  }

  private tickAll(): void {
    const now = this.now();
    for (const pacer of this.pacers) pacer.tick(now);
  }
}
