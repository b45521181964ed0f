import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { BusinessRepository } from '../../../shared/db/business-repository';
import { CallAdmission } from '../../../shared/db/call-admission';
import { CallRepository } from '../../../shared/db/call-repository';
import { createDb } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';
import { billableMinutes } from '../../../shared/db/minutes-repository';
import { keys } from '../../../shared/db/table';
import { defaultBusinessProfile } from '../../../shared/domain/business-profile';
import { endStoredCall, seedQueuedCall } from '../../support/call-states';

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
const ids = new IdAllocator(db);
const calls = new CallRepository(db);

/** A fresh business with the given cap and balance, and `count` queued calls. */
async function seed(maxConcurrentCalls: number, minutesBalance: number, count: number) {
  const businessId = await ids.nextId();
  await new BusinessRepository(db).putBusiness({
    id: businessId,
    name: 'Admission',
    created_at: new Date().toISOString(),
    minutes_balance: minutesBalance,
    minutes_reserved: 0,
    max_concurrent_calls: maxConcurrentCalls,
    profile: defaultBusinessProfile(),
    webhook_secret_sealed: 'unused',
  });
  const callIds: number[] = [];
  for (let i = 0; i < count; i++) callIds.push((await seedQueuedCall(calls, ids, businessId)).callId);
  return { businessId, callIds };
}

async function ledger(businessId: number) {
  const item = (await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keys.business(businessId), ConsistentRead: true }))).Item;
  return { live: Number(item?.live_calls ?? 0), reserved: Number(item?.minutes_reserved), balance: Number(item?.minutes_balance) };
}

async function callItem(businessId: number, callId: number) {
  return (await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keys.call(businessId, callId), ConsistentRead: true }))).Item;
}

describe('CallAdmission (slot and minutes in one transaction)', () => {
  it('60 concurrent admissions at a cap of 10 admit exactly 10, with no error and no leak', async () => {
    // Arrange
    const { businessId, callIds } = await seed(10, 1000, 60);
    const admission = new CallAdmission(db);
    // Act
    const results = await Promise.all(callIds.map((callId) => admission.admit(businessId, callId, 3)));
    // Assert
    const admitted = results.filter((result) => result.kind === 'admitted');
    expect(admitted).toHaveLength(10);
    expect(results.filter((result) => result.kind === 'at_capacity')).toHaveLength(50);
    expect(await ledger(businessId)).toEqual({ live: 10, reserved: 30, balance: 1000 });
    // Conflicts and refusals are counted: every refused call was refused by the plain read, or retried into it.
    expect(admission.stats.refusedByRead).toBe(50);
  });

  it('100 parallel take/give-back cycles return live_calls and minutes_reserved to 0 and charge exactly what was used', async () => {
    // Arrange
    const { businessId, callIds } = await seed(25, 10_000, 100);
    const admission = new CallAdmission(db);
    const durationOf = (index: number) => (index * 47) % 400;
    // A call at the cap waits for the next give-back (or a short poll, should it miss one).
    let signal = () => undefined as void;
    let freed = new Promise<void>((resolve) => (signal = resolve));
    const slotFreed = () => Promise.race([freed, new Promise((resolve) => setTimeout(resolve, 50))]);
    // Act: each call waits for a slot, runs, and ends twice at once (a retried ending).
    const charged = await Promise.all(
      callIds.map(async (callId, index) => {
        while ((await admission.admit(businessId, callId, 5)).kind !== 'admitted') await slotFreed();
        const endings = await Promise.all([
          admission.giveBack(businessId, callId, durationOf(index)),
          admission.giveBack(businessId, callId, durationOf(index)),
        ]);
        const wake = signal;
        freed = new Promise<void>((resolve) => (signal = resolve));
        wake();
        expect(endings.filter((minutes) => minutes === null)).toHaveLength(1);
        return endings.find((minutes) => minutes !== null)!;
      }),
    );
    // Assert
    const expected = callIds.map((_, index) => Math.min(5, billableMinutes(durationOf(index))));
    expect(charged).toEqual(expected);
    const total = expected.reduce((sum, minutes) => sum + minutes, 0);
    expect(await ledger(businessId)).toEqual({ live: 0, reserved: 0, balance: 10_000 - total });
    expect(admission.stats.conflicts + admission.stats.refusedByRead).toBeGreaterThan(0);
  }, 180_000);

  it('never reserves past the balance, and a call that reserved nothing is charged nothing', async () => {
    // Arrange
    const { businessId, callIds } = await seed(100, 7, 5);
    const admission = new CallAdmission(db);
    // Act
    const results = await Promise.all(callIds.map((callId) => admission.admit(businessId, callId, 3)));
    const unadmitted = callIds.filter((_, index) => results[index]!.kind !== 'admitted');
    const charges = await Promise.all(unadmitted.map((callId) => admission.giveBack(businessId, callId, 120)));
    // Assert
    const reserved = results.map((result) => (result.kind === 'admitted' ? result.reservedMinutes : 0));
    expect(reserved.reduce((sum, minutes) => sum + minutes, 0)).toBe(7);
    expect(results.filter((result) => result.kind === 'no_minutes').length).toBeGreaterThan(0);
    expect(charges.every((minutes) => minutes === 0)).toBe(true);
    expect(await ledger(businessId)).toMatchObject({ reserved: 7, balance: 7, live: results.length - unadmitted.length });
  });

  it('a redelivered admission takes no second slot or reservation; an ended call is refused', async () => {
    // Arrange
    const { businessId, callIds } = await seed(5, 100, 2);
    const [first, second] = callIds as [number, number];
    const admission = new CallAdmission(db);
    await endStoredCall(calls, businessId, second);
    // Act
    const results = [
      await admission.admit(businessId, first, 4, 200),
      await admission.admit(businessId, first, 4, 200),
      await admission.admit(businessId, second, 4),
    ];
    // Assert
    expect(results).toEqual([{ kind: 'admitted', reservedMinutes: 4 }, { kind: 'admitted', reservedMinutes: 4 }, { kind: 'refused' }]);
    expect(await ledger(businessId)).toEqual({ live: 1, reserved: 4, balance: 100 });
    expect(await callItem(businessId, first)).toMatchObject({ slot_held: true, reserved_minutes: 4, time_limit_s: 200 });
  });

  it('gives back once, and a given-back call is never admitted again', async () => {
    // Arrange
    const { businessId, callIds } = await seed(1, 100, 1);
    const admission = new CallAdmission(db);
    await admission.admit(businessId, callIds[0]!, 4);
    // Act
    const charges = [await admission.giveBack(businessId, callIds[0]!, 61), await admission.giveBack(businessId, callIds[0]!, 61)];
    const again = await admission.admit(businessId, callIds[0]!, 4);
    // Assert
    expect(charges).toEqual([2, null]);
    expect(again).toEqual({ kind: 'refused' });
    expect(await ledger(businessId)).toEqual({ live: 0, reserved: 0, balance: 98 });
    expect(await callItem(businessId, callIds[0]!)).toMatchObject({ slot_released: true, settled: true, charged_minutes: 2 });
  });
});
