import { describe, expect, inject, it } from 'vitest';
import { CallerMemoryRepository } from '../../../shared/db/caller-memory-repository';
import { createDb } from '../../../shared/db/client';

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
const NOW = 1_800_000_000;
const memory = new CallerMemoryRepository(db, () => NOW);
let nextBusiness = 900_000 + Math.floor(Math.random() * 90_000) * 10;
const freshBusiness = () => nextBusiness++;
const CALLER = '+15550100009';

const entry = (call_id: number, day: number, summary = `call ${call_id}`) => ({
  call_id,
  ended_at: `2026-03-${String(day).padStart(2, '0')}T10:00:00.000Z`,
  summary,
  outcome: call_id % 2 === 0 ? 'resolved' : null,
});

describe('CallerMemoryRepository', () => {
  it('recalls newest first, the default 3, or the limit asked for', async () => {
    // Arrange
    const businessId = freshBusiness();
    for (const [id, day] of [
      [1, 3],
      [2, 9],
      [3, 1],
      [4, 12],
      [5, 7],
    ] as const)
      await memory.remember(businessId, CALLER, entry(id, day));
    // Act
    const byDefault = await memory.recall(businessId, CALLER);
    const two = await memory.recall(businessId, CALLER, 2);
    const all = await memory.recall(businessId, CALLER, 10);
    // Assert
    expect(byDefault.map((e) => e.call_id)).toEqual([4, 2, 5]);
    expect(byDefault[0]).toEqual({ call_id: 4, ended_at: '2026-03-12T10:00:00.000Z', summary: 'call 4', outcome: 'resolved' });
    expect(two.map((e) => e.call_id)).toEqual([4, 2]);
    expect(all.map((e) => e.call_id)).toEqual([4, 2, 5, 1, 3]);
  });

  it('never shows one business the memory another business keeps of the same caller', async () => {
    // Arrange
    const [mine, theirs] = [freshBusiness(), freshBusiness()];
    await memory.remember(theirs, CALLER, entry(70, 5, 'their secret'));
    await memory.remember(mine, CALLER, entry(71, 4, 'mine'));
    // Act
    const recalled = await memory.recall(mine, CALLER);
    const empty = await memory.recall(freshBusiness(), CALLER);
    // Assert
    expect(recalled.map((e) => e.summary)).toEqual(['mine']);
    expect(empty).toEqual([]);
  });

  it('keeps callers apart, even when one number is a prefix of another', async () => {
    // Arrange
    const businessId = freshBusiness();
    await memory.remember(businessId, '+1555010000', entry(80, 1, 'short number'));
    await memory.remember(businessId, '+15550100001', entry(81, 2, 'long number'));
    // Act
    const recalled = await memory.recall(businessId, '+1555010000');
    // Assert
    expect(recalled.map((e) => e.summary)).toEqual(['short number']);
  });

  it('hides expired entries and still fills the limit from older live ones', async () => {
    // Arrange
    const businessId = freshBusiness();
    await memory.remember(businessId, CALLER, entry(90, 1, 'old, kept'), NOW + 3600);
    await memory.remember(businessId, CALLER, entry(91, 2, 'kept forever'));
    await memory.remember(businessId, CALLER, entry(92, 3, 'expired'), NOW - 1);
    await memory.remember(businessId, CALLER, entry(93, 4, 'expires now'), NOW);
    // Act
    const recalled = await memory.recall(businessId, CALLER, 2);
    // Assert
    expect(recalled.map((e) => e.summary)).toEqual(['kept forever', 'old, kept']);
  });

  it('overwrites a repeated call and never remembers a withheld number', async () => {
    // Arrange
    const businessId = freshBusiness();
    await memory.remember(businessId, CALLER, entry(95, 1, 'first run'));
    // Act
    await memory.remember(businessId, CALLER, entry(95, 1, 'second run'));
    await memory.remember(businessId, 'anonymous', entry(96, 2));
    // Assert
    expect((await memory.recall(businessId, CALLER)).map((e) => e.summary)).toEqual(['second run']);
    expect(await memory.recall(businessId, 'anonymous')).toEqual([]);
  });
});
