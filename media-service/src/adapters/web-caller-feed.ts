import { FRAME_BYTES, MULAW_SILENCE } from '../audio/mulaw';

/** How far the browser's audio may fall behind the clock before the gap is filled with silence (60 ms: three frames of jitter). */
const SLACK_BYTES = 3 * FRAME_BYTES;
/** The most one tick catches up (a stalled event loop must not turn into a burst of minutes). */
const MAX_CATCH_UP_BYTES = 50 * FRAME_BYTES;
const TICK_MS = 20;

/** The feed's clock and ticker (real ones by default; tests drive fakes). */
export interface FeedClock {
  now(): number;
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const REAL_CLOCK: FeedClock = {
  now: () => performance.now(),
  setInterval: (callback, ms) => setInterval(callback, ms).unref(),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

/**
 * The caller's side of a web call as a phone line carries it: continuous 8 kHz μ-law, one frame
 * every 20 ms, whatever the browser sends. A phone line never goes quiet on the wire, and the
 * recogniser (Flux, or the sandbox's, which ends a turn on heard silence) needs the silence after
 * the words to end a turn. So:
 * - the browser's audio passes straight through while it keeps up;
 * - when it falls more than 60 ms behind the clock (no microphone, muted, a stall), silence fills
 *   the gap, frame by frame;
 * - typed speech ({@link inject}) is played at the clock's pace, in place of the microphone
 *   (which is dropped meanwhile), as a sandbox caller's audio is.
 */
export class CallerFeed {
  readonly #emit: (payload: Uint8Array, timestampMs: number) => void;
  readonly #clock: FeedClock;
  #startedAt = 0;
  /** μ-law bytes emitted so far: the media clock. */
  #emitted = 0;
  #injected: Uint8Array[] = [];
  /** Frames left of each injected line, first the one playing. */
  #lineFrames: number[] = [];
  #ticker: unknown;

  constructor(emit: (payload: Uint8Array, timestampMs: number) => void, clock: FeedClock = REAL_CLOCK) {
    this.#emit = emit;
    this.#clock = clock;
  }

  /** The call is live: the clock starts. */
  start(): void {
    if (this.#ticker !== undefined) return;
    this.#startedAt = this.#clock.now();
    this.#ticker = this.#clock.setInterval(() => this.#tick(), TICK_MS);
  }

  /** Stops the ticker (the socket closed). */
  stop(): void {
    if (this.#ticker !== undefined) this.#clock.clearInterval(this.#ticker);
    this.#ticker = undefined;
    this.#injected = [];
    this.#lineFrames = [];
  }

  /** How far the audio passed on so far runs ahead of the clock (ms; negative when behind). */
  get aheadMs(): number {
    return this.#emitted / 8 - (this.#clock.now() - this.#startedAt);
  }

  /** Typed-speech lines queued or playing. */
  get linesQueued(): number {
    return this.#lineFrames.length;
  }

  /** Typed speech queued, in ms (20 ms a frame). */
  get queuedMs(): number {
    return this.#injected.length * 20;
  }

  /** Whether typed speech is still playing. */
  get injecting(): boolean {
    return this.#injected.length > 0;
  }

  /** Microphone audio (already μ-law 8 kHz): passed on, unless typed speech is playing. */
  mic(mulaw: Uint8Array): void {
    if (this.injecting || this.#ticker === undefined) return;
    this.#send(mulaw);
  }

  /** Queues audio to be played as the caller's, in place of the microphone, at real-time pace. */
  inject(mulaw: Uint8Array): void {
    const frames = Math.ceil(mulaw.length / FRAME_BYTES);
    if (frames === 0) return;
    for (let i = 0; i < mulaw.length; i += FRAME_BYTES) {
      const frame = new Uint8Array(FRAME_BYTES).fill(MULAW_SILENCE);
      frame.set(mulaw.subarray(i, i + FRAME_BYTES));
      this.#injected.push(frame);
    }
    this.#lineFrames.push(frames);
  }

  /** The next frame of typed speech, or silence. */
  #nextFrame(): Uint8Array {
    const frame = this.#injected.shift();
    if (!frame) return new Uint8Array(FRAME_BYTES).fill(MULAW_SILENCE);
    if (--this.#lineFrames[0]! <= 0) this.#lineFrames.shift();
    return frame;
  }

  #tick(): void {
    const due = Math.floor((this.#clock.now() - this.#startedAt) * 8);
    let behind = Math.min(due - this.#emitted, MAX_CATCH_UP_BYTES);
    if (!this.injecting && behind <= SLACK_BYTES) return;
    while (behind >= FRAME_BYTES) {
      this.#send(this.#nextFrame());
      behind -= FRAME_BYTES;
    }
  }

  #send(mulaw: Uint8Array): void {
    const at = this.#emitted / 8;
    this.#emitted += mulaw.length;
    this.#emit(mulaw, at);
  }
}
