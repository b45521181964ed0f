/**
 * Sample-rate conversion between the AudioContext's rate (44.1 or 48 kHz, sometimes 96) and the
 * protocol's 16 kHz. Capture: a windowed-sinc low-pass below 8 kHz, then linear interpolation at
 * the output instants. Playback: linear interpolation from 16 kHz up. Positions are integers (in
 * units of 1/outRate of an input sample), so a stream of any block sizes yields exactly
 * inRate:outRate samples, with no drift from adding floats.
 */

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Rates as a reduced integer ratio, so positions stay small integers. */
function ratio(inRate: number, outRate: number): { step: number; span: number } {
  if (!Number.isInteger(inRate) || !Number.isInteger(outRate) || inRate <= 0 || outRate <= 0) {
    throw new RangeError(`sample rates must be positive integers (${inRate}, ${outRate})`);
  }
  const divisor = gcd(inRate, outRate);
  return { step: inRate / divisor, span: outRate / divisor };
}

/**
 * Low-pass FIR taps: a Hamming-windowed sinc with unit gain at 0 Hz. Hamming's stopband is about
 * -53 dB, and its transition about 3.3 × sampleRate / length wide.
 */
export function lowPassTaps(cutoffHz: number, sampleRate: number, length: number): Float32Array {
  const taps = new Float32Array(length);
  const fc = cutoffHz / sampleRate;
  const middle = (length - 1) / 2;
  let sum = 0;
  for (let i = 0; i < length; i++) {
    const x = i - middle;
    const sinc = x === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * x) / (Math.PI * x);
    taps[i] = sinc * (0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (length - 1)));
    sum += taps[i]!;
  }
  for (let i = 0; i < length; i++) taps[i]! /= sum;
  return taps;
}

/** A streaming FIR filter; the history is kept twice over so each output is one contiguous dot product. */
class FirFilter {
  private readonly history: Float32Array;
  private position = 0;

  constructor(private readonly taps: Float32Array) {
    this.history = new Float32Array(taps.length * 2);
  }

  next(sample: number): number {
    const length = this.taps.length;
    this.history[this.position] = sample;
    this.history[this.position + length] = sample;
    this.position = (this.position + 1) % length;
    let sum = 0;
    // The last `length` samples, oldest first; the taps are symmetric, so their order does not matter.
    for (let k = 0; k < length; k++) sum += this.taps[k]! * this.history[this.position + k]!;
    return sum;
  }
}

/**
 * Converts a pushed stream from `inRate` to `outRate`: low-pass first when going down (cut at
 * 7/16 of the output rate: 7 kHz for 16 kHz, under its 8 kHz Nyquist limit), then linear
 * interpolation. The filter's length grows with the ratio (97 taps at 48 kHz), so its transition
 * stays about 1.6 kHz wide at any input rate; its delay is half its length (1 ms at 48 kHz).
 */
export class StreamResampler {
  private readonly step: number;
  private readonly span: number;
  private readonly filter: FirFilter | undefined;
  /** The next output's position after the previous input sample, in 1/span of an input sample. */
  private offset: number;
  private previous = 0;

  constructor(inRate: number, outRate: number) {
    ({ step: this.step, span: this.span } = ratio(inRate, outRate));
    const length = 2 * Math.round((16 * inRate) / outRate) + 1;
    this.filter = inRate > outRate ? new FirFilter(lowPassTaps((7 / 16) * outRate, inRate, length)) : undefined;
    this.offset = this.span;
  }

  /** The most samples `process` writes for `inputLength` samples in. */
  maxOutput(inputLength: number): number {
    return Math.ceil((inputLength * this.span) / this.step) + 1;
  }

  /** Converts `input` into `out` (at least `maxOutput(input.length)` long); returns how many it wrote. */
  process(input: Float32Array, out: Float32Array): number {
    let written = 0;
    for (const raw of input) {
      const sample = this.filter ? this.filter.next(raw) : raw;
      while (this.offset < this.span) {
        out[written++] = this.previous + ((sample - this.previous) * this.offset) / this.span;
        this.offset += this.step;
      }
      this.offset -= this.span;
      this.previous = sample;
    }
    return written;
  }
}

/**
 * Converts 16 kHz up to the output rate by linear interpolation, pulling input samples as it needs
 * them, so a player can fill exactly one render quantum (128 frames) at a time. Linear, not a
 * longer filter: upsampling creates no aliasing, and its images of speech (around 12 kHz for 4 kHz
 * content at 16 kHz) are about 20 dB down, which a voice call does not need better.
 */
export class PullUpsampler {
  private readonly step: number;
  private readonly span: number;
  /** The next output's position after `from`, in 1/span of an input sample. */
  private offset = 0;
  private from = 0;
  private to = 0;

  constructor(inRate: number, outRate: number) {
    ({ step: this.step, span: this.span } = ratio(inRate, outRate));
  }

  /** Fills `out`, calling `pull` for each input sample it moves past. */
  render(out: Float32Array, pull: () => number): void {
    for (let i = 0; i < out.length; i++) {
      out[i] = this.from + ((this.to - this.from) * this.offset) / this.span;
      this.offset += this.step;
      while (this.offset >= this.span) {
        this.offset -= this.span;
        this.from = this.to;
        this.to = pull();
      }
    }
  }

  /** Forgets the samples it holds, so audio dropped by a clear leaves no tail. */
  reset(): void {
    this.offset = 0;
    this.from = 0;
    this.to = 0;
  }
}
