import { describe, expect, it } from 'vitest';
import { TimelineWindow } from '../../../../media-service/src/recording/timeline-window';

const S = 0xff; // μ-law silence

/** A window of `windowBytes` whose finished audio is collected as [caller, assistant] byte pairs. */
function rig(windowBytes: number, maxBytes = 1_000_000) {
  const finished: [number, number][] = [];
  const appends: number[] = [];
  const sink = {
    append: (stereo: Uint8Array) => {
      appends.push(stereo.length / 2);
      for (let i = 0; i < stereo.length; i += 2) finished.push([stereo[i]!, stereo[i + 1]!]);
    },
    appendSilence: (frames: number) => {
      appends.push(-frames);
      for (let i = 0; i < frames; i++) finished.push([S, S]);
    },
  };
  return { window: new TimelineWindow({ windowBytes, maxBytes, sink }), finished, appends };
}

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('TimelineWindow', () => {
  it('places out-of-order writes inside the window at their time', () => {
    // Arrange
    const { window, finished } = rig(4);
    // Act: the assistant side runs ahead, the caller side arrives later for earlier times
    window.write('assistant', bytes(21, 22), 2);
    window.write('caller', bytes(11, 12), 0);
    window.write('caller', bytes(13), 3);
    window.end();
    // Assert
    expect(finished).toEqual([
      [11, S],
      [12, S],
      [S, 21],
      [13, 22],
    ]);
  });

  it('finishes audio that falls a window behind the latest write, in timeline order', () => {
    // Arrange
    const { window, finished } = rig(2);
    window.write('caller', bytes(1, 2, 3, 4), 0);
    // Act: the end reaches 6, so everything before 6 - 2 = 4 is finished
    window.write('assistant', bytes(9), 5);
    // Assert
    expect(finished).toEqual([
      [1, S],
      [2, S],
      [3, S],
      [4, S],
    ]);
    expect(window.retainedBytes).toBe(2 * 2 * 2);
  });

  it('drops and counts writes older than the window, keeping the part still inside it', () => {
    // Arrange
    const { window, finished } = rig(2);
    window.write('caller', bytes(1, 2, 3, 4, 5), 0); // 5 > 2 windows: slides to 5 - 2 = 3
    expect(finished).toEqual([
      [1, S],
      [2, S],
      [3, S],
    ]);
    // Act
    window.write('assistant', bytes(7, 8, 9), 2); // byte 2 is finished; 3 and 4 are not
    window.end();
    // Assert
    expect(window.lateBytes).toBe(1);
    expect(finished).toEqual([
      [1, S],
      [2, S],
      [3, S],
      [4, 8],
      [5, 9],
    ]);
  });

  it('lets a later write overwrite the part it overlaps', () => {
    // Arrange
    const { window, finished } = rig(8);
    window.write('assistant', bytes(1, 1, 1), 0);
    // Act
    window.write('assistant', bytes(2), 1);
    window.end();
    // Assert
    expect(finished.map(([, right]) => right)).toEqual([1, 2, 1]);
  });

  it('takes a write longer than the window whole', () => {
    // Arrange
    const { window, finished } = rig(2);
    // Act
    window.write('caller', bytes(1, 2, 3, 4, 5, 6, 7), 0);
    window.end();
    // Assert
    expect(window.lateBytes).toBe(0);
    expect(finished.map(([left]) => left)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('sends a jump in the timeline to the sink as silence, without buffering it', () => {
    // Arrange
    const { window, finished, appends } = rig(2);
    window.write('caller', bytes(1), 0);
    // Act
    window.write('caller', bytes(2), 1000);
    window.end();
    // Assert
    expect(appends).toEqual([4, -995, 2]);
    expect(finished).toHaveLength(1001);
    expect(finished[0]).toEqual([1, S]);
    expect(finished[1000]).toEqual([2, S]);
    expect(window.length).toBe(1001);
  });

  it('keeps nothing before 0 or from maxBytes on, and ignores writes after end()', () => {
    // Arrange
    const { window, finished } = rig(4, 3);
    // Act
    window.write('caller', bytes(1, 2), -1);
    window.write('assistant', bytes(5, 6, 7), 1);
    window.end();
    window.write('caller', bytes(9), 0);
    // Assert
    expect(finished).toEqual([
      [2, S],
      [S, 5],
      [S, 6],
    ]);
    expect(window.retainedBytes).toBe(0);
  });
});
