import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { BusinessRepository } from '../../../shared/db/business-repository';
import { CallAdmission } from '../../../shared/db/call-admission';
import { CallRepository } from '../../../shared/db/call-repository';
import { createDb } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';
import { MinutesRepository } from '../../../shared/db/minutes-repository';
import { keys } from '../../../shared/db/table';
import { defaultBusinessProfile } from '../../../shared/domain/business-profile';
import { endStoredCall, seedQueuedCall } from '../../support/call-states';

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
const ids = new IdAllocator(db);
const calls = new CallRepository(db);
const AT = '2026-11-24T10:00:00.000Z';
const LATER = '2026-11-24T10:01:00.000Z';

/** A fresh business (cap 2, 100 minutes) with one queued call claimed by `task-a`. */
async function claimedCall() {
  const businessId = await ids.nextId();
  await new BusinessRepository(db).putBusiness({
    id: businessId,
    name: 'Undialled',
    created_at: AT,
    minutes_balance: 100,
    minutes_reserved: 0,
    max_concurrent_calls: 2,
    profile: defaultBusinessProfile(),
    webhook_secret_sealed: 'unused',
  });
  const { callId } = await seedQueuedCall(calls, ids, businessId);
  await calls.claimQueued(businessId, callId, 'task-a', AT, { id: 'msg-1', staleBefore: AT });
  return { businessId, callId };
}

async function ledger(businessId: number) {
  const item = (await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keys.business(businessId), ConsistentRead: true }))).Item;
  return { live: Number(item?.live_calls ?? 0), reserved: Number(item?.minutes_reserved), balance: Number(item?.minutes_balance) };
}

const requeue = { owner: 'task-a', at: LATER, countFailure: false };

describe('requeueUndialled: a claimed call that was never dialled goes back to waiting', () => {
  it('gives back the claim, the slot and the minutes in one write, once however often it is repeated', async () => {
    // Arrange
    const { businessId, callId } = await claimedCall();
    await new CallAdmission(db).admit(businessId, callId, 5);
    // Act
    const results = [
      await calls.requeueUndialled(businessId, callId, requeue),
      // A retry whose first attempt landed (its answer lost) finds the claim gone and changes nothing.
      await calls.requeueUndialled(businessId, callId, requeue),
    ];
    // Assert
    expect(results).toEqual([true, true]);
    expect(await ledger(businessId)).toEqual({ live: 0, reserved: 0, balance: 100 });
    const call = await calls.getCallRecord(businessId, callId);
    expect(call).toMatchObject({ status: 'queued', claimed_by: null, claim_job: null, updated_at: LATER });
    expect([call?.slot_held, call?.slot_released, call?.reserved_minutes, call?.settled]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('leaves the call admissible again: the next claim takes a slot and minutes, and its ending gives them back', async () => {
    // Arrange
    const { businessId, callId } = await claimedCall();
    const admission = new CallAdmission(db);
    await admission.admit(businessId, callId, 5);
    await calls.requeueUndialled(businessId, callId, requeue);
    await calls.claimQueued(businessId, callId, 'task-b', LATER);
    // Act
    const again = await admission.admit(businessId, callId, 5);
    const whileLive = await ledger(businessId);
    await admission.giveBack(businessId, callId, 0);
    // Assert
    expect(again).toEqual({ kind: 'admitted', reservedMinutes: 5 });
    expect(whileLive).toEqual({ live: 1, reserved: 5, balance: 100 });
    expect(await ledger(businessId)).toEqual({ live: 0, reserved: 0, balance: 100 });
  });

  it('gives back what an uncapped dial reserved (minutes only), and a call that holds nothing just loses its claim', async () => {
    // Arrange
    const reservedOnly = await claimedCall();
    await new MinutesRepository(db).reserve(reservedOnly.businessId, reservedOnly.callId, 4);
    const nothing = await claimedCall();
    // Act
    const results = [
      await calls.requeueUndialled(reservedOnly.businessId, reservedOnly.callId, requeue),
      await calls.requeueUndialled(nothing.businessId, nothing.callId, { ...requeue, countFailure: true }),
    ];
    // Assert
    expect(results).toEqual([true, true]);
    expect(await ledger(reservedOnly.businessId)).toEqual({ live: 0, reserved: 0, balance: 100 });
    expect((await calls.getCallRecord(reservedOnly.businessId, reservedOnly.callId))?.reserved_minutes).toBeUndefined();
    expect(await calls.getCallRecord(nothing.businessId, nothing.callId)).toMatchObject({ claimed_by: null, dial_failures: 1 });
  });

  it('touches nothing on a call another consumer holds, or one that has ended', async () => {
    // Arrange
    const other = await claimedCall();
    await new CallAdmission(db).admit(other.businessId, other.callId, 5);
    const ended = await claimedCall();
    await endStoredCall(calls, ended.businessId, ended.callId, 'canceled', AT);
    // Act
    const results = [
      await calls.requeueUndialled(other.businessId, other.callId, { ...requeue, owner: 'task-b' }),
      await calls.requeueUndialled(ended.businessId, ended.callId, requeue),
    ];
    // Assert
    // Not ours: nothing is given back; the call still needs dialling (true), by whoever holds it.
    expect(results).toEqual([true, false]);
    expect(await ledger(other.businessId)).toEqual({ live: 1, reserved: 5, balance: 100 });
    expect(await calls.getCallRecord(other.businessId, other.callId)).toMatchObject({ claimed_by: 'task-a', slot_held: true });
  });
});

describe('claimQueued: the job that claimed a call takes its stale claim over', () => {
  it.each([
    ['the same job, after the claim went stale', 'msg-1', LATER, true],
    ['the same job delivered twice at once (the claim is fresh)', 'msg-1', '2026-11-24T09:59:00.000Z', false],
    ['another job (a duplicate)', 'msg-2', LATER, false],
  ])('%s', async (_case, job, staleBefore, taken) => {
    // Arrange
    const { businessId, callId } = await claimedCall();
    // Act
    const claimed = await calls.claimQueued(businessId, callId, 'task-b', LATER, { id: job, staleBefore });
    // Assert
    expect(claimed !== undefined).toBe(taken);
    expect((await calls.getCallRecord(businessId, callId))?.claimed_by).toBe(taken ? 'task-b' : 'task-a');
  });

  it('never takes over a call the carrier was asked for (it has a carrier sid)', async () => {
    // Arrange
    const { businessId, callId } = await claimedCall();
    await calls.recordDialled(businessId, callId, { carrierCallSid: 'CA1', timeLimitS: 300, at: AT });
    // Act
    const claimed = await calls.claimQueued(businessId, callId, 'task-b', LATER, { id: 'msg-1', staleBefore: LATER });
    // Assert
    expect(claimed).toBeUndefined();
  });
});
