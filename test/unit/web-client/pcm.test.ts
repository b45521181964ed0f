import { describe, expect, it } from 'vitest';
import { decodePcm16, encodePcm16, rms } from '../../../web-client/src/pcm';

describe('PCM16LE', () => {
  it('reads little-endian samples, whatever the machine', () => {
    const bytes = new Uint8Array([0x00, 0x40, 0x00, 0xc0, 0xff, 0x7f, 0x00, 0x80]).buffer;
    expect(Array.from(decodePcm16(bytes)!)).toEqual([0.5, -0.5, 32767 / 32768, -1]);
  });

  it('drops a frame that is not whole samples', () => {
    expect(decodePcm16(new ArrayBuffer(641))).toBeUndefined();
  });

  it('writes little-endian samples, clipped to 16 bits', () => {
    const bytes = new Uint8Array(encodePcm16(new Float32Array([0.5, -0.5, 2, -2, 0])));
    expect(Array.from(bytes)).toEqual([0x00, 0x40, 0x00, 0xc0, 0xff, 0x7f, 0x00, 0x80, 0x00, 0x00]);
  });

  it('measures the level as RMS', () => {
    const sine = Float32Array.from({ length: 1600 }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / 16000));
    expect(rms(sine)).toBeCloseTo(0.5 / Math.SQRT2, 3);
    expect(rms(new Float32Array(0))).toBe(0);
  });
});
