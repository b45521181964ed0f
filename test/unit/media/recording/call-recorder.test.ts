import { describe, expect, it } from 'vitest';
import { decodeSample, encodeSample } from '../../../../media-service/src/audio/mulaw';
import { CallRecorder } from '../../../../media-service/src/recording/call-recorder';
import { WAV_HEADER_BYTES } from '../../../../media-service/src/recording/wav';

/** `ms` of one constant μ-law byte. */
const tone = (byte: number, ms: number) => new Uint8Array(ms * 8).fill(byte);
const A = encodeSample(1000);
const B = encodeSample(-2000);
const C = encodeSample(3000);

/** The WAV's samples as [left, right] pairs. */
function frames(wav: Uint8Array): [number, number][] {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  const out: [number, number][] = [];
  for (let at = WAV_HEADER_BYTES; at < wav.length; at += 4) out.push([view.getInt16(at, true), view.getInt16(at + 2, true)]);
  return out;
}

describe('CallRecorder.toWav', () => {
  it('writes the canonical 44-byte header for 16-bit PCM, 8000 Hz, 2 channels', () => {
    // Arrange
    const recorder = new CallRecorder();
    recorder.caller(tone(A, 10), 0);
    // Act
    const wav = recorder.toWav();
    // Assert
    const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
    const ascii = (at: number) => String.fromCharCode(...wav.subarray(at, at + 4));
    expect(wav.length).toBe(44 + 80 * 4);
    expect([ascii(0), ascii(8), ascii(12), ascii(36)]).toEqual(['RIFF', 'WAVE', 'fmt ', 'data']);
    expect(view.getUint32(4, true)).toBe(36 + 320);
    expect(view.getUint32(16, true)).toBe(16);
    expect(view.getUint16(20, true)).toBe(1);
    expect(view.getUint16(22, true)).toBe(2);
    expect(view.getUint32(24, true)).toBe(8000);
    expect(view.getUint32(28, true)).toBe(32_000);
    expect(view.getUint16(32, true)).toBe(4);
    expect(view.getUint16(34, true)).toBe(16);
    expect(view.getUint32(40, true)).toBe(320);
  });

  it('is a header alone for an empty recording', () => {
    // Arrange
    const recorder = new CallRecorder();
    // Act
    const wav = recorder.toWav();
    // Assert
    expect(wav.length).toBe(44);
    expect(recorder.durationMs).toBe(0);
  });

  it('puts the caller on the left and the assistant on the right, sample by sample', () => {
    // Arrange
    const recorder = new CallRecorder();
    // Act
    recorder.caller(Uint8Array.of(A, B), 0);
    recorder.assistant(Uint8Array.of(C, A), 0);
    // Assert
    expect(frames(recorder.toWav())).toEqual([
      [decodeSample(A), decodeSample(C)],
      [decodeSample(B), decodeSample(A)],
    ]);
  });
});

describe('CallRecorder timeline', () => {
  it('fills gaps with silence and pads the shorter channel', () => {
    // Arrange
    const recorder = new CallRecorder();
    // Act
    recorder.caller(tone(A, 1), 0);
    recorder.caller(tone(B, 1), 3);
    recorder.assistant(tone(C, 1), 1);
    // Assert
    const left = frames(recorder.toWav()).map(([l]) => l);
    const right = frames(recorder.toWav()).map(([, r]) => r);
    expect(recorder.durationMs).toBe(4);
    expect(left).toEqual([...Array(8).fill(decodeSample(A)), ...Array(16).fill(0), ...Array(8).fill(decodeSample(B))]);
    expect(right).toEqual([...Array(8).fill(0), ...Array(8).fill(decodeSample(C)), ...Array(16).fill(0)]);
  });

  it('lets a later write overwrite the part it overlaps and keeps the rest', () => {
    // Arrange
    const recorder = new CallRecorder();
    recorder.assistant(tone(A, 3), 0);
    // Act
    recorder.assistant(tone(B, 1), 1);
    // Assert
    const right = frames(recorder.toWav()).map(([, r]) => r);
    expect(right).toEqual([...Array(8).fill(decodeSample(A)), ...Array(8).fill(decodeSample(B)), ...Array(8).fill(decodeSample(A))]);
    expect(recorder.durationMs).toBe(3);
  });

  it('drops audio past maxMs, keeping the part before it', () => {
    // Arrange
    const recorder = new CallRecorder({ maxMs: 20 });
    // Act
    recorder.caller(tone(A, 10), 15);
    recorder.assistant(tone(B, 5), 40);
    // Assert
    const wav = recorder.toWav();
    expect(recorder.durationMs).toBe(20);
    expect(frames(wav)).toHaveLength(160);
    expect(
      frames(wav)
        .slice(120)
        .every(([l, r]) => l === decodeSample(A) && r === 0),
    ).toBe(true);
  });

  it('drops the part of a write that starts before the stream (negative time)', () => {
    // Arrange
    const recorder = new CallRecorder();
    // Act
    recorder.caller(Uint8Array.of(A, B, C), -0.25);
    // Assert
    expect(frames(recorder.toWav()).map(([l]) => l)).toEqual([decodeSample(C)]);
  });

  it('grows past its first allocation without losing earlier audio', () => {
    // Arrange
    const recorder = new CallRecorder();
    recorder.caller(tone(A, 20), 0);
    // Act
    recorder.caller(tone(B, 20), 150_000);
    // Assert
    const left = frames(recorder.toWav()).map(([l]) => l);
    expect(recorder.durationMs).toBe(150_020);
    expect(left[0]).toBe(decodeSample(A));
    expect(left[159]).toBe(decodeSample(A));
    expect(left[160]).toBe(0);
    expect(left[150_000 * 8]).toBe(decodeSample(B));
  });
});
