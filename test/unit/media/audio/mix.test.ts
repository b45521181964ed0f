import { describe, expect, it } from 'vitest';
import { applyGain, mixInto, OfficeAmbience } from '../../../../media-service/src/audio/mix';
import { decodeSample, encodeSample, FRAME_BYTES, mulawRms } from '../../../../media-service/src/audio/mulaw';

const loud = (sample: number, n = FRAME_BYTES) => new Uint8Array(n).fill(encodeSample(sample));

describe('applyGain', () => {
  it.each([
    [0.5, 8000, 4000],
    [1, 8000, 8000],
    [1.5, 8000, 12000],
  ])('scales by %s', (gain, input, expected) => {
    // Act
    const out = applyGain(loud(input, 4), gain);
    // Assert: within one μ-law step of the exact product
    expect(Math.abs(decodeSample(out[0]!) - expected)).toBeLessThanOrEqual(expected / 16 + 8);
  });

  it('clips at full scale instead of wrapping', () => {
    const out = applyGain(loud(30000, 2), 1.5);
    expect(decodeSample(out[0]!)).toBe(32124);
    expect(decodeSample(applyGain(loud(-30000, 2), 1.5)[0]!)).toBe(-32124);
  });

  it('keeps silence silent and can work in place', () => {
    const frame = new Uint8Array(4).fill(0xff);
    expect(applyGain(frame, 1.5, frame)).toBe(frame);
    expect([...frame]).toEqual([0xff, 0xff, 0xff, 0xff]);
  });

  it('refuses a negative or non-finite gain', () => {
    expect(() => applyGain(new Uint8Array(1), -1)).toThrow(RangeError);
    expect(() => applyGain(new Uint8Array(1), Number.NaN)).toThrow(RangeError);
  });
});

describe('mixInto', () => {
  it('sums samples in place', () => {
    // Arrange
    const voice = loud(4000, 3);
    // Act
    const out = mixInto(voice, loud(1000, 3));
    // Assert
    expect(out).toBe(voice);
    expect(Math.abs(decodeSample(voice[0]!) - 5000)).toBeLessThanOrEqual(5000 / 16 + 8);
  });

  it('clips the sum at full scale, both signs', () => {
    expect(decodeSample(mixInto(loud(30000, 1), loud(30000, 1))[0]!)).toBe(32124);
    expect(decodeSample(mixInto(loud(-30000, 1), loud(-30000, 1))[0]!)).toBe(-32124);
  });

  it('mixes only the common length and leaves silence + silence silent', () => {
    const voice = new Uint8Array(4).fill(0xff);
    mixInto(voice, loud(2000, 2));
    expect(decodeSample(voice[0]!)).not.toBe(0);
    expect(voice[3]).toBe(0xff);
  });
});

describe('OfficeAmbience', () => {
  it('is deterministic per seed and differs across seeds', () => {
    const a = new OfficeAmbience({ seed: 7 }).nextFrame();
    const b = new OfficeAmbience({ seed: 7 }).nextFrame();
    const c = new OfficeAmbience({ seed: 8 }).nextFrame();
    expect([...a]).toEqual([...b]);
    expect([...a]).not.toEqual([...c]);
  });

  it('stays audible but far below speech level for a minute of frames', () => {
    // Arrange
    const ambience = new OfficeAmbience({ seed: 3 });
    const frame = new Uint8Array(FRAME_BYTES);
    let max = 0;
    let sum = 0;
    // Act
    for (let i = 0; i < 3000; i++) {
      const rms = mulawRms(ambience.nextFrame(frame));
      max = Math.max(max, rms);
      sum += rms;
    }
    // Assert: speech detectors trigger at 500
    expect(max).toBeLessThan(350);
    expect(sum / 3000).toBeGreaterThan(60);
  });

  it('scales with level and is silent at 0', () => {
    expect(mulawRms(new OfficeAmbience({ level: 0 }).nextFrame())).toBe(0);
  });
});
