import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAdminService, createCoreDeps, type CoreDeps } from '../../../functions/lib/deps';
import { ApiConfigSchema, type ApiConfig } from '../../../functions/lib/config';
import { OpenAiSandboxServer } from '../../../media-service/src/sandbox/openai-server';
import { startLocalAfterCall, type ScheduleTimer } from '../../../scripts/local/after-call';
import { readConfig } from '../../../shared/config';
import { DeliveryRepository } from '../../../shared/db/delivery-repository';
import { defaultAssistantConfig } from '../../../shared/domain/assistant-config';
import type { CallEvent } from '../../../shared/events/catalog';
import { captureLogger } from '../../support/capture-logger';

interface Hit {
  headers: IncomingHttpHeaders;
  body: string;
}

const config: ApiConfig = readConfig(ApiConfigSchema, {
  TABLE_NAME: inject('tableName'),
  DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
  OUTBOUND_QUEUE_URL: 'unused-by-the-after-call-pipeline',
  LOCAL_SECRET_KEY: 'local-after-call-test',
  ALLOW_PRIVATE_URLS: 'true',
  REQUIRE_HTTPS_URLS: 'false',
});
const core: CoreDeps = createCoreDeps(config);
let openai: OpenAiSandboxServer;
let receiver: Server;
let receiverUrl: string;
let business: { business_id: number; webhook_secret: string };
let statusPlan: number[] = [];
const hits: Hit[] = [];
const hitWaiters: Array<() => void> = [];

/** Resolves once the receiver has seen `count` requests (no sleeping). */
function hitCount(count: number): Promise<Hit[]> {
  return new Promise((resolve) => {
    const check = () => (hits.length >= count ? resolve(hits.slice(0, count)) : hitWaiters.push(check));
    check();
  });
}

/** A manual timer: the test decides when a scheduled webhook retry runs. */
function manualTimers() {
  const scheduled: Array<{ run: () => void; delayMs: number }> = [];
  let notify: (() => void) | undefined;
  const schedule: ScheduleTimer = (run, delayMs) => {
    scheduled.push({ run, delayMs });
    notify?.();
    return () => undefined;
  };
  const next = () =>
    new Promise<{ run: () => void; delayMs: number }>((resolve) => {
      const check = () => (scheduled.length > 0 ? resolve(scheduled.shift()!) : (notify = check));
      check();
    });
  return { schedule, next };
}

beforeAll(async () => {
  openai = await OpenAiSandboxServer.start({ ttftMs: 0, tokenIntervalMs: 0 });
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      response.writeHead(statusPlan.shift() ?? 204).end();
      hits.push({ headers: request.headers, body });
      for (const waiter of hitWaiters.splice(0)) waiter();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  business = await createAdminService(core, 'test').createBusiness(`After-call ${randomUUID().slice(0, 8)}`, 100);
});

afterAll(async () => {
  await openai.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** An assistant subscribed to call.completed at the receiver (or to nothing), and an ended call with a conversation. */
async function seedEndedCall(subscribed = true): Promise<CallEvent> {
  const businessId = business.business_id;
  const [assistantId, callId] = [await core.ids.nextId(), await core.ids.nextId()];
  const base = defaultAssistantConfig();
  const now = new Date().toISOString();
  await core.assistantRepo.insertAssistant(businessId, {
    id: assistantId,
    name: 'Front desk',
    created_at: now,
    updated_at: now,
    config: subscribed ? { ...base, advanced: { ...base.advanced, server_url: receiverUrl, server_events: ['call.completed'] } } : base,
  });
  await core.callRepo.insertCall({
    id: callId,
    business_id: businessId,
    assistant_id: assistantId,
    channel: 'phone',
    direction: 'inbound',
    from_number: '+15550100009',
    to_number: '+15550100001',
    started_at: now,
    ended_at: now,
    duration_s: 48,
    status: 'ended',
    outcome: null,
    ended_reason: 'caller_hung_up',
    summary: '',
    intent: '',
    caller_name: null,
    score: null,
    analysis: {},
    created_at: now,
    updated_at: now,
    phone_number_id: null,
    variables: {},
  });
  await core.callRepo.putCallDetail(businessId, callId, {
    transcript: [
      { role: 'assistant', text: 'Thanks for calling, how can I help?', start_ms: 0, end_ms: 1800, interrupted: false },
      {
        role: 'user',
        text: 'I would like to book a cleaning next Tuesday. My name is Ana.',
        start_ms: 2100,
        end_ms: 5200,
        interrupted: false,
      },
    ],
    metrics: {},
    recording_key: null,
  });
  return {
    type: 'call.ended',
    detail: { event_id: `evt_${randomUUID()}`, business_id: businessId, call_id: callId, assistant_id: assistantId, occurred_at: now },
  };
}

const verify = (hit: Hit) =>
  new Webhook(business.webhook_secret).verify(hit.body, {
    'webhook-id': String(hit.headers['webhook-id']),
    'webhook-timestamp': String(hit.headers['webhook-timestamp']),
    'webhook-signature': String(hit.headers['webhook-signature']),
  }) as { type: string; data: Record<string, unknown> };

describe('startLocalAfterCall', () => {
  it('call.ended → analysis stored → a call.completed webhook that verifies with standardwebhooks', async () => {
    // Arrange
    hits.length = 0;
    statusPlan = [];
    const afterCall = await startLocalAfterCall(core, config, { openAiBaseUrl: openai.baseUrl });
    const ended = await seedEndedCall();

    // Act
    await afterCall.events.publish([ended]);
    const [hit] = await hitCount(1);
    await afterCall.stop();

    // Assert
    const event = verify(hit!);
    const stored = await core.callRepo.getCallRecord(ended.detail.business_id, ended.detail.call_id);
    expect(event.type).toBe('call.completed');
    expect(event.data).toMatchObject({ id: ended.detail.call_id, status: 'ended', summary: stored!.summary });
    expect(stored!.analysis_completed_at).toEqual(expect.any(String));
    expect(stored!.summary).not.toBe('');
    expect(stored!.outcome).not.toBeNull();
    expect(stored!.analysis).toHaveProperty('success_evaluation');
    expect(openai.requests.some((request) => request.path.endsWith('/chat/completions'))).toBe(true);
  });

  it('never hands call.completed of an assistant with no subscription to delivery; the subscribed one arrives', async () => {
    // Arrange
    hits.length = 0;
    statusPlan = [];
    const logs = captureLogger();
    const afterCall = await startLocalAfterCall(core, config, { openAiBaseUrl: openai.baseUrl, log: logs.log });
    const [unsubscribed, subscribed] = [await seedEndedCall(false), await seedEndedCall(true)];

    // Act
    await afterCall.events.publish([unsubscribed, subscribed]);
    await hitCount(1);
    await afterCall.stop();

    // Assert
    expect(hits.map((hit) => verify(hit).data.id)).toEqual([subscribed.detail.call_id]);
    const analysed = await core.callRepo.getCallRecord(unsubscribed.detail.business_id, unsubscribed.detail.call_id);
    expect(analysed!.analysis_completed_at).toEqual(expect.any(String));
    expect(logs.messages()).not.toContain('webhook.not_subscribed');
  });

  it('retries a failed delivery after 5 s (the schedule’s first step) with the same webhook-id', async () => {
    // Arrange
    hits.length = 0;
    statusPlan = [503];
    let clock = Date.now();
    const timers = manualTimers();
    const afterCall = await startLocalAfterCall(core, config, {
      openAiBaseUrl: openai.baseUrl,
      schedule: timers.schedule,
      now: () => new Date(clock),
      random: () => 0.5,
    });
    const ended = await seedEndedCall();

    // Act
    await afterCall.events.publish([ended]);
    const retry = await timers.next();
    clock += retry.delayMs;
    retry.run();
    const [first, second] = await hitCount(2);
    await afterCall.stop();

    // Assert
    expect(retry.delayMs).toBe(5000);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(verify(second!).type).toBe('call.completed');
    const record = await new DeliveryRepository(core.db).findDelivery(
      ended.detail.business_id,
      ended.detail.call_id,
      String(first!.headers['webhook-id']),
    );
    expect(record).toMatchObject({ state: 'delivered', attempts: [{ status: 503 }, { status: expect.any(Number) }] });
  });
});
