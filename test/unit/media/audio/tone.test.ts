import { describe, expect, it } from 'vitest';
import { FRAME_BYTES, mulawRms } from '../../../../media-service/src/audio/mulaw';
import {
  beep,
  MIN_UTTERANCE_MS,
  rememberSynthesis,
  speechDurationMs,
  speechLike,
  textSeed,
} from '../../../../media-service/src/audio/tone';

describe('speech-like audio', () => {
  it.each([0, 1, 12345, 0xffffffff])('keeps every 20 ms frame far above the 500 RMS speech threshold (seed %s)', (seed) => {
    // Act
    const audio = speechLike(3000, seed);
    // Assert
    expect(audio.length).toBe(150 * FRAME_BYTES);
    for (let i = 0; i < audio.length; i += FRAME_BYTES) expect(mulawRms(audio, i, i + FRAME_BYTES)).toBeGreaterThan(1500);
  });

  it('is deterministic per seed', () => {
    expect([...speechLike(200, 9)]).toEqual([...speechLike(200, 9)]);
    expect([...speechLike(200, 9)]).not.toEqual([...speechLike(200, 10)]);
  });

  it('takes ~60 ms per character, never less than the minimum', () => {
    expect(speechDurationMs('Hello, this is Sam speaking.')).toBe(28 * 60);
    expect(speechDurationMs('Hi')).toBe(MIN_UTTERANCE_MS);
    expect(textSeed('abc')).toBe(textSeed('abc'));
  });
});

describe('rememberSynthesis', () => {
  it('synthesises each length and seed once, and keeps only the most recently used', () => {
    // Arrange
    const made: string[] = [];
    const synthesise = rememberSynthesis((durationMs, seed = 0) => {
      made.push(`${durationMs}:${seed}`);
      return new Uint8Array(FRAME_BYTES).fill(seed);
    }, 2);
    // Act
    const first = synthesise(20, 1);
    const again = synthesise(20, 1);
    synthesise(20, 2);
    synthesise(20, 1); // most recently used again
    synthesise(20, 3); // evicts 20:2, the least recently used
    synthesise(20, 2);
    // Assert
    expect(again).toBe(first);
    expect(made).toEqual(['20:1', '20:2', '20:3', '20:2']);
  });

  it('gives speechLike the same audio as a fresh synthesis', () => {
    expect([...speechLike(400, 77)]).toEqual([...speechLike(400, 77)]);
    expect(speechLike(400, 77)).toBe(speechLike(400, 77));
  });
});

describe('beep', () => {
  it('is a loud steady tone of whole frames', () => {
    const tone = beep({ durationMs: 250 });
    expect(tone.length).toBe(13 * FRAME_BYTES);
    expect(mulawRms(tone)).toBeGreaterThan(5000);
  });
});
