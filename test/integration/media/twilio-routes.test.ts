import { describe, expect, it, vi } from 'vitest';
import { twilioRoutes } from '../../../media-service/src/http/twilio-routes';
import { verifyStreamToken } from '../../../media-service/src/telephony/stream-token';
import { twilioSignature } from '../../../media-service/src/telephony/twilio-signature';
import { CallSlotsRepository } from '../../../shared/db/call-slots-repository';
import { MinutesRepository } from '../../../shared/db/minutes-repository';
import type { CallEvent } from '../../../shared/events/catalog';
import { CallLifecycle } from '../../../shared/services/call-lifecycle';
import { createApiHarness, uniqueNumber } from '../../support/api-harness';
import { silentLogger } from '../../../shared/log';

const AUTH_TOKEN = 'twilio-auth-token';
const BASE = 'https://media.example.com';

async function setup(live: { hasLiveSession?: (callId: number) => boolean; onAmd?: (callId: number, answeredBy: string) => void } = {}) {
  const harness = await createApiHarness();
  const tenant = await harness.newTenant({ numbers: 0 });
  const assistant = (await (await tenant.request('POST', '/assistants', {})).json()) as { id: number };
  const number = await harness.admin.addNumber(tenant.businessId, {
    number: uniqueNumber(),
    provider: 'twilio',
    assistantId: null,
    label: '',
  });
  const events: CallEvent[] = [];
  const now = () => new Date('2026-11-23T10:00:00.000Z');
  const slots = new CallSlotsRepository(harness.core.db);
  const lifecycle = new CallLifecycle({
    calls: harness.core.callRepo,
    assistants: harness.core.assistantRepo,
    minutes: new MinutesRepository(harness.core.db),
    slots,
    events: { publish: async (batch) => void events.push(...batch) },
    now,
    newEventId: () => `evt_${events.length}`,
  });
  const app = twilioRoutes({
    catalog: harness.core.catalog,
    businesses: harness.core.businesses,
    assistants: harness.core.assistantRepo,
    calls: harness.core.callRepo,
    ids: harness.core.ids,
    minutes: new MinutesRepository(harness.core.db),
    slots,
    lifecycle,
    authToken: AUTH_TOKEN,
    publicBaseUrl: BASE,
    streamTokenSecret: 'stream-secret',
    now,
    log: silentLogger,
    ...live,
  });
  const post = (path: string, form: Record<string, string>, signature = twilioSignature(AUTH_TOKEN, BASE + path, form)) =>
    app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
      body: new URLSearchParams(form).toString(),
    });
  return { harness, tenant, assistant, number, events, lifecycle, post };
}

describe('Twilio HTTP callbacks', () => {
  it('answers a signed inbound voice webhook with a stream carrying the call id and a valid token', async () => {
    // Arrange
    const { tenant, assistant, number, events, post } = await setup();
    // Act
    const response = await post('/twilio/voice', {
      CallSid: 'CA1',
      From: '+14155550100',
      To: number.number,
      Direction: 'inbound',
      CallStatus: 'ringing',
    });
    // Assert
    expect(response.status).toBe(200);
    const twiml = await response.text();
    expect(twiml).toContain('<Connect><Stream url="wss://media.example.com/twilio/media">');
    const callId = Number(/name="call_id" value="(\d+)"/.exec(twiml)![1]);
    const token = /name="token" value="([^"]+)"/.exec(twiml)![1]!;
    expect(verifyStreamToken('stream-secret', token, Date.parse('2026-11-23T10:00:30.000Z'))).toMatchObject({
      callId,
      businessId: tenant.businessId,
    });
    const call = (await (await tenant.request('GET', `/calls/${callId}`)).json()) as Record<string, unknown>;
    expect(call).toMatchObject({ direction: 'inbound', status: 'in_progress', assistant_id: assistant.id, from_number: '+14155550100' });
    expect(events.map((event) => event.type)).toEqual(['call.started']);
  });

  it('at the concurrency cap apologises, hangs up and records the call ended failed; a freed slot takes the next caller', async () => {
    // Arrange
    const { harness, tenant, number, lifecycle, post } = await setup();
    await harness.admin.setMaxConcurrentCalls(tenant.businessId, 1);
    const voice = (sid: string) =>
      post('/twilio/voice', { CallSid: sid, From: '+14155550100', To: number.number, Direction: 'inbound', CallStatus: 'ringing' });
    const first = await (await voice('CA-cap-1')).text();
    // Act
    const refused = await (await voice('CA-cap-2')).text();
    await lifecycle.end(tenant.businessId, Number(/name="call_id" value="(\d+)"/.exec(first)![1]), { endedReason: 'caller_hung_up' });
    const next = await (await voice('CA-cap-3')).text();
    // Assert
    expect(refused).toContain('<Say>Sorry, we cannot take your call right now.');
    expect(refused).not.toContain('<Stream');
    expect(next).toContain('<Connect><Stream');
    const calls = ((await (await tenant.request('GET', '/calls')).json()) as { data: Record<string, unknown>[] }).data;
    expect(calls.map((call) => [call.status, call.ended_reason])).toEqual([
      ['in_progress', null],
      ['ended', 'failed'],
      ['ended', 'caller_hung_up'],
    ]);
    expect(await harness.core.businesses.getBusiness(tenant.businessId)).toMatchObject({ live_calls: 1 });
  });

  it('refuses a bad signature with 403 and records nothing', async () => {
    // Arrange
    const { tenant, number, post } = await setup();
    // Act
    const response = await post('/twilio/voice', { CallSid: 'CA2', From: '+14155550100', To: number.number }, 'forged');
    // Assert
    expect(response.status).toBe(403);
    expect(((await (await tenant.request('GET', '/calls')).json()) as { data: unknown[] }).data).toEqual([]);
  });

  it('apologises and hangs up for a number nobody owns', async () => {
    // Arrange
    const { post } = await setup();
    // Act
    const response = await post('/twilio/voice', { CallSid: 'CA3', From: '+14155550100', To: '+19999999999' });
    // Assert
    expect(await response.text()).toContain('<Say>Sorry, we cannot take your call right now.');
  });

  it('ends an outbound call busy from a signed status callback', async () => {
    // Arrange
    const { tenant, assistant, number, post } = await setup();
    const call = (await (
      await tenant.request('POST', '/calls', { assistant_id: assistant.id, to: '+14155550123', phone_number_id: number.id })
    ).json()) as { id: number };
    const path = `/twilio/status/${tenant.businessId}/${call.id}`;
    // Act
    await post(path, { CallSid: 'CA4', CallStatus: 'ringing' });
    const response = await post(path, { CallSid: 'CA4', CallStatus: 'busy' });
    // Assert
    expect(response.status).toBe(204);
    const stored = (await (await tenant.request('GET', `/calls/${call.id}`)).json()) as Record<string, unknown>;
    expect(stored).toMatchObject({ status: 'ended', ended_reason: 'busy', outcome: 'busy', duration_s: 0 });
    // A call that never connected still has the documented metrics, empty.
    expect(stored.metrics).toEqual({
      turns: [],
      interruptions: 0,
      latency_ms: { p50: null, p95: null, max: null },
      llm_tokens: { input: 0, output: 0 },
      tts_characters: 0,
      stt_seconds: 0,
      duration_s: 0,
    });
  });

  it.each([
    ['leaves a completed call with a live media session to the session', 'completed', true, 'in_progress'],
    ['ends a completed call when no session runs here', 'completed', false, 'ended'],
    ['ends a no-answer call even with a live session', 'no-answer', true, 'ended'],
  ])('%s', async (_name, status, live, expected) => {
    // Arrange
    const { tenant, assistant, number, post } = await setup({ hasLiveSession: () => live });
    const call = (await (
      await tenant.request('POST', '/calls', { assistant_id: assistant.id, to: '+14155550123', phone_number_id: number.id })
    ).json()) as { id: number };
    const path = `/twilio/status/${tenant.businessId}/${call.id}`;
    await post(path, { CallSid: 'CA5', CallStatus: 'in-progress' });
    // Act
    const response = await post(path, { CallSid: 'CA5', CallStatus: status });
    // Assert
    expect(response.status).toBe(204);
    expect(((await (await tenant.request('GET', `/calls/${call.id}`)).json()) as { status: string }).status).toBe(expected);
  });

  it.each([
    ['records, and leaves to its session, a completed call whose stream runs on another task (fresh heartbeat)', 30_000, 'in_progress'],
    ['ends a completed call whose session on another task died (heartbeat older than the sweeper limit)', 150_000, 'ended'],
  ])('%s', async (_name, heartbeatAgeMs, expected) => {
    // Arrange: no session here (hasLiveSession false), but the call's stream is attached elsewhere
    const { harness, tenant, assistant, number, post } = await setup({ hasLiveSession: () => false });
    const call = (await (
      await tenant.request('POST', '/calls', { assistant_id: assistant.id, to: '+14155550123', phone_number_id: number.id })
    ).json()) as { id: number };
    const path = `/twilio/status/${tenant.businessId}/${call.id}`;
    await post(path, { CallSid: 'CA6', CallStatus: 'in-progress' });
    const beat = new Date(Date.parse('2026-11-23T10:00:00.000Z') - heartbeatAgeMs).toISOString();
    await harness.core.callRepo.attachStream(tenant.businessId, call.id, 'CA6', beat);
    // Act
    const response = await post(path, { CallSid: 'CA6', CallStatus: 'completed' });
    // Assert
    expect(response.status).toBe(204);
    const stored = await harness.core.callRepo.getCallRecord(tenant.businessId, call.id);
    expect(stored?.status).toBe(expected);
    if (expected === 'in_progress') expect(stored?.carrier_completed_at).toBe('2026-11-23T10:00:00.000Z');
  });

  it('stores a signed AMD verdict and hands it to the session; forged, malformed or unknown-call verdicts change nothing', async () => {
    // Arrange
    const onAmd = vi.fn();
    const { tenant, assistant, number, post, harness } = await setup({ onAmd });
    const call = (await (
      await tenant.request('POST', '/calls', { assistant_id: assistant.id, to: '+14155550123', phone_number_id: number.id })
    ).json()) as { id: number };
    const path = `/twilio/amd/${tenant.businessId}/${call.id}`;
    // Act
    const forged = await post(path, { CallSid: 'CA6', AnsweredBy: 'human' }, 'forged');
    const malformed = await post(path, { CallSid: 'CA6', AnsweredBy: 'robot' });
    const unknown = await post(`/twilio/amd/${tenant.businessId}/999999999`, { CallSid: 'CA6', AnsweredBy: 'human' });
    const signed = await post(path, { CallSid: 'CA6', AnsweredBy: 'machine_start' });
    // Assert
    expect([forged.status, malformed.status, unknown.status, signed.status]).toEqual([403, 400, 204, 204]);
    expect(onAmd).toHaveBeenCalledExactlyOnceWith(call.id, 'machine_start');
    expect(await harness.core.callRepo.getCallRecord(tenant.businessId, call.id)).toMatchObject({ answered_by: 'machine_start' });
  });
});
