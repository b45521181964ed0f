import { describe, expect, it } from 'vitest';
import { responseBytes, takeWithinBytes } from '../../../shared/domain/paging';

describe('responseBytes', () => {
  it.each([
    ['plain ASCII: four backslashes, two quotes', { a: 'b' }, '{"a":"b"}'.length + 4 + 2 - 1],
    ['quotes, escaped in the body and again in the envelope', { q: '"' }, JSON.stringify(JSON.stringify({ q: '"' })).length - 1],
    ['multi-byte UTF-8', { e: 'é€😀' }, Buffer.byteLength(JSON.stringify(JSON.stringify({ e: 'é€😀' }))) - 1],
  ])('counts %s as Lambda carries it, comma included', (_case, item, expected) => {
    expect(responseBytes(item)).toBe(expected);
  });

  it('counts a prompt of quotes four times over', () => {
    expect(responseBytes('"'.repeat(1000))).toBe(4000 + 4 + 1);
  });
});

describe('takeWithinBytes', () => {
  const item = (chars: number) => 'x'.repeat(chars);
  const size = responseBytes(item(10));

  it.each([
    ['everything when it fits', 3 * size, 3],
    ['up to the item that would pass the budget', 3 * size - 1, 2],
    ['exactly the budget', 2 * size, 2],
    ['at least one item, even over the budget', 1, 1],
  ])('takes %s', (_case, budget, count) => {
    expect(takeWithinBytes([item(10), item(10), item(10)], budget)).toHaveLength(count);
  });

  it('takes nothing from nothing', () => {
    expect(takeWithinBytes([], 100)).toEqual([]);
  });
});
