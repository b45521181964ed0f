/**
 * The player's jitter buffer, with the protocol's marks: 16 kHz audio in, the AudioContext's rate
 * out, one render quantum at a time. Pure (no DOM): the player worklet runs it, and the unit tests
 * drive it quantum by quantum as the audio thread does.
 *
 * Positions count 16 kHz samples since the call started. A mark records how many samples had
 * arrived before it, and is echoed once playback has consumed that many: a position, not a
 * clock, so a slow or busy page echoes late, never early.
 */
import { SAMPLE_RATE } from './protocol';
import { PullUpsampler } from './resampler';

/** The buffering policy, in milliseconds of audio. */
export interface PlayoutPolicy {
  /** Buffered before playback starts (and starts again after running dry). */
  startMs: number;
  /** What the start level may grow to. */
  maxMs: number;
  /** Growth of the start level per underrun. */
  growMs: number;
  /** Running dry counts as an underrun when audio comes back within this long; a longer gap is a pause between replies. */
  underrunGapMs: number;
}

/**
 * 60 ms to start: three 20 ms frames, enough to ride out the jitter of a loopback or LAN socket
 * without a delay a caller notices. Each underrun adds 20 ms, up to 200 ms (a long-distance
 * mobile link's jitter). A gap over 500 ms is the assistant pausing, not the network.
 */
export const DEFAULT_POLICY: PlayoutPolicy = { startMs: 60, maxMs: 200, growMs: 20, underrunGapMs: 500 };

/** The jitter buffer's figures, for `WebCall.stats()`. */
export interface PlayoutStats {
  bufferedMs: number;
  targetMs: number;
  playedMs: number;
  underruns: number;
}

const SAMPLES_PER_MS = SAMPLE_RATE / 1000;
/** No marks due: one shared empty list, so the audio thread allocates nothing per quantum. */
const NONE: readonly string[] = [];

/** A jitter buffer with marks, rendering at `outputRate`. */
export class Playout {
  private readonly chunks: Float32Array[] = [];
  private head = 0;
  private readonly marks: { name: string; position: number }[] = [];
  private readonly upsampler: PullUpsampler;
  /** Samples received, and samples consumed (played or dropped by a clear): both since the start. */
  private received = 0;
  private consumed = 0;
  private played = 0;
  private target: number;
  private playing = false;
  /** Output frames rendered while audio waited under the start level (it starts anyway after startMs). */
  private waited = 0;
  /** Output frames rendered since the start, the clock an underrun's gap is measured on. */
  private rendered = 0;
  private dryAt: number | undefined;
  private underruns = 0;
  private dry = false;
  private readonly pull = (): number => this.next();

  constructor(
    private readonly outputRate: number,
    private readonly policy: PlayoutPolicy = DEFAULT_POLICY,
  ) {
    this.upsampler = new PullUpsampler(SAMPLE_RATE, outputRate);
    this.target = policy.startMs * SAMPLES_PER_MS;
  }

  /** Queues 16 kHz audio from the server. */
  push(samples: Float32Array): void {
    if (samples.length === 0) return;
    if (this.dryAt !== undefined && this.rendered - this.dryAt < this.msToFrames(this.policy.underrunGapMs)) {
      this.underruns++;
      this.target = Math.min(this.policy.maxMs, this.target / SAMPLES_PER_MS + this.policy.growMs) * SAMPLES_PER_MS;
    }
    this.dryAt = undefined;
    this.chunks.push(samples);
    this.received += samples.length;
  }

  /** Places a mark after the audio received so far; returns the marks due now (this one, if all of it has played). */
  mark(name: string): readonly string[] {
    this.marks.push({ name, position: this.received });
    return this.due();
  }

  /** Barge-in: drops every buffered sample and returns every pending mark, in order. */
  clear(): readonly string[] {
    this.chunks.length = 0;
    this.head = 0;
    this.consumed = this.received;
    this.playing = false;
    this.waited = 0;
    this.dryAt = undefined;
    this.upsampler.reset();
    return this.due();
  }

  /** Fills one block of output (silence while buffering); returns the marks whose audio has now played. */
  render(out: Float32Array): readonly string[] {
    const buffered = this.received - this.consumed;
    if (!this.playing) {
      const waitedEnough = buffered > 0 && this.waited >= this.msToFrames(this.policy.startMs);
      if (buffered >= this.target || waitedEnough) {
        this.playing = true;
        this.waited = 0;
      } else {
        if (buffered > 0) this.waited += out.length;
        out.fill(0);
        this.rendered += out.length;
        return this.due();
      }
    }
    this.dry = false;
    this.upsampler.render(out, this.pull);
    this.rendered += out.length;
    if (this.dry) {
      this.playing = false;
      this.dryAt = this.rendered;
    }
    return this.due();
  }

  stats(): PlayoutStats {
    return {
      bufferedMs: (this.received - this.consumed) / SAMPLES_PER_MS,
      targetMs: this.target / SAMPLES_PER_MS,
      playedMs: this.played / SAMPLES_PER_MS,
      underruns: this.underruns,
    };
  }

  /** The next buffered sample, or silence (and a note that the buffer ran dry). */
  private next(): number {
    const chunk = this.chunks[0];
    if (chunk === undefined) {
      this.dry = true;
      return 0;
    }
    const sample = chunk[this.head++]!;
    if (this.head === chunk.length) {
      this.chunks.shift();
      this.head = 0;
    }
    this.consumed++;
    this.played++;
    return sample;
  }

  /** Marks whose position playback has reached, removed from the pending list. */
  private due(): readonly string[] {
    let count = 0;
    while (count < this.marks.length && this.marks[count]!.position <= this.consumed) count++;
    return count === 0 ? NONE : this.marks.splice(0, count).map((mark) => mark.name);
  }

  private msToFrames(ms: number): number {
    return (ms * this.outputRate) / 1000;
  }
}
