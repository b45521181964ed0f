/**
 * 16 kHz ⇄ 8 kHz for web calls (docs/protocols.md "Web calls"): a browser streams 16-bit PCM at
 * 16 kHz, the engine runs on 8 kHz μ-law. Both directions are streaming (state carries across
 * frames, so frame edges add no clicks) and allocate only when a frame is larger than any before.
 *
 * - Down: a 47-tap windowed-sinc low-pass (Blackman, cut-off 3.8 kHz) before keeping every other
 *   sample. Its response: flat to 3 kHz, −1 dB at 3.4 kHz (the top of the phone band), −11 dB at
 *   4 kHz, −90 dB from 5 kHz. A 6 kHz tone, which decimation alone would fold onto 2 kHz at full
 *   level, comes out more than 60 dB down (test/unit/media/audio/resample.test.ts). 31 taps
 *   cost a third less but lose 1 dB at 3 kHz. Group delay: 23 samples (1.4 ms).
 * - Up: linear interpolation (each new sample, and the midpoint before it). The images it leaves
 *   above 4 kHz are attenuated by its sinc² response, and the phone-band voice it carries has
 *   nothing above 4 kHz to begin with. Delay: half a sample.
 *
 * Cost, measured by `npm run bench:web-audio` (docs/performance.md "Issue 32: web calls").
 */

/** Taps of the down-sampling low-pass: odd, so the filter is symmetric about one sample. */
const TAPS = 47;
/** Cut-off of the low-pass, as a fraction of the 16 kHz input rate (3.8 kHz). */
const CUTOFF = 3800 / 16_000;

/** The low-pass's coefficients, normalised to unity gain at 0 Hz. */
const LOW_PASS: Float32Array = (() => {
  const h = new Float64Array(TAPS);
  const middle = (TAPS - 1) / 2;
  for (let n = 0; n < TAPS; n++) {
    const x = n - middle;
    const sinc = x === 0 ? 2 * CUTOFF : Math.sin(2 * Math.PI * CUTOFF * x) / (Math.PI * x);
    const window = 0.42 - 0.5 * Math.cos((2 * Math.PI * n) / (TAPS - 1)) + 0.08 * Math.cos((4 * Math.PI * n) / (TAPS - 1));
    h[n] = sinc * window;
  }
  const sum = h.reduce((total, value) => total + value, 0);
  return Float32Array.from(h, (value) => value / sum);
})();

const clip16 = (value: number) => (value > 32767 ? 32767 : value < -32768 ? -32768 : Math.round(value));

/**
 * 16 kHz → 8 kHz, one stream: low-pass, then every other sample. Frames may hold any number of
 * samples (an odd count carries its phase into the next frame).
 *
 * @example
 * ```ts
 * const down = new Downsampler();
 * const pcm8k = down.process(pcm16kFrame); // 320 samples in → 160 out
 * ```
 */
export class Downsampler {
  /** The last TAPS−1 input samples, then the current frame. */
  #buffer = new Float32Array(TAPS - 1 + 320);
  /** Whether the next input sample is one kept (0) or skipped (1). */
  #phase = 0;

  /** The 8 kHz samples for `input` (16 kHz); the returned array is new. */
  process(input: Int16Array): Int16Array {
    const history = TAPS - 1;
    if (this.#buffer.length < history + input.length) {
      const grown = new Float32Array(history + input.length);
      grown.set(this.#buffer.subarray(0, history));
      this.#buffer = grown;
    }
    const buffer = this.#buffer;
    for (let i = 0; i < input.length; i++) buffer[history + i] = input[i]!;
    const first = this.#phase;
    const out = new Int16Array(Math.max(0, Math.ceil((input.length - first) / 2)));
    for (let i = first, o = 0; i < input.length; i += 2, o++) {
      // The window ends at input sample i: buffer[i .. i + TAPS − 1].
      let sum = 0;
      for (let k = 0; k < TAPS; k++) sum += LOW_PASS[k]! * buffer[i + k]!;
      out[o] = clip16(sum);
    }
    buffer.copyWithin(0, input.length, input.length + history);
    this.#phase = (first + input.length) % 2;
    return out;
  }
}

/**
 * 8 kHz → 16 kHz, one stream: for each input sample, the midpoint from the one before, then the
 * sample itself (linear interpolation).
 *
 * @example
 * ```ts
 * const up = new Upsampler();
 * const pcm16k = up.process(pcm8kFrame); // 160 samples in → 320 out
 * ```
 */
export class Upsampler {
  #previous = 0;

  /** The 16 kHz samples for `input` (8 kHz): twice as many; the returned array is new. */
  process(input: Int16Array): Int16Array {
    const out = new Int16Array(input.length * 2);
    let previous = this.#previous;
    for (let i = 0; i < input.length; i++) {
      const sample = input[i]!;
      out[2 * i] = (previous + sample) >> 1;
      out[2 * i + 1] = sample;
      previous = sample;
    }
    this.#previous = previous;
    return out;
  }
}
