import { describe, expect, inject, it } from 'vitest';
import { CallRepository } from '../../../shared/db/call-repository';
import { createDb } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';
import { initialCallRecord } from '../../../shared/services/call-views';

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
const ids = new IdAllocator(db);
const calls = new CallRepository(db);
const AT = '2026-11-24T10:00:00.000Z';

/** A queued outbound call of a fresh business, optionally already placed as carrier call `sid`. */
async function seedCall(sid?: string) {
  const businessId = await ids.nextId();
  const record = initialCallRecord({
    id: await ids.nextId(),
    business_id: businessId,
    assistant_id: 1,
    direction: 'outbound',
    from_number: '+15550100001',
    to_number: '+14155550123',
    phone_number_id: null,
    variables: {},
    now: new Date().toISOString(),
  });
  await calls.insertCall(record);
  if (sid) await calls.updateCall(businessId, record.id, { carrier_call_sid: sid });
  return { businessId, callId: record.id };
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
    await calls.updateCall(businessId, callId, { status: 'ended', ended_reason: 'caller_hung_up' });
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

describe('CallRepository.updateCallIf', () => {
  const stillQueued = { expression: '#status = :queued', names: { '#status': 'status' }, values: { ':queued': 'queued' } };

  it('writes when the condition holds and returns the call as written', async () => {
    // Arrange
    const { businessId, callId } = await seedCall('CA7');
    // Act
    const result = await calls.updateCallIf(businessId, callId, { status: 'ringing' }, stillQueued);
    // Assert
    expect(result).toMatchObject({ written: true, call: { id: callId, status: 'ringing' } });
  });

  it('writes nothing when the condition fails and returns the call as it stands, without a read', async () => {
    // Arrange
    const { businessId, callId } = await seedCall('CA8');
    await calls.updateCall(businessId, callId, { status: 'in_progress', started_at: AT });
    const before = await calls.getCallRecord(businessId, callId);
    // Act
    const result = await calls.updateCallIf(businessId, callId, { status: 'ringing' }, stillQueued);
    // Assert
    expect(result).toEqual({ written: false, call: before });
    expect(await calls.getCallRecord(businessId, callId)).toEqual(before);
  });

  it('returns no call for one that does not exist', async () => {
    // Arrange
    const { businessId, callId } = await seedCall('CA9');
    // Act
    const result = await calls.updateCallIf(businessId, callId + 1000, { status: 'ringing' }, stillQueued);
    // Assert
    expect(result).toEqual({ written: false, call: undefined });
  });
});
