import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../../functions/api/middleware/bounded-map';

describe('BoundedMap', () => {
  it('never holds more than its capacity: the oldest entry goes first', () => {
    // Arrange
    const map = new BoundedMap<string, number>(3);
    // Act
    for (const [i, key] of ['a', 'b', 'c', 'd', 'e'].entries()) map.set(key, i);
    // Assert
    expect(map.size).toBe(3);
    expect([map.get('a'), map.get('b'), map.get('c'), map.get('d'), map.get('e')]).toEqual([undefined, undefined, 2, 3, 4]);
  });

  it('keeps a key set again as the newest', () => {
    // Arrange
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    // Act
    map.set('a', 3);
    map.set('c', 4);
    // Assert
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([3, undefined, 4]);
  });
});
