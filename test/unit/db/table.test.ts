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
      keys.knowledgeBaseCount(7),
      keys.call(7, 1),
      keys.callDetail(7, 1),
      keys.rateLimit(7, 'k'),
      keys.idempotency(7, 'POST /calls', 'x'),
    ];
    // Assert
    for (const key of builders) expect(key.pk.startsWith('BIZ#000000000007')).toBe(true);
    expect(keys.callByBusiness(7, '2026-01-01T00:00:00.000Z', 1).gsi1pk.startsWith('BIZ#000000000007')).toBe(true);
    expect(keys.callByAssistant(7, 2, '2026-01-01T00:00:00.000Z', 1).gsi2pk.startsWith('BIZ#000000000007')).toBe(true);
    expect(keys.openCall(7, 'queued', 1).gsi3sk.startsWith('BIZ#000000000007#')).toBe(true);
  });

  it("keeps the knowledge bases' count out of every knowledge query", () => {
    // Arrange
    const prefixes = [
      keys.knowledgeBasePrefix(),
      keys.knowledgeDocumentPrefix(1),
      keys.knowledgeSourcePrefix(1),
      keys.knowledgeChunksPrefix(1),
    ];
    // Assert
    for (const prefix of prefixes) expect(keys.knowledgeBaseCount(7).sk.startsWith(prefix)).toBe(false);
  });

  it('spreads open calls over 8 shards by business, and a status prefix matches only that business and status', () => {
    // Act
    const open = keys.openCall(12, 'queued', 3);
    // Assert
    expect(open.gsi3pk).toBe('OPEN#4');
    expect(keys.openCallShards()).toHaveLength(8);
    expect(keys.openCallShards()).toContain(open.gsi3pk);
    expect(open.gsi3sk.startsWith(keys.openCallStatusPrefix(12, 'queued'))).toBe(true);
    expect(open.gsi3sk.startsWith(keys.openCallStatusPrefix(1, 'queued'))).toBe(false);
    expect(keys.openCall(12, 'queued_x', 3).gsi3sk.startsWith(keys.openCallStatusPrefix(12, 'queued'))).toBe(false);
  });

  it('declares the table shape once (pk/sk, three GSIs, TTL)', () => {
    // Assert
    expect(TABLE_DEFINITION.globalIndexes.map((index) => index.name)).toEqual(['gsi1', 'gsi2', 'gsi3']);
    expect(TABLE_DEFINITION.ttlAttribute).toBe('expires_at');
  });
});
