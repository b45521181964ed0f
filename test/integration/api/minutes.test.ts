import { describe, expect, it } from 'vitest';
import { billableMinutes, MinutesRepository } from '../../../shared/db/minutes-repository';
import { createApiHarness } from '../../support/api-harness';

async function setup(minutes: number, calls: number) {
  const harness = await createApiHarness();
  const tenant = await harness.newTenant({ minutes });
  const assistant = (await (await tenant.request('POST', '/assistants', {})).json()) as { id: number };
  const callIds: number[] = [];
  for (let i = 0; i < calls; i++) {
    const call = (await (await tenant.request('POST', '/calls', { assistant_id: assistant.id, to: '+14155550123' })).json()) as {
      id: number;
    };
    callIds.push(call.id);
  }
  return { harness, tenant, callIds, ledger: new MinutesRepository(harness.core.db) };
}

describe('minutes ledger', () => {
  it.each([
    [0, 0],
    [1, 1],
    [60, 1],
    [61, 2],
    [599, 10],
  ])('bills %i s as %i whole minutes', (seconds, minutes) => {
    expect(billableMinutes(seconds)).toBe(minutes);
  });

  it('charges a call once even when its ending is processed concurrently many times', async () => {
    // Arrange
    const { harness, tenant, callIds, ledger } = await setup(100, 1);
    await ledger.reserve(tenant.businessId, callIds[0]!, 10);
    // Act
    const results = await Promise.all(Array.from({ length: 8 }, () => ledger.settle(tenant.businessId, callIds[0]!, 125)));
    // Assert
    expect(results.filter((charged) => charged === 3)).toHaveLength(1);
    const business = await harness.core.businesses.getBusiness(tenant.businessId);
    expect(business).toMatchObject({ minutes_balance: 97, minutes_reserved: 0 });
  });

  it('settles from the call item it is handed; a stale one that missed the reservation still releases it', async () => {
    // Arrange: the ending saw the call before its minutes were reserved
    const { harness, tenant, callIds, ledger } = await setup(100, 2);
    await ledger.reserve(tenant.businessId, callIds[0]!, 10);
    await ledger.reserve(tenant.businessId, callIds[1]!, 10);
    // Act
    const stale = await ledger.settle(tenant.businessId, callIds[0]!, 61, {});
    const fresh = await ledger.settle(tenant.businessId, callIds[1]!, 30, { reserved_minutes: 10 });
    const again = await ledger.settle(tenant.businessId, callIds[1]!, 30, { reserved_minutes: 10 });
    // Assert
    expect([stale, fresh, again]).toEqual([2, 1, null]);
    const business = await harness.core.businesses.getBusiness(tenant.businessId);
    expect(business).toMatchObject({ minutes_balance: 97, minutes_reserved: 0 });
  });

  it('does nothing for a call handed over as already settled', async () => {
    // Arrange
    const { harness, tenant, callIds, ledger } = await setup(100, 1);
    await ledger.reserve(tenant.businessId, callIds[0]!, 10);
    // Act
    const charged = await ledger.settle(tenant.businessId, callIds[0]!, 125, { reserved_minutes: 10, settled: true });
    // Assert
    expect(charged).toBeNull();
    const business = await harness.core.businesses.getBusiness(tenant.businessId);
    expect(business).toMatchObject({ minutes_balance: 100, minutes_reserved: 10 });
  });

  it('never lets concurrent calls reserve the same minute, and settles them all', async () => {
    // Arrange
    const { harness, tenant, callIds, ledger } = await setup(25, 6);
    // Act
    const granted = await Promise.all(callIds.map((id) => ledger.reserve(tenant.businessId, id, 10)));
    const charged = await Promise.all(callIds.map((id) => ledger.settle(tenant.businessId, id, 30)));
    // Assert: the three calls that reserved nothing never connected in practice, and pay nothing
    expect(granted.reduce((a, b) => a + b, 0)).toBe(25);
    expect(granted.filter((g) => g > 0)).toHaveLength(3);
    expect(charged.sort()).toEqual([0, 0, 0, 1, 1, 1]);
    const business = await harness.core.businesses.getBusiness(tenant.businessId);
    expect(business).toMatchObject({ minutes_balance: 22, minutes_reserved: 0 });
  });

  it('never charges a call more than it reserved: running past the reservation cannot take the balance below zero', async () => {
    // Arrange: 2 minutes left, all reserved by one call, which then talks 2 min 10 s (its end message, the carrier's grace)
    const { harness, tenant, callIds, ledger } = await setup(2, 1);
    const granted = await ledger.reserve(tenant.businessId, callIds[0]!, 10, 600);
    // Act
    const charged = await ledger.settle(tenant.businessId, callIds[0]!, 130);
    // Assert
    expect(granted).toBe(2);
    expect(await harness.core.callRepo.getCallRecord(tenant.businessId, callIds[0]!)).toMatchObject({
      reserved_minutes: 2,
      time_limit_s: 120,
    });
    expect(charged).toBe(2);
    expect(await harness.core.businesses.getBusiness(tenant.businessId)).toMatchObject({ minutes_balance: 0, minutes_reserved: 0 });
  });

  it('calls dialled together reserve their minutes without failing each other', async () => {
    // Arrange: count the reservation transactions DynamoDB cancels
    const { harness, tenant, callIds, ledger } = await setup(1000, 8);
    let cancelled = 0;
    harness.core.db.doc.middlewareStack.add(
      (next, context) => async (args) => {
        try {
          return await next(args);
        } catch (error) {
          if (context.commandName === 'TransactWriteItemsCommand') cancelled++;
          throw error;
        }
      },
      { step: 'initialize', name: 'countCancelled' },
    );
    // Act
    const granted = await Promise.all(callIds.map((id) => ledger.reserve(tenant.businessId, id, 10)));
    harness.core.db.doc.middlewareStack.remove('countCancelled');
    // Assert
    expect(granted).toEqual(callIds.map(() => 10));
    expect(cancelled).toBe(0);
    const business = await harness.core.businesses.getBusiness(tenant.businessId);
    expect(business).toMatchObject({ minutes_balance: 1000, minutes_reserved: 80 });
  });

  it('reserves nothing when the plan is spent, and POST /calls then answers 402', async () => {
    // Arrange
    const { tenant, callIds, ledger } = await setup(5, 2);
    await ledger.reserve(tenant.businessId, callIds[0]!, 5);
    // Act
    const second = await ledger.reserve(tenant.businessId, callIds[1]!, 5);
    const assistant = (await (await tenant.request('GET', '/assistants')).json()) as { data: { id: number }[] };
    const refused = await tenant.request('POST', '/calls', { assistant_id: assistant.data[0]!.id, to: '+14155550123' });
    // Assert
    expect(second).toBe(0);
    expect(refused.status).toBe(402);
  });
});
