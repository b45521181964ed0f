import { describe, expect, it } from 'vitest';
import { CallerAudio } from '../../../../media-service/src/call/caller-audio';

describe('CallerAudio', () => {
  it('keeps early frames (at most 10 s), replays them in order on attach, then forwards each frame', () => {
    // Arrange
    const audio = new CallerAudio();
    const heard: number[] = [];
    const frame = (n: number) => new Uint8Array([n % 256]);
    for (let n = 0; n < 600; n++) audio.push(frame(n));
    // Act
    audio.attach((f) => heard.push(f[0]!));
    audio.push(frame(42));
    // Assert
    expect(heard).toHaveLength(501);
    expect(heard.slice(0, 3)).toEqual([0, 1, 2]);
    expect(heard[499]).toBe(499 % 256);
    expect(heard[500]).toBe(42);
  });
});
