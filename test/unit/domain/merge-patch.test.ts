import { describe, expect, it } from 'vitest';
import { ifMatchAllows, parseIfMatch, versionTag } from '../../../shared/domain/entity-tag';
import { applyMergePatch } from '../../../shared/domain/merge-patch';
import { ValidationError } from '../../../shared/errors';

describe('applyMergePatch', () => {
  // RFC 7396 Appendix A, every example.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('merges %j with %j into %j', (target, patch, result) => {
    // Act
    const merged = applyMergePatch(target, patch);
    // Assert
    expect(merged).toEqual(result);
  });

  it('keeps a "__proto__" member as data, never as the prototype', () => {
    // Act
    const merged = applyMergePatch({ a: 1 }, JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    // Assert
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.hasOwn(merged, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('If-Match', () => {
  it.each([
    [undefined, 3, true],
    ['*', 3, true],
    ['"3"', 3, true],
    ['"2", "3"', 3, true],
    ['"2"', 3, false],
    ['W/"3"', 3, false],
  ])('%s allows a write to version %i: %s', (header, version, allowed) => {
    // Act
    const result = ifMatchAllows(parseIfMatch(header), version);
    // Assert
    expect(result).toBe(allowed);
  });

  it.each([[''], ['3'], ['"3'], ['"3", 4'], ['* , "3"']])('refuses the malformed %j with a 422 at the header', (header) => {
    // Act
    const parse = () => parseIfMatch(header);
    // Assert
    expect(parse).toThrow(ValidationError);
  });

  it('makes a strong, quoted tag of a version', () => {
    // Assert
    expect(versionTag(7)).toBe('"7"');
  });
});
