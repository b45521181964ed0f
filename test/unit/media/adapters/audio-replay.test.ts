import { describe, expect, it } from 'vitest';
import { AudioReplay } from '../../../../media-service/src/adapters/audio-replay';

/** Bytes whose values are their stream positions (mod 256), so any slip shows. */
const run = (from: number, length: number) => Uint8Array.from({ length }, (_, i) => (from + i) % 256);

describe('AudioReplay', () => {
  it('gives back everything from a position, in order', () => {
    // Arrange
    const replay = new AudioReplay(1000);
    for (let at = 0; at < 800; at += 160) replay.push(run(at, 160));
    // Act
    const { at, bytes } = replay.from(300);
    // Assert
    expect(at).toBe(300);
    expect(bytes).toEqual(run(300, 500));
    expect(replay.position).toBe(800);
  });

  it('keeps only the newest bytes past its capacity, across the wrap', () => {
    // Arrange
    const replay = new AudioReplay(1000);
    for (let at = 0; at < 2560; at += 160) replay.push(run(at, 160));
    // Act
    const { at, bytes } = replay.from(0);
    // Assert: the oldest kept byte is 1000 before the end
    expect(at).toBe(1560);
    expect(bytes).toEqual(run(1560, 1000));
  });

  it('forgets what came before a finished turn', () => {
    // Arrange
    const replay = new AudioReplay(1000);
    for (let at = 0; at < 640; at += 160) replay.push(run(at, 160));
    // Act
    replay.dropBefore(500);
    // Assert
    expect(replay.from(0)).toEqual({ at: 500, bytes: run(500, 140) });
    expect(replay.from(700)).toEqual({ at: 640, bytes: new Uint8Array(0) });
  });

  it('copies what it is given (the caller may reuse its buffer)', () => {
    // Arrange
    const replay = new AudioReplay(1000);
    const frame = run(0, 160);
    replay.push(frame);
    // Act
    frame.fill(0);
    // Assert
    expect(replay.from(0).bytes).toEqual(run(0, 160));
  });

  it('takes a push larger than its capacity as its last bytes', () => {
    // Arrange
    const replay = new AudioReplay(100);
    replay.push(run(0, 50));
    // Act
    replay.push(run(50, 250));
    // Assert
    expect(replay.from(0)).toEqual({ at: 200, bytes: run(200, 100) });
  });
});
