import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { BusinessRepository } from '../../../shared/db/business-repository';
import { CallRepository } from '../../../shared/db/call-repository';
import { CallSlotsRepository } from '../../../shared/db/call-slots-repository';
import { createDb } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';
import { keys } from '../../../shared/db/table';
import { defaultBusinessProfile } from '../../../shared/domain/business-profile';
import { endStoredCall, seedQueuedCall } from '../../support/call-states';

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
const ids = new IdAllocator(db);
const calls = new CallRepository(db);
const slots = new CallSlotsRepository(db);

/** A fresh business with the given cap and `count` queued calls. */
async function seed(maxConcurrentCalls: number, count: number) {
  const businessId = await ids.nextId();
  await new BusinessRepository(db).putBusiness({
    id: businessId,
    name: 'Slots',
    created_at: new Date().toISOString(),
    minutes_balance: 100,
    minutes_reserved: 0,
    max_concurrent_calls: maxConcurrentCalls,
    profile: defaultBusinessProfile(),
    webhook_secret_sealed: 'unused',
  });
  const callIds: number[] = [];
  for (let i = 0; i < count; i++) {
    callIds.push((await seedQueuedCall(calls, ids, businessId)).callId);
  }
  return { businessId, callIds };
}

async function liveCalls(businessId: number): Promise<number> {
  const item = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keys.business(businessId), ConsistentRead: true }));
  return Number(item.Item?.live_calls ?? 0);
}

describe('CallSlotsRepository', () => {
  it('grants slots up to the cap and refuses past it', async () => {
    // Arrange
    const { businessId, callIds } = await seed(2, 3);
    // Act
    const granted = [];
    for (const callId of callIds) granted.push(await slots.acquire(businessId, callId));
    // Assert
    expect(granted).toEqual([true, true, false]);
    expect(await liveCalls(businessId)).toBe(2);
  });

  it('acquiring again for a call that holds its slot is true and takes no second slot (redelivery)', async () => {
    // Arrange
    const { businessId, callIds } = await seed(1, 1);
    await slots.acquire(businessId, callIds[0]!);
    // Act
    const again = await slots.acquire(businessId, callIds[0]!);
    // Assert
    expect(again).toBe(true);
    expect(await liveCalls(businessId)).toBe(1);
  });

  it('releases once, frees the slot for another call, and never re-grants a released call', async () => {
    // Arrange
    const { businessId, callIds } = await seed(1, 2);
    const [first, second] = callIds as [number, number];
    await slots.acquire(businessId, first);
    // Act
    const released = [await slots.release(businessId, first), await slots.release(businessId, first)];
    const reacquired = await slots.acquire(businessId, first);
    const other = await slots.acquire(businessId, second);
    // Assert
    expect(released).toEqual([true, false]);
    expect(reacquired).toBe(false);
    expect(other).toBe(true);
    expect(await liveCalls(businessId)).toBe(1);
  });

  it('does not release a slot the call never held', async () => {
    // Arrange
    const { businessId, callIds } = await seed(1, 1);
    // Act
    const released = await slots.release(businessId, callIds[0]!);
    // Assert
    expect(released).toBe(false);
    expect(await liveCalls(businessId)).toBe(0);
  });

  it('never gives an ended call a slot', async () => {
    // Arrange
    const { businessId, callIds } = await seed(1, 1);
    await endStoredCall(calls, businessId, callIds[0]!);
    // Act
    const granted = await slots.acquire(businessId, callIds[0]!);
    // Assert
    expect(granted).toBe(false);
    expect(await liveCalls(businessId)).toBe(0);
  });

  it('20 concurrent acquires with a cap of 3 grant exactly 3', async () => {
    // Arrange
    const { businessId, callIds } = await seed(3, 20);
    // Act
    const granted = await Promise.all(callIds.map((callId) => slots.acquire(businessId, callId)));
    // Assert
    expect(granted.filter(Boolean)).toHaveLength(3);
    expect(await liveCalls(businessId)).toBe(3);
  });

  it('60 concurrent acquires with a cap of 10 grant exactly 10, retrying conflicts, with no error', async () => {
    // Arrange
    const { businessId, callIds } = await seed(10, 60);
    const racing = new CallSlotsRepository(db);
    // Act
    const granted = await Promise.all(callIds.map((callId) => racing.acquire(businessId, callId)));
    const before = racing.stats.refusedByRead;
    const retried = await Promise.all(callIds.map((callId) => racing.acquire(businessId, callId)));
    // Assert
    expect(granted.filter(Boolean)).toHaveLength(10);
    expect(retried).toEqual(granted);
    expect(await liveCalls(businessId)).toBe(10);
    // At the cap every retry is refused by the read alone (the ten holders see it too, then find their slot).
    expect(racing.stats.refusedByRead - before).toBe(60);
  });

  it('at the cap, the plain read refuses without attempting the transaction', async () => {
    // Arrange
    const { businessId, callIds } = await seed(1, 2);
    const counted = new CallSlotsRepository(db);
    await counted.acquire(businessId, callIds[0]!);
    // Act
    const granted = await counted.acquire(businessId, callIds[1]!);
    // Assert
    expect(granted).toBe(false);
    expect(counted.stats).toEqual({ conflicts: 0, refusedByRead: 1 });
  });
});
