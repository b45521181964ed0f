import { describe, expect, it } from 'vitest';
import { Downsampler, Upsampler } from '../../../../media-service/src/audio/resample';

/** `seconds` of a sine at `hz`, sampled at `rate`. */
function sine(hz: number, rate: number, seconds: number, amplitude = 10_000): Int16Array {
  return Int16Array.from({ length: Math.round(rate * seconds) }, (_, n) => Math.round(amplitude * Math.sin((2 * Math.PI * hz * n) / rate)));
}

/** The amplitude of the `hz` component of `samples` (a single-bin DFT), skipping the filter's start. */
function amplitudeAt(samples: Int16Array, hz: number, rate: number, skip = 64): number {
  let re = 0;
  let im = 0;
  const used = samples.subarray(skip);
  for (let n = 0; n < used.length; n++) {
    re += used[n]! * Math.cos((2 * Math.PI * hz * n) / rate);
    im += used[n]! * Math.sin((2 * Math.PI * hz * n) / rate);
  }
  return (2 * Math.hypot(re, im)) / used.length;
}

function rms(samples: Int16Array, skip = 64): number {
  const used = samples.subarray(skip);
  return Math.sqrt(used.reduce((sum, value) => sum + value * value, 0) / used.length);
}

/** Feeds `input` through `process` in frames of `frame` samples and joins the output. */
function inFrames(process: (frame: Int16Array) => Int16Array, input: Int16Array, frame: number): Int16Array {
  const parts: Int16Array[] = [];
  for (let i = 0; i < input.length; i += frame) parts.push(process(input.subarray(i, i + frame)));
  const out = new Int16Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

describe('Downsampler (16 kHz → 8 kHz)', () => {
  it.each([300, 1000, 3000])('keeps a %i Hz tone at its frequency and level', (hz) => {
    // Arrange
    const input = sine(hz, 16_000, 0.5);
    // Act
    const out = inFrames((frame) => new Downsampler().process(frame), input, input.length);
    // Assert
    expect(out.length).toBe(input.length / 2);
    expect(amplitudeAt(out, hz, 8000)).toBeGreaterThan(9_700);
    expect(amplitudeAt(out, hz, 8000)).toBeLessThan(10_100);
    // Nothing else: the tone is all the energy there is (RMS of a sine is amplitude/√2).
    expect(rms(out)).toBeLessThan((10_100 / Math.SQRT2) * 1.01);
  });

  it('does not fold a 6 kHz tone onto 2 kHz: more than 60 dB down', () => {
    const out = new Downsampler().process(sine(6000, 16_000, 0.5));
    expect(amplitudeAt(out, 2000, 8000)).toBeLessThan(10);
    expect(rms(out)).toBeLessThan(10);
  });

  it.each([320, 317, 1, 641])('gives the same samples whatever the frame size (%i samples a frame)', (frame) => {
    const input = sine(1234, 16_000, 0.2);
    const whole = new Downsampler().process(input);
    const down = new Downsampler();
    expect(inFrames((part) => down.process(part), input, frame)).toEqual(whole);
  });

  it('clips to 16 bits instead of wrapping', () => {
    const out = new Downsampler().process(new Int16Array(640).fill(32767));
    expect(Math.min(...out.subarray(20))).toBeGreaterThan(32000);
  });
});

describe('Upsampler (8 kHz → 16 kHz)', () => {
  it.each([300, 1000, 3000])('keeps a %i Hz tone at its frequency, twice the samples', (hz) => {
    const up = new Upsampler();
    const out = inFrames((frame) => up.process(frame), sine(hz, 8000, 0.5), 160);
    expect(out.length).toBe(8000);
    // Linear interpolation droops toward 4 kHz (sinc²: 0.95 at 1 kHz of 8, 0.65 at 3 kHz); never gains.
    const floor = { 300: 0.99, 1000: 0.94, 3000: 0.6 }[hz]!;
    expect(amplitudeAt(out, hz, 16_000)).toBeGreaterThan(10_000 * floor);
    expect(amplitudeAt(out, hz, 16_000)).toBeLessThan(10_050);
  });

  it('carries the last sample across frames (no click at a frame edge)', () => {
    const up = new Upsampler();
    up.process(Int16Array.of(1000));
    expect([...up.process(Int16Array.of(3000))]).toEqual([2000, 3000]);
  });
});
