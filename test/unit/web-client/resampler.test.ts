import { describe, expect, it } from 'vitest';
import { PullUpsampler, StreamResampler, lowPassTaps } from '../../../web-client/src/resampler';
import { amplitude, frequency, inBlocks, sine } from './signals';

/** The context's blocks through a fresh resampler to 16 kHz. */
function down(input: Float32Array, rate: number, block = 128): Float32Array {
  const resampler = new StreamResampler(rate, 16000);
  const scratch = new Float32Array(resampler.maxOutput(block));
  return inBlocks(input, block, (part) => scratch.slice(0, resampler.process(part, scratch)));
}

/** `outputs` samples at `rate` from 16 kHz `input`, and how many input samples were pulled. */
function up(input: Float32Array, rate: number, outputs: number): { out: Float32Array; pulled: number } {
  const upsampler = new PullUpsampler(16000, rate);
  let pulled = 0;
  const out = new Float32Array(outputs);
  for (let at = 0; at < outputs; at += 128) upsampler.render(out.subarray(at, at + 128), () => input[pulled++] ?? 0);
  return { out, pulled };
}

describe('lowPassTaps', () => {
  it('has unit gain at 0 Hz and is symmetric', () => {
    const taps = lowPassTaps(7000, 48000, 97);
    expect(taps.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    for (let i = 0; i < taps.length; i++) expect(taps[i]).toBeCloseTo(taps[taps.length - 1 - i]!, 7);
  });
});

describe.each([48000, 44100, 96000])('StreamResampler from %i Hz to 16 kHz', (rate) => {
  it('yields exactly 16,000 samples a second, in blocks of any size', () => {
    const input = sine(rate, 1000, rate * 2);
    const out = down(input, rate);
    expect(Math.abs(out.length - 32000)).toBeLessThanOrEqual(1);
    expect(down(input, rate, 1000)).toEqual(out);
  });

  it('keeps speech frequencies at their pitch and level', () => {
    const out = down(sine(rate, 1000, rate), rate).subarray(800);
    expect(frequency(out, 16000)).toBeCloseTo(1000, -1);
    expect(amplitude(out)).toBeCloseTo(0.5, 2);
  });

  it('filters what would fold back under 8 kHz (more than 40 dB down)', () => {
    const hz = rate === 44100 ? 10000 : 12000;
    const out = down(sine(rate, hz, rate), rate).subarray(800);
    expect(amplitude(out)).toBeLessThan(0.5 / 100);
  });
});

describe.each([48000, 44100])('PullUpsampler from 16 kHz to %i Hz', (rate) => {
  it('pulls 16,000 samples for a second of output', () => {
    const { pulled } = up(new Float32Array(20000), rate, rate);
    expect(Math.abs(pulled - 16000)).toBeLessThanOrEqual(1);
  });

  it('keeps a tone at its pitch and level', () => {
    const { out } = up(sine(16000, 1000, 16000), rate, rate);
    expect(frequency(out.subarray(0, rate - 128), rate)).toBeCloseTo(1000, -1);
    expect(amplitude(out.subarray(0, rate - 128))).toBeCloseTo(0.5, 1);
  });

  it('starts from silence again after a reset', () => {
    const upsampler = new PullUpsampler(16000, rate);
    upsampler.render(new Float32Array(128), () => 1);
    upsampler.reset();
    const out = new Float32Array(3);
    upsampler.render(out, () => 0);
    expect(Array.from(out)).toEqual([0, 0, 0]);
  });
});
