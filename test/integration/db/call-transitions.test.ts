import { describe, expect, inject, it } from 'vitest';
import { CallRepository, type CallRecord } from '../../../shared/db/call-repository';
import { createDb } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';
import { endStoredCall, seedQueuedCall } from '../../support/call-states';

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
const ids = new IdAllocator(db);
const calls = new CallRepository(db);
const AT = '2026-11-24T10:00:00.000Z';
const LATER = '2026-11-24T10:01:00.000Z';
const EMPTY_DETAIL = { transcript: [], metrics: {}, recording_key: null };

interface Seeded {
  businessId: number;
  callId: number;
}

/** The states a transition meets, each reached through the repository's own writes. */
const STATES = {
  queued: () => seedQueuedCall(calls, ids),
  claimed: async () => {
    const c = await seedQueuedCall(calls, ids);
    await calls.claimQueued(c.businessId, c.callId, 'owner-a', AT);
    return c;
  },
  released: async (): Promise<Seeded> => {
    const c = await STATES.claimed();
    await calls.releaseClaim(c.businessId, c.callId, 'owner-a', AT);
    return c;
  },
  ringing: async () => {
    const c = await seedQueuedCall(calls, ids);
    await calls.markRinging(c.businessId, c.callId, AT);
    return c;
  },
  in_progress: async () => {
    const c = await seedQueuedCall(calls, ids);
    await calls.markAnswered(c.businessId, c.callId, AT);
    return c;
  },
  ended: async (): Promise<Seeded> => {
    const c = await STATES.in_progress();
    await endStoredCall(calls, c.businessId, c.callId, 'caller_hung_up', AT);
    return c;
  },
  /** A business with a call, and the id of one it does not have. */
  missing: async () => {
    const c = await seedQueuedCall(calls, ids);
    return { businessId: c.businessId, callId: c.callId + 1000 };
  },
} satisfies Record<string, () => Promise<Seeded>>;

type Case = [transition: string, state: keyof typeof STATES, run: (c: Seeded) => Promise<boolean>, written: Partial<CallRecord> | false];

const CASES: Case[] = [
  ['markRinging', 'queued', (c) => calls.markRinging(c.businessId, c.callId, LATER), { status: 'ringing', updated_at: LATER }],
  ['markRinging', 'in_progress', (c) => calls.markRinging(c.businessId, c.callId, LATER), false],
  ['markRinging', 'missing', (c) => calls.markRinging(c.businessId, c.callId, LATER), false],
  [
    'markAnswered',
    'queued',
    async (c) => (await calls.markAnswered(c.businessId, c.callId, LATER)).written,
    { status: 'in_progress', started_at: LATER },
  ],
  [
    'markAnswered',
    'ringing',
    async (c) => (await calls.markAnswered(c.businessId, c.callId, LATER)).written,
    { status: 'in_progress', started_at: LATER },
  ],
  ['markAnswered', 'in_progress', async (c) => (await calls.markAnswered(c.businessId, c.callId, LATER)).written, false],
  ['markAnswered', 'ended', async (c) => (await calls.markAnswered(c.businessId, c.callId, LATER)).written, false],
  [
    'recordTransfer',
    'in_progress',
    async (c) => !!(await calls.recordTransfer(c.businessId, c.callId, '+15550100009', LATER)),
    { transferred_to: '+15550100009', transferred_at: LATER },
  ],
  ['recordTransfer', 'ringing', async (c) => !!(await calls.recordTransfer(c.businessId, c.callId, '+15550100009', LATER)), false],
  [
    'claimQueued',
    'queued',
    async (c) => !!(await calls.claimQueued(c.businessId, c.callId, 'owner-b', LATER)),
    { claimed_by: 'owner-b', claimed_at: LATER },
  ],
  [
    'claimQueued',
    'released',
    async (c) => !!(await calls.claimQueued(c.businessId, c.callId, 'owner-b', LATER)),
    { claimed_by: 'owner-b' },
  ],
  ['claimQueued', 'claimed', async (c) => !!(await calls.claimQueued(c.businessId, c.callId, 'owner-b', LATER)), false],
  ['claimQueued', 'ringing', async (c) => !!(await calls.claimQueued(c.businessId, c.callId, 'owner-b', LATER)), false],
  [
    'releaseClaim (its owner)',
    'claimed',
    (c) => calls.releaseClaim(c.businessId, c.callId, 'owner-a', LATER),
    { claimed_by: null, claimed_at: null },
  ],
  ['releaseClaim (another owner)', 'claimed', (c) => calls.releaseClaim(c.businessId, c.callId, 'owner-b', LATER), false],
  [
    'recordDialled',
    'claimed',
    (c) => calls.recordDialled(c.businessId, c.callId, { carrierCallSid: 'CA1', timeLimitS: 300, at: LATER }),
    { carrier_call_sid: 'CA1', time_limit_s: 300 },
  ],
  [
    'recordDialled',
    'missing',
    (c) => calls.recordDialled(c.businessId, c.callId, { carrierCallSid: 'CA1', timeLimitS: 300, at: LATER }),
    false,
  ],
  ['heartbeat', 'in_progress', (c) => calls.heartbeat(c.businessId, c.callId, LATER), { heartbeat_at: LATER, updated_at: AT }],
  ['heartbeat', 'ended', (c) => calls.heartbeat(c.businessId, c.callId, LATER), false],
  ['heartbeat', 'missing', (c) => calls.heartbeat(c.businessId, c.callId, LATER), false],
  [
    'recordCarrierCompleted',
    'in_progress',
    (c) => calls.recordCarrierCompleted(c.businessId, c.callId, LATER),
    { carrier_completed_at: LATER },
  ],
  ['recordCarrierCompleted', 'ended', (c) => calls.recordCarrierCompleted(c.businessId, c.callId, LATER), false],
  [
    'recordAnsweredBy',
    'ringing',
    (c) => calls.recordAnsweredBy(c.businessId, c.callId, 'machine_end_beep'),
    { answered_by: 'machine_end_beep' },
  ],
  ['recordAnsweredBy', 'missing', (c) => calls.recordAnsweredBy(c.businessId, c.callId, 'human'), false],
  ['markEndingFinished', 'ended', (c) => calls.markEndingFinished(c.businessId, c.callId), { finish_pending: false }],
  ['markEndingFinished', 'in_progress', (c) => calls.markEndingFinished(c.businessId, c.callId), false],
  ['recordAnalysisAttempt', 'ended', (c) => calls.recordAnalysisAttempt(c.businessId, c.callId, 2), { analysis_attempts: 2 }],
  ['recordAnalysisAttempt', 'missing', (c) => calls.recordAnalysisAttempt(c.businessId, c.callId, 2), false],
];

describe('CallRepository transitions', () => {
  it.each(CASES)('%s, call %s', async (_transition, state, run, expected) => {
    // Arrange
    const call = await STATES[state]();
    const before = await calls.getCallRecord(call.businessId, call.callId);
    // Act
    const written = await run(call);
    // Assert
    const after = await calls.getCallRecord(call.businessId, call.callId);
    if (expected === false) {
      expect(written).toBe(false);
      expect(after).toEqual(before); // refused: nothing written, and a missing call is not created
    } else {
      expect(written).toBe(true);
      expect(after).toMatchObject(expected);
    }
  });

  it('markAnswered refused returns the call as it stands (no read), its start unchanged; no call for a missing one', async () => {
    // Arrange
    const live = await STATES.in_progress();
    const missing = await STATES.missing();
    // Act
    const again = await calls.markAnswered(live.businessId, live.callId, LATER);
    const none = await calls.markAnswered(missing.businessId, missing.callId, LATER);
    // Assert
    expect(again).toEqual({ written: false, call: await calls.getCallRecord(live.businessId, live.callId) });
    expect(again.call).toMatchObject({ status: 'in_progress', started_at: AT });
    expect(none).toEqual({ written: false, call: undefined });
  });
});

describe('CallRepository.endCall', () => {
  const fields = {
    ended_at: LATER,
    ended_reason: 'caller_hung_up' as const,
    duration_s: 60,
    outcome: null,
    updated_at: LATER,
    ended_event_id: 'evt_1',
  };
  const noSlot = { slotHeld: false, reservedMinutes: undefined };

  it('ends a live call with its detail, in one write', async () => {
    // Arrange
    const { businessId, callId } = await STATES.in_progress();
    const transcript = [{ role: 'user' as const, text: 'Bye', start_ms: 0, end_ms: 500, interrupted: false }];
    // Act
    const result = await calls.endCall(businessId, callId, fields, { ...EMPTY_DETAIL, transcript }, noSlot);
    // Assert
    expect(result).toBe('ended');
    const found = await calls.findCall(businessId, callId, 0);
    expect(found?.call).toMatchObject({ status: 'ended', ended_reason: 'caller_hung_up', duration_s: 60, finish_pending: true });
    expect(found?.detail.transcript).toEqual(transcript);
  });

  it.each([
    ['the call has ended already', 'ended', noSlot],
    ['the slot is not the one the ending saw', 'in_progress', { slotHeld: true, reservedMinutes: undefined }],
    ['the reservation is not the one the ending saw', 'in_progress', { slotHeld: false, reservedMinutes: 3 }],
  ] as const)('writes nothing when %s, and returns the call as it stands', async (_case, state, seen) => {
    // Arrange
    const { businessId, callId } = await STATES[state]();
    const before = await calls.findCall(businessId, callId, 0);
    // Act
    const result = await calls.endCall(businessId, callId, { ...fields, ended_reason: 'error' }, EMPTY_DETAIL, seen);
    // Assert
    expect(result).toEqual({ lost: before?.call });
    expect(await calls.findCall(businessId, callId, 0)).toEqual(before);
  });

  it('returns no call for one that does not exist, and does not create it', async () => {
    // Arrange
    const { businessId, callId } = await STATES.missing();
    // Act
    const result = await calls.endCall(businessId, callId, fields, EMPTY_DETAIL, noSlot);
    // Assert
    expect(result).toEqual({ lost: undefined });
    expect(await calls.getCallRecord(businessId, callId)).toBeUndefined();
  });
});

describe('CallRepository.completeAnalysis', () => {
  it('stores the analysis once; a second run is refused with the first one’s event id and changes nothing', async () => {
    // Arrange
    const { businessId, callId } = await STATES.ended();
    // Act
    const first = await calls.completeAnalysis(
      businessId,
      callId,
      { outcome: 'resolved', summary: 'Booked.' },
      { at: LATER, eventId: 'evt_a' },
    );
    const stored = await calls.getCallRecord(businessId, callId);
    const second = await calls.completeAnalysis(
      businessId,
      callId,
      { outcome: 'unresolved', summary: 'Other.' },
      { at: LATER, eventId: 'evt_b' },
    );
    // Assert
    expect(first).toMatchObject({
      written: true,
      call: { outcome: 'resolved', summary: 'Booked.', completed_event_id: 'evt_a', analysis_completed_at: LATER },
    });
    expect(second).toEqual({ written: false, call: stored });
    expect(await calls.getCallRecord(businessId, callId)).toEqual(stored);
  });

  it('is refused with no call for one that does not exist', async () => {
    // Arrange
    const { businessId, callId } = await STATES.missing();
    // Act
    const result = await calls.completeAnalysis(businessId, callId, { outcome: null }, { at: LATER, eventId: 'evt_c' });
    // Assert
    expect(result).toEqual({ written: false, call: undefined });
  });
});
