import { describe, expect, it } from 'vitest';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey, keyChecksum } from '../../../shared/auth/api-key';

describe('API keys', () => {
  it.each(['live', 'test'] as const)('generates vk_%s_ keys of 30 base62 characters plus a checksum', (env) => {
    // Act
    const key = generateApiKey(env);
    // Assert
    expect(key).toMatch(new RegExp(`^vk_${env}_[0-9A-Za-z]{36}$`));
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('never generates the same key twice in 1,000 draws', () => {
    // Act
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey('test')));
    // Assert
    expect(keys.size).toBe(1000);
  });

  it.each([
    ['a changed character', (key: string) => key.slice(0, 10) + (key[10] === 'a' ? 'b' : 'a') + key.slice(11)],
    ['a wrong checksum', (key: string) => key.slice(0, -1) + (key.endsWith('0') ? '1' : '0')],
    ['a wrong prefix', (key: string) => key.replace('vk_test_', 'vk_prod_')],
    ['a short key', (key: string) => key.slice(0, 20)],
    ['surrounding spaces', (key: string) => ` ${key}`],
  ])('refuses a key with %s without any lookup', (_case, mangle) => {
    // Arrange
    const key = mangle(generateApiKey('test'));
    // Act / Assert
    expect(isWellFormedApiKey(key)).toBe(false);
  });

  it('uses rejection sampling so every base62 character is reachable', () => {
    // Arrange: a random source that cycles through all byte values
    let next = 0;
    const random = (size: number) => Buffer.from(Array.from({ length: size }, () => next++ % 256));
    // Act
    const keys = Array.from({ length: 20 }, () => generateApiKey('test', random).slice(8, 38)).join('');
    // Assert
    expect(new Set(keys).size).toBe(62);
  });

  it('hashes with SHA-256 hex and shows only a short prefix', () => {
    // Arrange
    const key = generateApiKey('live');
    // Act / Assert
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toContain(key.slice(8));
    expect(displayPrefix(key)).toBe(key.slice(0, 12));
    expect(keyChecksum('vk_test_abc')).toHaveLength(6);
  });
});
