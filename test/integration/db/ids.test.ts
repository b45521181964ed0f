import { describe, expect, inject, it } from 'vitest';
import { createDb } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });

describe('IdAllocator across processes', () => {
  it('hands out ids in creation order across processes once records are more than a block’s age apart', async () => {
    // Arrange: two processes (the API and a call-engine task), each with its own block
    let now = 1_000_000;
    const api = new IdAllocator(db, 20, { now: () => now });
    const engine = new IdAllocator(db, 20, { now: () => now });
    // Act: the API creates a call, the engine one a minute later, the API another a minute after that
    const first = await api.nextId();
    now += 60_000;
    const second = await engine.nextId();
    now += 60_000;
    const third = await api.nextId();
    // Assert: the API's old block (first + 1 …) was not reused for the third record
    expect(second).toBeGreaterThan(first);
    expect(third).toBeGreaterThan(second);
  });

  it('uses a block while it is fresh: one counter write for many ids', async () => {
    // Arrange
    let writes = 0;
    const name = `count-${Math.random()}`;
    db.doc.middlewareStack.add(
      (next, context) => async (args) => ((writes += context.commandName === 'UpdateItemCommand' ? 1 : 0), next(args)),
      { step: 'initialize', name },
    );
    const ids = new IdAllocator(db, 20, { now: () => 5_000 });
    // Act
    const taken: number[] = [];
    for (let i = 0; i < 20; i++) taken.push(await ids.nextId());
    db.doc.middlewareStack.remove(name);
    // Assert
    expect(writes).toBe(1);
    expect(taken).toEqual(Array.from({ length: 20 }, (_, i) => taken[0]! + i));
  });
});
