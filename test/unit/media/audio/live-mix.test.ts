import { describe, expect, it } from 'vitest';
import { LiveMix } from '../../../../media-service/src/audio/live-mix';
import { decodeMulaw, encodeMulaw, MULAW_SILENCE } from '../../../../media-service/src/audio/mulaw';

const tone = (sample: number, bytes: number) => encodeMulaw(new Int16Array(bytes).fill(sample));
const silence = (bytes: number) => new Uint8Array(bytes).fill(MULAW_SILENCE);
const samples = (mulaw: Uint8Array) => [...decodeMulaw(mulaw)];

describe('LiveMix', () => {
  it('passes caller audio through untouched while the assistant is silent', () => {
    // Arrange
    const mix = new LiveMix();
    const caller = tone(1000, 160);
    // Act
    const out = mix.caller(caller);
    // Assert
    expect(out).toEqual(caller);
    expect(out).not.toBe(caller);
  });

  it('mixes queued assistant audio into the caller frame, a caller frame at a time', () => {
    // Arrange
    const mix = new LiveMix();
    mix.assistant(tone(2000, 100));
    mix.assistant(tone(2000, 100));
    // Act
    const first = mix.caller(silence(160));
    const second = mix.caller(silence(160));
    // Assert: 160 of the 200 queued bytes in the first frame, the other 40 in the second
    expect(samples(first).every((s) => Math.abs(s - 2000) < 100)).toBe(true);
    expect(samples(second.subarray(0, 40)).every((s) => Math.abs(s - 2000) < 100)).toBe(true);
    expect(samples(second.subarray(40)).every((s) => s === 0)).toBe(true);
    expect(mix.queuedBytes).toBe(0);
  });

  it('sums both sides', () => {
    const mix = new LiveMix();
    mix.assistant(tone(2000, 160));
    const out = samples(mix.caller(tone(1000, 160)));
    expect(out.every((s) => Math.abs(s - 3000) < 150)).toBe(true);
  });

  it('copies assistant frames (the pacer reuses its buffers)', () => {
    const mix = new LiveMix();
    const frame = tone(2000, 160);
    mix.assistant(frame);
    frame.fill(MULAW_SILENCE);
    expect(samples(mix.caller(silence(160))).every((s) => Math.abs(s - 2000) < 100)).toBe(true);
  });

  it('drops the oldest assistant audio past its bound, and everything on clear', () => {
    // Arrange
    const mix = new LiveMix(320);
    mix.assistant(tone(1000, 160));
    mix.assistant(tone(2000, 160));
    mix.assistant(tone(3000, 160));
    // Act + Assert: the 1000 frame was dropped
    expect(mix.queuedBytes).toBe(320);
    expect(Math.abs(samples(mix.caller(silence(160)))[0]! - 2000)).toBeLessThan(100);
    mix.clear();
    expect(mix.queuedBytes).toBe(0);
    expect(samples(mix.caller(silence(160))).every((s) => s === 0)).toBe(true);
  });
});
