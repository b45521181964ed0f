import { describe, expect, it } from 'vitest';
import { parseMediaTasks } from '../../../scripts/local/stack';

describe('MEDIA_TASKS', () => {
  it.each([
    [undefined, 1],
    ['', 1],
    ['1', 1],
    ['2', 2],
    [' 3 ', 3],
    ['16', 16],
  ])('%j starts %i call-engine process(es)', (value, expected) => {
    expect(parseMediaTasks(value)).toBe(expected);
  });

  it.each(['0', '17', '-1', '2.5', 'two', '1e1', '0x2', '100', '02x'])('%j is refused with a clear message', (value) => {
    expect(() => parseMediaTasks(value)).toThrow(/^MEDIA_TASKS must be a whole number from 1 to 16 \(call-engine processes\); got "/);
  });
});
