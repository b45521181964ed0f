import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { CallSlotsRepository } from '../../../shared/db/call-slots-repository';
import { MinutesRepository } from '../../../shared/db/minutes-repository';
import { keys } from '../../../shared/db/table';
import { carrierTransition } from '../../../shared/domain/carrier-status';
import { defaultAssistantConfig } from '../../../shared/domain/assistant-config';
import type { CallEvent } from '../../../shared/events/catalog';
import { SqsOutboundCallQueue } from '../../../shared/queue/outbound-calls';
import { CallLifecycle } from '../../../shared/services/call-lifecycle';
import { CallSweeper } from '../../../shared/services/call-sweeper';
import { createApiHarness } from '../../support/api-harness';
import { silentLogger } from '../../../shared/log';

async function setup(advanced: Record<string, unknown>, tableName?: string) {
  const harness = await createApiHarness({ tableName });
  const tenant = await harness.newTenant({ minutes: 50 });
  const assistant = (await (await tenant.request('POST', '/assistants', { config: { advanced } })).json()) as { id: number };
  const call = (await (await tenant.request('POST', '/calls', { assistant_id: assistant.id, to: '+14155550123' })).json()) as {
    id: number;
  };
  const events: CallEvent[] = [];
  let clock = Date.parse('2026-11-23T10:00:00.000Z');
  const minutes = new MinutesRepository(harness.core.db);
  const slots = new CallSlotsRepository(harness.core.db);
  const lifecycle = new CallLifecycle({
    calls: harness.core.callRepo,
    assistants: harness.core.assistantRepo,
    minutes,
    slots,
    events: { publish: async (batch) => void events.push(...batch) },
    now: () => new Date(clock),
    newEventId: () => `evt_${events.length + 1}`,
  });
  const advance = (ms: number) => (clock += ms);
  const business = () => harness.core.businesses.getBusiness(tenant.businessId);
  return { harness, tenant, call, events, lifecycle, minutes, slots, advance, business };
}

const transcript = [
  { role: 'user' as const, text: 'Reach me at ana@example.com please', start_ms: 0, end_ms: 2000, interrupted: false },
  { role: 'assistant' as const, text: 'Will do.', start_ms: 2400, end_ms: 3000, interrupted: false },
];

describe('call lifecycle', () => {
  it.each([
    ['ringing', { kind: 'ringing' }],
    ['in-progress', { kind: 'answered' }],
    ['completed', { kind: 'ended', endedReason: 'caller_hung_up' }],
    ['busy', { kind: 'ended', endedReason: 'busy' }],
    ['no-answer', { kind: 'ended', endedReason: 'no_answer' }],
    ['failed', { kind: 'ended', endedReason: 'failed' }],
    ['canceled', { kind: 'ended', endedReason: 'canceled' }],
    ['initiated', { kind: 'ignore' }],
  ])('maps Twilio CallStatus %s', (status, expected) => {
    expect(carrierTransition(status)).toEqual(expected);
  });

  it('moves queued → ringing → in_progress → ended with duration, redaction, keep_days expiry, minutes and events', async () => {
    // Arrange
    const { harness, tenant, call, events, lifecycle, minutes, advance } = await setup({ keep_days: 30, redact: ['email'] });
    await minutes.reserve(tenant.businessId, call.id, 10);
    // Act
    await lifecycle.markRinging(tenant.businessId, call.id);
    advance(3000);
    await lifecycle.markAnswered(tenant.businessId, call.id);
    advance(125_000);
    const ended = await lifecycle.end(tenant.businessId, call.id, { endedReason: 'end_phrase', transcript, metrics: {} });
    const again = await lifecycle.end(tenant.businessId, call.id, { endedReason: 'caller_hung_up' });
    // Assert
    expect([ended, again]).toEqual([true, false]);
    const detail = (await (await tenant.request('GET', `/calls/${call.id}`)).json()) as Record<string, any>;
    expect(detail).toMatchObject({
      status: 'ended',
      ended_reason: 'end_phrase',
      duration_s: 125,
      started_at: '2026-11-23T10:00:03.000Z',
      ended_at: '2026-11-23T10:02:08.000Z',
    });
    expect(detail.transcript[0].text).not.toContain('ana@example.com');
    const expiry = Math.floor(Date.parse('2026-11-23T10:02:08.000Z') / 1000) + 30 * 86_400;
    for (const key of [keys.call(tenant.businessId, call.id), keys.callDetail(tenant.businessId, call.id)]) {
      const item = await harness.core.db.doc.send(new GetCommand({ TableName: harness.core.db.tableName, Key: key }));
      expect(item.Item?.expires_at).toBe(expiry);
    }
    expect(await harness.core.businesses.getBusiness(tenant.businessId)).toMatchObject({ minutes_balance: 47 });
    expect(events.map((event) => event.type)).toEqual(['call.started', 'call.ended']);
  });

  it('takes a refused transfer back: the call keeps no transferred_to, and a later ending is not a transfer', async () => {
    // Arrange
    const { tenant, call, lifecycle } = await setup({});
    await lifecycle.markAnswered(tenant.businessId, call.id);
    await lifecycle.markTransferred(tenant.businessId, call.id, '+15550100999');
    // Act: the carrier refused the redirect
    await lifecycle.transferFailed(tenant.businessId, call.id, '+15550100999');
    await lifecycle.end(tenant.businessId, call.id, { endedReason: 'caller_hung_up' });
    // Assert
    const detail = (await (await tenant.request('GET', `/calls/${call.id}`)).json()) as Record<string, unknown>;
    expect(detail).toMatchObject({ status: 'ended', ended_reason: 'caller_hung_up', transferred_to: null });
  });

  it('with hipaa stores no transcript and no recording', async () => {
    // Arrange
    const { tenant, call, lifecycle } = await setup({ hipaa: true });
    await lifecycle.markAnswered(tenant.businessId, call.id);
    // Act
    await lifecycle.end(tenant.businessId, call.id, { endedReason: 'caller_hung_up', transcript, recordingKey: 'recordings/1/2.wav' });
    // Assert
    const detail = (await (await tenant.request('GET', `/calls/${call.id}`)).json()) as Record<string, any>;
    expect(detail.transcript).toEqual([]);
    expect(detail.recording_url).toBeNull();
  });

  it('follows the config the call ran with when the ending brings it (the assistant is not read again)', async () => {
    // Arrange: the stored assistant keeps transcripts; the config the session ran with is HIPAA.
    const { tenant, call, lifecycle } = await setup({});
    await lifecycle.markAnswered(tenant.businessId, call.id);
    const ranWith = defaultAssistantConfig();
    ranWith.advanced.hipaa = true;
    // Act
    await lifecycle.end(tenant.businessId, call.id, { endedReason: 'caller_hung_up', transcript, config: ranWith });
    // Assert
    const detail = (await (await tenant.request('GET', `/calls/${call.id}`)).json()) as Record<string, any>;
    expect(detail.transcript).toEqual([]);
  });

  it('ends from the call the caller saw last (markAnswered returns it, won or lost): no read, the same duration, still once', async () => {
    // Arrange: the carrier's callback marks the call answered; the session's mark comes second
    const { harness, tenant, call, events, lifecycle, minutes, advance } = await setup({});
    await minutes.reserve(tenant.businessId, call.id, 10);
    advance(1000);
    const first = await lifecycle.markAnswered(tenant.businessId, call.id);
    advance(200);
    const answered = await lifecycle.markAnswered(tenant.businessId, call.id);
    advance(61_000);
    const reads: string[] = [];
    harness.core.db.doc.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'GetItemCommand') reads.push(JSON.stringify((args.input as { Key?: unknown }).Key));
        return next(args);
      },
      { step: 'initialize', name: 'count-reads' },
    );
    // Act
    const ended = await lifecycle.end(tenant.businessId, call.id, {
      endedReason: 'assistant_ended',
      call: answered!,
      config: defaultAssistantConfig(),
    });
    const again = await lifecycle.end(tenant.businessId, call.id, {
      endedReason: 'caller_hung_up',
      call: answered!,
      config: defaultAssistantConfig(),
    });
    harness.core.db.doc.middlewareStack.remove('count-reads');
    // Assert
    // The second mark wrote nothing but brought the call back as the first left it.
    expect(answered).toEqual(first);
    expect(answered).toMatchObject({ status: 'in_progress', started_at: '2026-11-23T10:00:01.000Z' });
    expect(events.filter((event) => event.type === 'call.started')).toHaveLength(1);
    expect([ended, again]).toEqual([true, false]);
    expect(reads).not.toContain(JSON.stringify(keys.call(tenant.businessId, call.id)));
    const detail = (await (await tenant.request('GET', `/calls/${call.id}`)).json()) as Record<string, any>;
    expect(detail).toMatchObject({ status: 'ended', ended_reason: 'assistant_ended', duration_s: 61 });
    expect(await harness.core.businesses.getBusiness(tenant.businessId)).toMatchObject({ minutes_balance: 48 });
  });

  it('a call that never connects ends with its outcome, no duration and no charge', async () => {
    // Arrange
    const { harness, tenant, call, lifecycle } = await setup({});
    // Act
    await lifecycle.end(tenant.businessId, call.id, { endedReason: 'no_answer' });
    // Assert
    const detail = (await (await tenant.request('GET', `/calls/${call.id}`)).json()) as Record<string, any>;
    expect(detail).toMatchObject({ status: 'ended', ended_reason: 'no_answer', outcome: 'no_answer', duration_s: 0, started_at: null });
    expect(await harness.core.businesses.getBusiness(tenant.businessId)).toMatchObject({ minutes_balance: 50 });
  });

  it('tells onEnded about each call it ends, once (the CallsEndedWithError metric counts from it)', async () => {
    // Arrange
    const { harness, tenant, call } = await setup({});
    const ended: string[] = [];
    const lifecycle = new CallLifecycle({
      calls: harness.core.callRepo,
      assistants: harness.core.assistantRepo,
      minutes: new MinutesRepository(harness.core.db),
      events: { publish: async () => undefined },
      now: () => new Date(),
      newEventId: () => 'evt',
      onEnded: (record) => void ended.push(String(record.ended_reason)),
    });
    // Act
    await lifecycle.end(tenant.businessId, call.id, { endedReason: 'error' });
    await lifecycle.end(tenant.businessId, call.id, { endedReason: 'caller_hung_up' });
    // Assert
    expect(ended).toEqual(['error']);
  });

  it("gives the call's concurrency slot back exactly once, however many endings race", async () => {
    // Arrange
    const { tenant, call, lifecycle, slots, business } = await setup({});
    await slots.acquire(tenant.businessId, call.id);
    // Act
    const ended = await Promise.all([
      lifecycle.end(tenant.businessId, call.id, { endedReason: 'caller_hung_up' }),
      lifecycle.end(tenant.businessId, call.id, { endedReason: 'error' }),
    ]);
    await lifecycle.end(tenant.businessId, call.id, { endedReason: 'caller_hung_up' });
    // Assert
    expect(ended.filter(Boolean)).toHaveLength(1);
    expect(await business()).toMatchObject({ live_calls: 0 });
  });

  it('gives back a slot an earlier ending left held (it ended without the slots dependency)', async () => {
    // Arrange
    const { harness, tenant, call, lifecycle, minutes, slots, business } = await setup({});
    await slots.acquire(tenant.businessId, call.id);
    const withoutSlots = new CallLifecycle({
      calls: harness.core.callRepo,
      assistants: harness.core.assistantRepo,
      minutes,
      events: { publish: async () => undefined },
      now: () => new Date(),
      newEventId: () => 'evt',
    });
    await withoutSlots.end(tenant.businessId, call.id, { endedReason: 'caller_hung_up' });
    // Act
    const again = await lifecycle.end(tenant.businessId, call.id, { endedReason: 'caller_hung_up' });
    // Assert
    expect(again).toBe(false);
    expect(await business()).toMatchObject({ live_calls: 0 });
  });

  it('the sweeper ending a call with a stale heartbeat frees its slot', async () => {
    // Arrange
    // A table of its own: a sweep reads every open call of its table, and must not end other tests' calls.
    const { harness, tenant, call, lifecycle, slots, advance, business } = await setup({}, `lifecycle-sweep-${randomUUID()}`);
    await slots.acquire(tenant.businessId, call.id);
    await lifecycle.markAnswered(tenant.businessId, call.id);
    advance(10 * 60_000);
    const sweeper = new CallSweeper({
      calls: harness.core.callRepo,
      lifecycle,
      queue: new SqsOutboundCallQueue(harness.sqs, harness.queueUrl),
      now: () => new Date('2026-11-23T10:10:00.000Z'),
      log: silentLogger,
    });
    // Act
    const report = await sweeper.sweepOnce();
    // Assert
    expect(report.ended.heartbeat_stale).toBe(1);
    expect(await harness.core.callRepo.getCallRecord(tenant.businessId, call.id)).toMatchObject({
      status: 'ended',
      ended_reason: 'error',
      slot_released: true,
    });
    expect(await business()).toMatchObject({ live_calls: 0 });
  });
});
