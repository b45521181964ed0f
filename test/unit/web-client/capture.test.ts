import { describe, expect, it } from 'vitest';
import { Capture, FRAME_SAMPLES } from '../../../web-client/src/capture';
import { decodePcm16 } from '../../../web-client/src/pcm';
import { amplitude, sine } from './signals';

/** Feeds `input` as the audio thread does, 128 frames at a time. */
function feed(capture: Capture, input: Float32Array) {
  const frames = [];
  for (let at = 0; at < input.length; at += 128) frames.push(...capture.process(input.subarray(at, at + 128)));
  return frames;
}

describe('Capture', () => {
  it.each([48000, 44100])('turns a second at %i Hz into fifty 640-byte frames at 16 kHz', (rate) => {
    // Arrange
    const capture = new Capture(rate);

    // Act
    const frames = feed(capture, sine(rate, 500, rate));

    // Assert: 50 frames (the filter's 1 ms delay may leave the last one unfinished), a 500 Hz tone: 10 cycles in 320 samples.
    expect(frames.length).toBeGreaterThanOrEqual(49);
    expect(frames.length).toBeLessThanOrEqual(50);
    expect(new Set(frames.map(({ frame }) => frame.byteLength))).toEqual(new Set([FRAME_SAMPLES * 2]));
    const steady = decodePcm16(frames[10]!.frame)!;
    let crossings = 0;
    for (let i = 1; i < steady.length; i++) if (steady[i - 1]! < 0 && steady[i]! >= 0) crossings++;
    expect(crossings).toBe(10);
    expect(amplitude(steady)).toBeCloseTo(0.5, 2);
    expect(frames[10]!.level).toBeCloseTo(0.5 / Math.SQRT2, 2);
  });

  it('sends silence, at level 0, while muted', () => {
    const capture = new Capture(48000);
    capture.muted = true;
    const frames = feed(capture, sine(48000, 500, 4800));
    expect(frames.length).toBe(5);
    for (const { frame, level } of frames) {
      expect(level).toBe(0);
      expect(new Int16Array(frame).every((s) => s === 0)).toBe(true);
    }
  });
});
