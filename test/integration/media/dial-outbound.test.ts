import { describe, expect, it } from 'vitest';
import { CARRIER_GRACE_S, dialOutbound } from '../../../media-service/src/calls/dial-outbound';
import { PlaceCallError, type PlaceCallRequest, type Telephony } from '../../../media-service/src/ports/telephony';
import { verifyStreamToken } from '../../../media-service/src/telephony/stream-token';
import { CallSlotsRepository } from '../../../shared/db/call-slots-repository';
import { MinutesRepository } from '../../../shared/db/minutes-repository';
import { ProviderError } from '../../../shared/errors';
import { CallLifecycle } from '../../../shared/services/call-lifecycle';
import { createApiHarness } from '../../support/api-harness';
import { silentLogger } from '../../../shared/log';

/** A recording Telephony (the Twilio adapter itself is tested on the REST wire contract). */
function recordingTelephony(failWith?: ProviderError) {
  const placed: PlaceCallRequest[] = [];
  const telephony: Telephony = {
    placeCall: async (request) => {
      if (failWith) throw failWith;
      placed.push(request);
      return { callSid: 'CA-placed' };
    },
    hangup: async () => undefined,
    transfer: async () => undefined,
  };
  return { telephony, placed };
}

async function setup(minutes: number, failWith?: ProviderError) {
  const harness = await createApiHarness();
  const tenant = await harness.newTenant({ minutes: Math.max(minutes, 1) });
  const assistant = (await (await tenant.request('POST', '/assistants', { config: { advanced: { max_duration_s: 300 } } })).json()) as {
    id: number;
  };
  const created = (await (await tenant.request('POST', '/calls', { assistant_id: assistant.id, to: '+14155550123' })).json()) as {
    id: number;
  };
  if (minutes === 0) await harness.admin.setMinutes(tenant.businessId, 0);
  const minutesRepo = new MinutesRepository(harness.core.db);
  const slots = new CallSlotsRepository(harness.core.db);
  const now = () => new Date('2026-11-23T10:00:00.000Z');
  const lifecycle = new CallLifecycle({
    calls: harness.core.callRepo,
    assistants: harness.core.assistantRepo,
    minutes: minutesRepo,
    slots,
    events: { publish: async () => undefined },
    now,
    newEventId: () => 'evt',
  });
  const { telephony, placed } = recordingTelephony(failWith);
  const dial = dialOutbound({
    telephony,
    calls: harness.core.callRepo,
    assistants: harness.core.assistantRepo,
    minutes: minutesRepo,
    slots,
    lifecycle,
    publicBaseUrl: 'https://media.example.com',
    streamTokenSecret: 's',
    now,
    log: silentLogger,
  });
  // The consumer claims a call before dialling it; so do these tests.
  const record = (await harness.core.callRepo.claimQueued(tenant.businessId, created.id, 'task-1', now().toISOString()))!;
  return { harness, tenant, assistant, record, dial, placed, slots };
}

describe('dialling an outbound call', () => {
  it('takes a slot, reserves minutes, places the call with a signed stream token and callbacks, and stores the carrier sid', async () => {
    // Arrange
    const { harness, tenant, record, dial, placed } = await setup(100);
    // Act
    const result = await dial(record);
    // Assert
    expect(result).toBe('dialled');
    const request = placed[0]!;
    expect(request).toMatchObject({
      to: '+14155550123',
      streamUrl: 'wss://media.example.com/twilio/media',
      statusCallbackUrl: `https://media.example.com/twilio/status/${tenant.businessId}/${record.id}`,
      machineDetection: true,
      timeLimitS: 300 + CARRIER_GRACE_S,
    });
    expect(verifyStreamToken('s', request.parameters.token!, Date.parse('2026-11-23T10:01:00.000Z'))).toMatchObject({ callId: record.id });
    expect(await harness.core.businesses.getBusiness(tenant.businessId)).toMatchObject({ minutes_reserved: 5, live_calls: 1 });
    expect(await harness.core.callRepo.getCallRecord(tenant.businessId, record.id)).toMatchObject({
      carrier_call_sid: 'CA-placed',
      reserved_minutes: 5,
      time_limit_s: 300,
      slot_held: true,
    });
  });

  it('caps the call at the minutes left', async () => {
    // Arrange
    const { harness, record, dial, placed } = await setup(2);
    // Act
    await dial(record);
    // Assert
    expect(placed[0]!.timeLimitS).toBe(120 + CARRIER_GRACE_S);
    expect(await harness.core.callRepo.getCallRecord(record.business_id, record.id)).toMatchObject({ time_limit_s: 120 });
  });

  it('ends the call failed when the plan is spent, without dialling', async () => {
    // Arrange
    const { harness, tenant, record, dial, placed } = await setup(0);
    // Act
    const result = await dial(record);
    // Assert
    expect(result).toBe('ended');
    expect(placed).toEqual([]);
    expect(await harness.core.callRepo.getCallRecord(tenant.businessId, record.id)).toMatchObject({
      status: 'ended',
      ended_reason: 'failed',
      settled: true,
      charged_minutes: 0,
    });
    // The slot and the minutes are taken together: with no minutes, no slot was ever held.
    expect((await harness.core.callRepo.getCallRecord(tenant.businessId, record.id))?.slot_held).toBeUndefined();
    expect(await harness.core.businesses.getBusiness(tenant.businessId)).not.toHaveProperty('live_calls');
  });

  it('at the concurrency cap leaves the call queued: no slot, no reservation, nothing placed', async () => {
    // Arrange
    const { harness, tenant, assistant, record, dial, placed, slots } = await setup(100);
    await harness.admin.setMaxConcurrentCalls(tenant.businessId, 1);
    const other = (await (await tenant.request('POST', '/calls', { assistant_id: assistant.id, to: '+14155550124' })).json()) as {
      id: number;
    };
    await slots.acquire(tenant.businessId, other.id);
    // Act
    const result = await dial(record);
    // Assert
    expect(result).toBe('deferred');
    expect(placed).toEqual([]);
    const stored = await harness.core.callRepo.getCallRecord(tenant.businessId, record.id);
    expect(stored).toMatchObject({ status: 'queued' });
    expect([stored?.slot_held, stored?.reserved_minutes]).toEqual([undefined, undefined]);
    expect(await harness.core.businesses.getBusiness(tenant.businessId)).toMatchObject({ live_calls: 1, minutes_reserved: 0 });
  });

  it('ends the call failed when the carrier refuses, and error when the carrier may have placed it (never dialled twice)', async () => {
    // Arrange
    const refused = await setup(100, new PlaceCallError('no', 'twilio', 'invalid number', 400));
    const ambiguous = await setup(100, new PlaceCallError('unknown', 'twilio', 'unavailable', 503));
    const plain = await setup(100, new ProviderError('twilio', 'unavailable', 503));
    // Act
    const results = [
      await refused.dial(refused.record),
      await ambiguous.dial(ambiguous.record),
      // A failure that says nothing about placing is taken as "may have placed".
      await plain.dial(plain.record),
    ];
    // Assert
    expect(results).toEqual(['ended', 'ended', 'ended']);
    const reasons = await Promise.all(
      [refused, ambiguous, plain].map(
        async (s) => (await s.harness.core.callRepo.getCallRecord(s.tenant.businessId, s.record.id))?.ended_reason,
      ),
    );
    expect(reasons).toEqual(['failed', 'error', 'error']);
    expect(await ambiguous.harness.core.businesses.getBusiness(ambiguous.tenant.businessId)).toMatchObject({
      live_calls: 0,
      minutes_reserved: 0,
    });
  });

  it('refuses to dial a call nobody claimed (its claim is what a failed dial gives back)', async () => {
    // Arrange
    const { harness, tenant, record, dial, placed } = await setup(100);
    await harness.core.callRepo.releaseClaim(tenant.businessId, record.id, 'task-1', record.updated_at);
    const unclaimed = (await harness.core.callRepo.getCallRecord(tenant.businessId, record.id))!;
    // Act
    const thrown = await dial(unclaimed).catch((error: unknown) => error);
    // Assert
    expect(thrown).toBeInstanceOf(Error);
    expect(placed).toEqual([]);
  });
});
