import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import type { SessionHandle, SessionStart } from '../../../media-service/src/call/session-types';
import {
  ACTIVE_CALLS_DIMENSION,
  ACTIVE_CALLS_METRIC_NAME,
  ACTIVE_CALLS_NAMESPACE,
  activeCallsEmf,
  CALLS_ENDED_WITH_ERROR_METRIC_NAME,
  callEndedWithErrorEmf,
} from '../../../shared/metrics/active-calls-metric';
import { MediaServer } from '../../../media-service/src/server/media-server';
import { SessionRegistry } from '../../../media-service/src/server/session-registry';
import { signStreamToken } from '../../../media-service/src/telephony/stream-token';
import { twilioSignature } from '../../../media-service/src/telephony/twilio-signature';
import { ACTIVE_CALLS_METRIC, CALLS_ENDED_WITH_ERROR_METRIC, METRIC_NAMESPACE, STAGE_DIMENSION } from '../../../infra/constants';
import { MinutesRepository } from '../../../shared/db/minutes-repository';
import { CallLifecycle } from '../../../shared/services/call-lifecycle';
import { createApiHarness } from '../../support/api-harness';
import { captureLogger } from '../../support/capture-logger';

const AUTH_TOKEN = 'twilio-auth-token';
const SECRET = 'stream-token-secret';
/** The public origin behind the load balancer: signatures are over it, never over 127.0.0.1. */
const BASE = 'https://media.example.com';
const STREAM_URL = 'wss://media.example.com/twilio/media';
const NOW = Date.parse('2026-11-23T10:00:00.000Z');

/** A session stand-in: `finish()` ends it; `stop` (observed) ends it too. */
function fakeSession(input: SessionStart) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const handle = {
    callId: input.claims.callId,
    businessId: input.claims.businessId,
    onAmd: vi.fn(),
    stop: vi.fn(() => finish()),
    done,
  } satisfies SessionHandle;
  return { input, handle, finish };
}

const servers: MediaServer[] = [];
afterEach(async () => void (await Promise.all(servers.splice(0).map((server) => server.close()))));

async function setup() {
  const harness = await createApiHarness();
  const tenant = await harness.newTenant({ minutes: 50 });
  const assistant = (await (await tenant.request('POST', '/assistants', {})).json()) as { id: number };
  const call = (await (await tenant.request('POST', '/calls', { assistant_id: assistant.id, to: '+14155550123' })).json()) as {
    id: number;
  };
  const now = () => new Date(NOW);
  const lifecycle = new CallLifecycle({
    calls: harness.core.callRepo,
    assistants: harness.core.assistantRepo,
    minutes: new MinutesRepository(harness.core.db),
    events: { publish: async () => undefined },
    now,
    newEventId: () => 'evt_1',
  });
  let deadline: (() => void) | undefined;
  const registry = new SessionRegistry({ timer: (run) => ((deadline = run), () => (deadline = undefined)) });
  const sessions: ReturnType<typeof fakeSession>[] = [];
  const waiting: (() => void)[] = [];
  const started = vi.fn((input: SessionStart) => {
    const session = fakeSession(input);
    sessions.push(session);
    waiting.shift()?.();
    return session.handle;
  });
  /** Resolves when the next session starts. */
  const sessionStarted = () => new Promise<void>((resolve) => waiting.push(resolve));
  const logs = captureLogger();
  const server = await MediaServer.start(
    {
      twilio: {
        catalog: harness.core.catalog,
        businesses: harness.core.businesses,
        assistants: harness.core.assistantRepo,
        calls: harness.core.callRepo,
        ids: harness.core.ids,
        minutes: new MinutesRepository(harness.core.db),
        lifecycle,
        authToken: AUTH_TOKEN,
        publicBaseUrl: BASE,
        streamTokenSecret: SECRET,
        now,
        log: logs.log,
      },
      startSession: started,
      registry,
      log: logs.log,
    },
    0,
    '127.0.0.1',
  );
  servers.push(server);
  const local = `http://127.0.0.1:${server.port}`;
  const post = (path: string, form: Record<string, string>, signature = twilioSignature(AUTH_TOKEN, BASE + path, form)) =>
    fetch(local + path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
      body: new URLSearchParams(form).toString(),
    });
  const token = (callId = call.id, expiresAt = NOW + 60_000) =>
    signStreamToken(SECRET, { callId, businessId: tenant.businessId, expiresAt });
  return {
    harness,
    tenant,
    call,
    server,
    registry,
    sessions,
    started,
    sessionStarted,
    logs,
    local,
    post,
    token,
    fireDeadline: () => deadline?.(),
  };
}

/** Opens a media stream like Twilio: signed upgrade, `connected`, then `start` with our parameters. */
function openStream(local: string, parameters: Record<string, string> | undefined, signature = twilioSignature(AUTH_TOKEN, STREAM_URL)) {
  const ws = new WebSocket(`${local.replace('http', 'ws')}/twilio/media`, { headers: { 'x-twilio-signature': signature } });
  const outcome = new Promise<{ status?: number; closeCode?: number }>((resolve) => {
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
    ws.on('close', (code) => resolve({ closeCode: code }));
    ws.on('error', () => undefined);
  });
  ws.on('open', () => {
    ws.send(JSON.stringify({ event: 'connected', protocol: 'Call', version: '1.0.0' }));
    if (!parameters) return;
    const start = {
      accountSid: 'AC1',
      streamSid: 'MZ1',
      callSid: 'CA1',
      tracks: ['inbound'],
      customParameters: parameters,
      mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
    };
    ws.send(JSON.stringify({ event: 'start', sequenceNumber: '1', start, streamSid: 'MZ1' }));
  });
  return { ws, outcome };
}

describe('media server: stream upgrades', () => {
  it('refuses an upgrade with a forged signature with 403', async () => {
    // Arrange
    const { local, token, call, started } = await setup();
    // Act
    const { outcome } = openStream(local, { call_id: String(call.id), token: token() }, 'forged');
    // Assert
    expect(await outcome).toEqual({ status: 403 });
    expect(started).not.toHaveBeenCalled();
  });

  it.each([
    ['a tampered token', (t: string) => `${t}x`, undefined],
    ['an expired token', () => signStreamToken(SECRET, { callId: 1, businessId: 1, expiresAt: NOW - 1 }), undefined],
    ['a token for another call', undefined, 'other-call'],
  ])('closes a stream carrying %s with 1008 and starts no session', async (_name, tamper, variant) => {
    // Arrange
    const { local, token, call, started, logs } = await setup();
    const good = token();
    const parameters =
      variant === 'other-call' ? { call_id: String(call.id + 1), token: good } : { call_id: String(call.id), token: tamper!(good) };
    // Act
    const { outcome } = openStream(local, parameters);
    // Assert
    expect(await outcome).toEqual({ closeCode: 1008 });
    expect(started).not.toHaveBeenCalled();
    expect(logs.messages()).toContain('media.stream.refused');
  });

  it('hands a verified stream to a new session and registers it', async () => {
    // Arrange
    const { local, token, call, tenant, sessions, server, sessionStarted } = await setup();
    // Act
    const first = sessionStarted();
    const { ws } = openStream(local, { call_id: String(call.id), token: token() });
    await first;
    // Assert
    expect(sessions[0]!.input.claims).toMatchObject({ callId: call.id, businessId: tenant.businessId });
    expect(sessions[0]!.input.start).toMatchObject({ type: 'start', streamSid: 'MZ1', callSid: 'CA1' });
    expect(server.registry.get(call.id)).toBe(sessions[0]!.handle);
    sessions[0]!.finish();
    await sessions[0]!.handle.done;
    expect(server.registry.size).toBe(0);
    ws.close();
  });

  it('survives garbage on the socket and on unknown paths', async () => {
    // Arrange
    const { local, started } = await setup();
    const { ws } = openStream(local, undefined);
    await new Promise((resolve) => ws.once('open', resolve));
    // Act
    ws.send('{not json');
    ws.send(Buffer.from([1, 2, 3]));
    const unknown = await fetch(`${local}/nowhere`, { method: 'POST', body: '%%%' });
    const health = await fetch(`${local}/health`);
    // Assert
    expect(unknown.status).toBe(404);
    expect(health.status).toBe(200);
    expect(started).not.toHaveBeenCalled();
    ws.close();
  });
});

describe('media server: callbacks, health and drain', () => {
  it('stores a signed AMD verdict and hands it to the live session; a forged one is 403', async () => {
    // Arrange
    const { local, token, call, tenant, harness, sessions, post, sessionStarted } = await setup();
    const first = sessionStarted();
    openStream(local, { call_id: String(call.id), token: token() });
    await first;
    const path = `/twilio/amd/${tenant.businessId}/${call.id}`;
    // Act
    const forged = await post(path, { CallSid: 'CA1', AnsweredBy: 'human' }, 'forged');
    const signed = await post(path, { CallSid: 'CA1', AnsweredBy: 'machine_end_beep', MachineDetectionDuration: '4200' });
    // Assert
    expect(forged.status).toBe(403);
    expect(signed.status).toBe(204);
    expect(sessions[0]!.handle.onAmd).toHaveBeenCalledExactlyOnceWith('machine_end_beep');
    expect(await harness.core.callRepo.getCallRecord(tenant.businessId, call.id)).toMatchObject({ answered_by: 'machine_end_beep' });
  });

  it('does not end a call whose session is running on a completed status; busy still ends it', async () => {
    // Arrange
    const { local, token, call, tenant, harness, post, sessionStarted } = await setup();
    const first = sessionStarted();
    openStream(local, { call_id: String(call.id), token: token() });
    await first;
    // Act
    const completed = await post(`/twilio/status/${tenant.businessId}/${call.id}`, { CallSid: 'CA1', CallStatus: 'completed' });
    const afterCompleted = await harness.core.callRepo.getCallRecord(tenant.businessId, call.id);
    await post(`/twilio/status/${tenant.businessId}/${call.id}`, { CallSid: 'CA1', CallStatus: 'busy' });
    // Assert
    expect(completed.status).toBe(204);
    expect(afterCompleted?.status).not.toBe('ended');
    expect(await harness.core.callRepo.getCallRecord(tenant.businessId, call.id)).toMatchObject({ status: 'ended', ended_reason: 'busy' });
  });

  it('reports health, then drains: 503, new streams refused with 1013, running ones waited for', async () => {
    // Arrange
    const { local, token, call, started, sessions, server, sessionStarted } = await setup();
    const first = sessionStarted();
    openStream(local, { call_id: String(call.id), token: token() });
    await first;
    const healthy = await fetch(`${local}/health`);
    // Act
    server.beginDraining();
    let drained = false;
    const drain = server.registry.drain(60_000).then(() => (drained = true));
    const refused = await openStream(local, { call_id: String(call.id), token: token() }).outcome;
    const draining = await fetch(`${local}/health`);
    // Assert
    expect(healthy.status).toBe(200);
    expect(await healthy.json()).toEqual({ active_calls: 1, draining: false });
    expect(refused).toEqual({ closeCode: 1013 });
    expect(draining.status).toBe(503);
    expect(await draining.json()).toEqual({ active_calls: 1, draining: true });
    expect(drained).toBe(false);
    sessions[0]!.finish();
    await drain;
    expect(started).toHaveBeenCalledTimes(1);
  });

  it('stops sessions still running at the drain deadline', async () => {
    // Arrange
    const { local, token, call, sessions, server, fireDeadline, sessionStarted } = await setup();
    const first = sessionStarted();
    openStream(local, { call_id: String(call.id), token: token() });
    await first;
    const drain = server.registry.drain(60_000);
    // Act
    fireDeadline();
    await drain;
    // Assert
    expect(sessions[0]!.handle.stop).toHaveBeenCalledWith('canceled');
    expect(server.registry.size).toBe(0);
  });
});

describe('ActiveCalls metric', () => {
  it('uses the namespace, metric and dimension infra autoscales on', () => {
    // Arrange / Act
    const line = JSON.parse(activeCallsEmf('prod', 3, NOW)) as Record<string, unknown>;
    // Assert
    expect([ACTIVE_CALLS_NAMESPACE, ACTIVE_CALLS_METRIC_NAME, ACTIVE_CALLS_DIMENSION]).toEqual([
      METRIC_NAMESPACE,
      ACTIVE_CALLS_METRIC,
      STAGE_DIMENSION,
    ]);
    expect(line).toMatchObject({
      Stage: 'prod',
      ActiveCalls: 3,
      _aws: { CloudWatchMetrics: [{ Namespace: 'VoiceAgent', Dimensions: [['Stage']] }] },
    });
  });
});

describe('CallsEndedWithError metric', () => {
  it('counts one per call under the name and dimension the ops alarm watches', () => {
    // Arrange / Act
    const line = JSON.parse(callEndedWithErrorEmf('prod', NOW)) as Record<string, unknown>;
    // Assert
    expect(CALLS_ENDED_WITH_ERROR_METRIC_NAME).toBe(CALLS_ENDED_WITH_ERROR_METRIC);
    expect(line).toMatchObject({
      Stage: 'prod',
      CallsEndedWithError: 1,
      _aws: { CloudWatchMetrics: [{ Namespace: METRIC_NAMESPACE, Dimensions: [[STAGE_DIMENSION]] }] },
    });
  });
});
