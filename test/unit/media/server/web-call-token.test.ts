import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashWebCallToken, mintWebCallToken, parseWebCallToken } from '../../../../shared/domain/web-call-token';

describe('web call tokens', () => {
  it('mints wc_<call>.<business>.<43 base64url chars> that parses back to its ids', () => {
    // Arrange
    const random = randomBytes(32);
    // Act
    const token = mintWebCallToken(123, 45, random);
    // Assert
    expect(token).toBe(`wc_123.45.${random.toString('base64url')}`);
    expect(parseWebCallToken(token)).toEqual({ callId: 123, businessId: 45 });
  });

  it('hashes exactly as node:crypto SHA-256 does, for every padding length', () => {
    for (let length = 0; length < 140; length++) {
      const text = 'x'.repeat(length);
      expect(hashWebCallToken(text)).toBe(createHash('sha256').update(text).digest('hex'));
    }
    const token = mintWebCallToken(Number.MAX_SAFE_INTEGER, 1, randomBytes(32));
    expect(hashWebCallToken(token)).toBe(createHash('sha256').update(token).digest('hex'));
  });

  it('refuses 31 or 33 random bytes', () => {
    expect(() => mintWebCallToken(1, 1, new Uint8Array(31))).toThrow(RangeError);
    expect(() => mintWebCallToken(1, 1, new Uint8Array(33))).toThrow(RangeError);
  });

  it.each([
    ['', 'empty'],
    ['wc_1.2.short', 'a short secret'],
    [`wl_1.2.${'a'.repeat(43)}`, 'a listen token'],
    [`wc_1.2.${'a'.repeat(44)}`, 'a long secret'],
    [`wc_12345678901234567.2.${'a'.repeat(43)}`, 'a 17-digit call id'],
    [`wc_1.2.${'a'.repeat(42)}=`, 'padding'],
    [` wc_1.2.${'a'.repeat(43)}`, 'a leading space'],
    [`wc_1.2.${'a'.repeat(43)}\n`, 'a trailing newline'],
    [`wc_-1.2.${'a'.repeat(43)}`, 'a negative id'],
    [`wc_99999999999999999.2.${'a'.repeat(43)}`, 'an id past 16 digits'],
  ])('does not parse %j (%s)', (token) => {
    expect(parseWebCallToken(token)).toBeUndefined();
  });

  it('does not parse ids past the safe integer range', () => {
    expect(parseWebCallToken(`wc_9999999999999999.2.${'a'.repeat(43)}`)).toBeUndefined();
  });
});
