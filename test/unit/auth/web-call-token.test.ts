import { describe, expect, it } from 'vitest';
import { hashWebCallToken, mintWebCallToken, parseWebCallToken } from '../../../shared/auth/web-call-token';

const bytes = (fill: (i: number) => number) => Uint8Array.from({ length: 32 }, (_, i) => fill(i));
const SECRET = 'A'.repeat(43);

describe('mintWebCallToken', () => {
  it('writes wc_<call>.<business>.<43 base64url characters of the 32 bytes>', () => {
    // Arrange
    const random = bytes((i) => i * 7 + 3);
    // Act
    const token = mintWebCallToken(123, 45, random);
    // Assert
    expect(token).toBe(`wc_123.45.${Buffer.from(random).toString('base64url')}`);
    expect(token.split('.')[2]).toHaveLength(43);
  });

  it.each([
    ['zeros', bytes(() => 0)],
    ['ones', bytes(() => 255)],
    ['a ramp', bytes((i) => i)],
  ])('matches Node base64url for %s', (_name, random) => {
    // Arrange / Act
    const token = mintWebCallToken(1, 2, random);
    // Assert
    expect(token.slice('wc_1.2.'.length)).toBe(Buffer.from(random).toString('base64url'));
  });

  it('refuses anything but 32 bytes', () => {
    // Arrange / Act / Assert
    expect(() => mintWebCallToken(1, 2, new Uint8Array(31))).toThrow(RangeError);
    expect(() => mintWebCallToken(1, 2, new Uint8Array(33))).toThrow(RangeError);
  });
});

describe('parseWebCallToken', () => {
  it('reads back the ids of a minted token', () => {
    // Arrange
    const token = mintWebCallToken(
      9_007_199_254,
      77,
      bytes((i) => i),
    );
    // Act / Assert
    expect(parseWebCallToken(token)).toEqual({ callId: 9_007_199_254, businessId: 77 });
  });

  it.each([
    ['the wrong prefix', `wl_1.2.${SECRET}`],
    ['no prefix', `1.2.${SECRET}`],
    ['a short secret', `wc_1.2.${'A'.repeat(42)}`],
    ['a long secret', `wc_1.2.${'A'.repeat(44)}`],
    ['padding', `wc_1.2.${'A'.repeat(42)}=`],
    ['standard base64', `wc_1.2.${'A'.repeat(42)}+`],
    ['a missing id', `wc_.2.${SECRET}`],
    ['a negative id', `wc_-1.2.${SECRET}`],
    ['17 digits', `wc_12345678901234567.2.${SECRET}`],
    ['a digit past the safe integers', `wc_9999999999999999.2.${SECRET}`],
    ['trailing text', `wc_1.2.${SECRET}\n`],
    ['leading space', ` wc_1.2.${SECRET}`],
    ['an empty string', ''],
  ])('refuses %s', (_name, token) => {
    // Arrange / Act / Assert
    expect(parseWebCallToken(token)).toBeUndefined();
  });
});

describe('hashWebCallToken', () => {
  it('is the lowercase hex SHA-256 of the token (the FIPS 180-4 digest of "abc")', () => {
    // Arrange / Act / Assert
    expect(hashWebCallToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('differs for tokens that differ in one character of the secret', () => {
    // Arrange
    const token = mintWebCallToken(
      12,
      34,
      bytes((i) => 255 - i),
    );
    const other = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    // Act / Assert
    expect(hashWebCallToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashWebCallToken(other)).not.toBe(hashWebCallToken(token));
  });
});
