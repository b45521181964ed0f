import { describe, expect, it } from 'vitest';
import { keys, padId, TABLE_DEFINITION } from '../../../shared/db/table';

describe('single-table keys', () => {
  it('pads ids so lexical order is numeric order and prefixes never match longer ids', () => {
    // Act / Assert
    expect(padId(12) < padId(123)).toBe(true);
    expect(keys.callItemsPrefix(12)).toBe('CALL#000000000012#');
    expect(keys.call(1, 123).sk.startsWith(keys.callItemsPrefix(12))).toBe(false);
  });

  it('puts the tenant first in every partition key of business data', () => {
    // Arrange
    const builders = [
      keys.business(7),
      keys.apiKey(7, 'h'),
      keys.assistant(7, 1),
      keys.phoneNumber(7, 1),
      keys.tool(7, 1),
      keys.call(7, 1),
      keys.callDetail(7, 1),
      keys.rateLimit(7, 'k'),
      keys.idempotency(7, 'POST /calls', 'x'),
    ];
    // Assert
    for (const key of builders) expect(key.pk.startsWith('BIZ#000000000007')).toBe(true);
    expect(keys.callByBusiness(7, '2026-01-01T00:00:00.000Z', 1).gsi1pk.startsWith('BIZ#000000000007')).toBe(true);
    expect(keys.callByAssistant(7, 2, '2026-01-01T00:00:00.000Z', 1).gsi2pk.startsWith('BIZ#000000000007')).toBe(true);
  });

  it('declares the table shape once (pk/sk, two GSIs, TTL)', () => {
    // Assert
    expect(TABLE_DEFINITION.globalIndexes.map((index) => index.name)).toEqual(['gsi1', 'gsi2']);
    expect(TABLE_DEFINITION.ttlAttribute).toBe('expires_at');
  });
});
