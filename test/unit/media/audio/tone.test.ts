import { describe, expect, it } from 'vitest';
import { FRAME_BYTES, mulawRms } from '../../../../media-service/src/audio/mulaw';
import { beep, MIN_UTTERANCE_MS, speechDurationMs, speechLike, textSeed } from '../../../../media-service/src/audio/tone';

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

describe('beep', () => {
  it('is a loud steady tone of whole frames', () => {
    const tone = beep({ durationMs: 250 });
    expect(tone.length).toBe(13 * FRAME_BYTES);
    expect(mulawRms(tone)).toBeGreaterThan(5000);
  });
});
