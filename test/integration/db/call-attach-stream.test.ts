import { describe, expect, inject, it } from 'vitest';
import { CallRepository } from '../../../shared/db/call-repository';
import { createDb } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';
import { endStoredCall, seedQueuedCall } from '../../support/call-states';

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
const ids = new IdAllocator(db);
const calls = new CallRepository(db);
const AT = '2026-11-24T10:00:00.000Z';

/** A queued outbound call of a fresh business, optionally already placed as carrier call `sid`. */
async function seedCall(sid?: string) {
  const seeded = await seedQueuedCall(calls, ids);
  if (sid) await calls.recordDialled(seeded.businessId, seeded.callId, { carrierCallSid: sid, timeLimitS: 600, at: AT });
  return seeded;
}

describe('CallRepository.attachStream', () => {
  it('records the stream on a placed call and returns the call as written', async () => {
    // Arrange
    const { businessId, callId } = await seedCall('CA1');
    // Act
    const attached = await calls.attachStream(businessId, callId, 'CA1', AT);
    // Assert
    expect(attached).toMatchObject({ id: callId, status: 'queued', media_started_at: AT, heartbeat_at: AT, carrier_call_sid: 'CA1' });
    expect(await calls.getCallRecord(businessId, callId)).toEqual(attached);
  });

  it('takes the stream’s call sid when none was recorded yet (the dial answer not stored yet)', async () => {
    // Arrange
    const { businessId, callId } = await seedCall();
    // Act
    const attached = await calls.attachStream(businessId, callId, 'CA2', AT);
    // Assert
    expect(attached).toMatchObject({ carrier_call_sid: 'CA2', media_started_at: AT });
  });

  it('refuses, writing nothing, another carrier call’s stream (a replayed token)', async () => {
    // Arrange
    const { businessId, callId } = await seedCall('CA3');
    const before = await calls.getCallRecord(businessId, callId);
    // Act
    const refused = await calls.attachStream(businessId, callId, 'CAother', AT);
    // Assert
    expect(refused).toBe('wrong_call');
    expect(await calls.getCallRecord(businessId, callId)).toEqual(before);
  });

  it('refuses, writing nothing, a second stream for the same carrier call (attaching is a one-time claim)', async () => {
    // Arrange
    const { businessId, callId } = await seedCall('CA7');
    await calls.attachStream(businessId, callId, 'CA7', AT);
    const before = await calls.getCallRecord(businessId, callId);
    // Act
    const refused = await calls.attachStream(businessId, callId, 'CA7', '2026-11-24T10:00:05.000Z');
    // Assert
    expect(refused).toBe('already_attached');
    expect(await calls.getCallRecord(businessId, callId)).toEqual(before);
  });

  it('refuses, writing nothing, a call that has ended', async () => {
    // Arrange
    const { businessId, callId } = await seedCall('CA4');
    await endStoredCall(calls, businessId, callId);
    const before = await calls.getCallRecord(businessId, callId);
    // Act
    const refused = await calls.attachStream(businessId, callId, 'CA4', AT);
    // Assert
    expect(refused).toBe('already_ended');
    expect(await calls.getCallRecord(businessId, callId)).toEqual(before);
  });

  it('refuses a call that does not exist, and does not create it', async () => {
    // Arrange
    const { businessId, callId } = await seedCall('CA5');
    // Act
    const refused = await calls.attachStream(businessId, callId + 1000, 'CA5', AT);
    // Assert
    expect(refused).toBe('unknown_call');
    expect(await calls.getCallRecord(businessId, callId + 1000)).toBeUndefined();
  });

  it('never attaches to another business’s call with the same id', async () => {
    // Arrange
    const { callId } = await seedCall('CA6');
    const otherBusiness = await ids.nextId();
    // Act
    const refused = await calls.attachStream(otherBusiness, callId, 'CA6', AT);
    // Assert
    expect(refused).toBe('unknown_call');
  });
});
