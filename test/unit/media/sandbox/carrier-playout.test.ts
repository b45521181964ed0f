import { describe, expect, it } from 'vitest';
import { decodeSample, encodeSample, FRAME_BYTES } from '../../../../media-service/src/audio/mulaw';
import { PlayoutBuffer } from '../../../../media-service/src/sandbox/carrier-playout';

const audio = (bytes: number, sample = 4000) => new Uint8Array(bytes).fill(encodeSample(sample));

describe('PlayoutBuffer', () => {
  it('echoes a mark only once every byte queued before it has played', () => {
    // Arrange
    const buffer = new PlayoutBuffer();
    buffer.append(audio(FRAME_BYTES * 2));
    // Act
    const onMark = buffer.mark('reply-1');
    const first = buffer.play();
    const second = buffer.play();
    // Assert
    expect(onMark).toEqual([]);
    expect(first.echoed).toEqual([]);
    expect(second.echoed).toEqual(['reply-1']);
    expect(buffer.bufferedBytes).toBe(0);
    expect(buffer.playedBytes).toBe(FRAME_BYTES * 2);
  });

  it('echoes a mark at once when nothing is buffered', () => {
    // Arrange
    const buffer = new PlayoutBuffer();
    // Act
    const echoed = buffer.mark('idle');
    // Assert
    expect(echoed).toEqual(['idle']);
  });

  it('plays across chunk boundaries and echoes marks in order, each at its own position', () => {
    // Arrange
    const buffer = new PlayoutBuffer();
    buffer.append(audio(100));
    buffer.mark('a');
    buffer.append(audio(100));
    buffer.mark('b');
    buffer.mark('c');
    // Act
    const played = [buffer.play(), buffer.play()];
    // Assert
    expect(played.map((frame) => frame.echoed)).toEqual([['a'], ['b', 'c']]);
    expect(buffer.playedBytes).toBe(200);
  });

  it('reports the level of what played, and null when the line was silent', () => {
    // Arrange
    const buffer = new PlayoutBuffer();
    buffer.append(audio(FRAME_BYTES, 4000));
    // Act
    const loud = buffer.play();
    const silent = buffer.play();
    // Assert
    expect(loud.rms).toBe(decodeSample(encodeSample(4000))); // a constant signal: RMS is its (quantised) level
    expect(silent).toEqual({ rms: null, echoed: [] });
  });

  it('clear drops the buffer and echoes every pending mark at once', () => {
    // Arrange
    const buffer = new PlayoutBuffer();
    buffer.append(audio(FRAME_BYTES * 5));
    buffer.mark('m1');
    buffer.append(audio(FRAME_BYTES));
    buffer.mark('m2');
    buffer.play();
    // Act
    const cleared = buffer.clear();
    // Assert
    expect(cleared).toEqual({ droppedBytes: FRAME_BYTES * 5, echoed: ['m1', 'm2'] });
    expect(buffer.bufferedBytes).toBe(0);
    expect(buffer.play()).toEqual({ rms: null, echoed: [] });
    expect(buffer.mark('after')).toEqual(['after']);
  });
});
