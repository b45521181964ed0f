import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeMulaw,
  decodeSample,
  encodeMulaw,
  encodeSample,
  FRAME_BYTES,
  mulawRms,
  mulawSilence,
  MULAW_SILENCE,
  padToFrame,
} from '../../../../media-service/src/audio/mulaw';

describe('G.711 μ-law', () => {
  it.each([
    ['silence', 0, 0xff],
    ['full scale positive', 32767, 0x80],
    ['full scale negative', -32768, 0x00],
    ['small positive (first segment)', 100, 0xf2],
    ['small negative', -100, 0x72],
    ['beyond the 16-bit range clips', 99_999, 0x80],
  ])('encodes %s', (_case, sample, byte) => {
    expect(encodeSample(sample)).toBe(byte);
  });

  // Worked by hand with g711.c ulaw2linear: u = ~byte; t = ((u & 0x0F) << 3 + 0x84) << segment; ±(t − 0x84).
  it.each([
    ['0xFF', 0xff, 0],
    ['0x7F', 0x7f, 0],
    ['0x80', 0x80, 32124],
    ['0x00', 0x00, -32124],
    ['0xF2', 0xf2, 104],
    ['0xE7', 0xe7, 260],
  ])('decodes %s per the G.711 table', (_hex, byte, sample) => {
    expect(decodeSample(byte)).toBe(sample);
  });

  it('round-trips every code except negative zero (0x7F → 0 → 0xFF)', () => {
    for (let byte = 0; byte < 256; byte++) {
      if (byte === 0x7f) continue;
      expect(encodeSample(decodeSample(byte))).toBe(byte);
    }
  });

  it('keeps the quantisation error within half a step of the segment (≤ ~3.2 % + bias)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -32635, max: 32635 }), (sample) => {
        const error = Math.abs(decodeSample(encodeSample(sample)) - sample);
        expect(error).toBeLessThanOrEqual(Math.abs(sample) / 16 + 8);
      }),
    );
  });

  it('converts buffers both ways and reuses output buffers', () => {
    // Arrange
    const pcm = Int16Array.from([0, 100, -100, 32767, -32768]);
    const out = new Uint8Array(5);
    // Act
    const mulaw = encodeMulaw(pcm, out);
    const back = decodeMulaw(mulaw);
    // Assert
    expect(mulaw).toBe(out);
    expect([...mulaw]).toEqual([0xff, 0xf2, 0x72, 0x80, 0x00]);
    expect([...back]).toEqual([0, 104, -104, 32124, -32124]);
  });

  it('measures silence as 0 and a full-scale square wave near 32124', () => {
    expect(mulawRms(mulawSilence(20))).toBe(0);
    expect(mulawRms(Uint8Array.from([0x80, 0x00, 0x80, 0x00]))).toBe(32124);
  });

  it('pads to whole 20 ms frames with 0xFF and leaves aligned audio alone', () => {
    const aligned = new Uint8Array(FRAME_BYTES);
    expect(padToFrame(aligned)).toBe(aligned);
    const padded = padToFrame(new Uint8Array(161));
    expect(padded.length).toBe(2 * FRAME_BYTES);
    expect(padded[161]).toBe(MULAW_SILENCE);
    expect(mulawSilence(30).length).toBe(2 * FRAME_BYTES);
  });
});
