import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateQueueCommand, DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { analyzeCall } from '../../../functions/analysis/analyze-call';
import { deliverRecord, type DeliverDeps } from '../../../functions/webhook-delivery/deliver';
import { processBatch } from '../../../functions/webhook-delivery/process-batch';
import { SqsWebhookQueue } from '../../../shared/queue/webhook-queue';
import { AssistantRepository } from '../../../shared/db/assistant-repository';
import { BusinessRepository } from '../../../shared/db/business-repository';
import { CallerMemoryRepository } from '../../../shared/db/caller-memory-repository';
import { CallRepository, type CallRecord } from '../../../shared/db/call-repository';
import { createDb } from '../../../shared/db/client';
import { DeliveryRepository } from '../../../shared/db/delivery-repository';
import { defaultAssistantConfig, type AssistantConfig } from '../../../shared/domain/assistant-config';
import type { EventType } from '../../../shared/events/catalog';
import { LocalEventRouter } from '../../../shared/events/event-bus';
import { LocalSecretBox } from '../../../shared/security/secret-box';
import { webhookSecretContext } from '../../../shared/services/admin-service';
import { generateWebhookSecret } from '../../../shared/webhooks/secret';
import { silentLogger } from '../../../shared/log';
import { captureLogger } from '../../support/capture-logger';
import { strictResponseErrors } from '../../support/openapi-strict';

interface Hit {
  headers: IncomingHttpHeaders;
  body: string;
}

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
const sqs = new SQSClient({
  region: 'us-east-1',
  endpoint: inject('sqsEndpoint'),
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
const secretBox = new LocalSecretBox('after-call-webhook-test');
const businessId = 900_000 + Math.floor(Math.random() * 90_000);
const secret = generateWebhookSecret();
let receiver: Server;
let receiverUrl: string;
const hits: Hit[] = [];
let statusPlan: number[] = [];
let queueUrl: string;
let nextId = 1;
let clock = Date.now();

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      hits.push({ headers: request.headers, body });
      response.writeHead(statusPlan.shift() ?? 204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const queue = await sqs.send(new CreateQueueCommand({ QueueName: `webhooks-${businessId}` }));
  queueUrl = queue.QueueUrl!;
  await new BusinessRepository(db).putBusiness({
    id: businessId,
    name: 'Webhook Test Co',
    created_at: new Date().toISOString(),
    minutes_balance: 100,
    minutes_reserved: 0,
    max_concurrent_calls: 10,
    profile: {} as never,
    webhook_secret_sealed: await secretBox.seal(secret, webhookSecretContext(businessId)),
  });
});

afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

function deps(): DeliverDeps {
  const real = new SqsWebhookQueue(sqs, queueUrl);
  return {
    calls: new CallRepository(db),
    assistants: new AssistantRepository(db),
    businesses: new BusinessRepository(db),
    deliveries: new DeliveryRepository(db),
    secretBox,
    // Real fauxqs queue, zero delays: the injected clock decides when an attempt is due.
    queue: { send: (body) => real.send(body, 0) },
    now: () => new Date(clock),
    random: () => 0.5,
    allowPrivate: true,
    log: silentLogger,
  };
}

/** An assistant with the given advanced settings and an ended call with a transcript. */
/** An ended call (caller hung up, analysed as resolved) of a fresh assistant; `ending` overrides how it ended. */
async function seedCall(
  advanced: Partial<AssistantConfig['advanced']>,
  ending: Partial<
    Pick<CallRecord, 'ended_reason' | 'outcome' | 'transferred_to' | 'carrier_call_sid' | 'answered_by' | 'charged_minutes' | 'expires_at'>
  > = {},
): Promise<{ callId: number; assistantId: number }> {
  const assistantId = nextId++;
  const callId = 10_000 + nextId++;
  const base = defaultAssistantConfig();
  const config: AssistantConfig = { ...base, advanced: { ...base.advanced, ...advanced } };
  const now = new Date().toISOString();
  await new AssistantRepository(db).insertAssistant(businessId, {
    id: assistantId,
    name: 'Hooks',
    created_at: now,
    updated_at: now,
    config,
  });
  const calls = new CallRepository(db);
  const call: CallRecord = {
    id: callId,
    assistant_id: assistantId,
    channel: 'phone',
    direction: 'outbound',
    from_number: '+15550100001',
    to_number: '+15550100002',
    started_at: now,
    ended_at: now,
    duration_s: 42,
    status: 'ended',
    outcome: 'resolved',
    ended_reason: 'caller_hung_up',
    summary: 'Caller asked for help; reach me at ana@example.com',
    intent: 'support',
    caller_name: 'Ana',
    score: 8,
    analysis: {},
    business_id: businessId,
    created_at: now,
    updated_at: now,
    phone_number_id: null,
    variables: {},
    ...ending,
  };
  await calls.insertCall(call);
  await calls.putCallDetail(businessId, callId, {
    transcript: [{ role: 'user', text: 'My email is ana@example.com', start_ms: 0, end_ms: 900, interrupted: false }],
    metrics: {},
    recording_key: null,
  });
  return { callId, assistantId };
}

function envelope(type: EventType, callId: number, assistantId: number, eventId = `evt_${randomUUID()}`) {
  const detail = {
    event_id: eventId,
    business_id: businessId,
    call_id: callId,
    assistant_id: assistantId,
    occurred_at: new Date(clock).toISOString(),
  };
  return { eventId, body: JSON.stringify({ version: '0', source: 'voice-agent', 'detail-type': type, detail }) };
}

/** Receives and processes every visible message once; returns how many were processed. */
async function pump(): Promise<number> {
  const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
  const messages = received.Messages ?? [];
  if (messages.length === 0) return 0;
  const result = await processBatch(
    messages.map((m) => ({ messageId: m.MessageId!, body: m.Body! })),
    deps(),
  );
  expect(result.batchItemFailures).toEqual([]);
  for (const m of messages) await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle! }));
  return messages.length;
}

describe('webhook delivery', () => {
  it('delivers call.completed signed per Standard Webhooks, with the call as GET /calls/{id} shows it, redacted', async () => {
    // Arrange
    clock = Date.now();
    hits.length = 0;
    const { callId, assistantId } = await seedCall({ server_url: receiverUrl, server_events: ['call.completed'], redact: ['email'] });
    const event = envelope('call.completed', callId, assistantId);
    // Act
    const result = await processBatch([{ messageId: 'm1', body: event.body }], deps());
    // Assert
    expect(result).toEqual({ batchItemFailures: [] });
    expect(hits).toHaveLength(1);
    const hit = hits[0]!;
    const verified = new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(hit.headers['webhook-id']).toBe(event.eventId);
    expect(verified.type).toBe('call.completed');
    expect(verified.data).toMatchObject({ id: callId, assistant_id: assistantId, status: 'ended', to_number: '+15550100002' });
    expect(Object.keys(verified.data)).toEqual(expect.arrayContaining(['transcript', 'metrics', 'recording_url', 'webhook_deliveries']));
    expect(hit.body).not.toContain('ana@example.com');
    const views = await new DeliveryRepository(db).listDeliveriesForCall(businessId, callId);
    expect(views).toEqual([
      {
        event_type: 'call.completed',
        webhook_id: event.eventId,
        state: 'delivered',
        attempts: [expect.objectContaining({ status: 204, error: null })],
      },
    ]);
  });

  it('call.transferred carries transferred_to and the call record fields, as the OpenAPI document describes them', async () => {
    // Arrange
    clock = Date.now();
    hits.length = 0;
    const expiresAt = Math.floor(clock / 1000) + 7 * 86_400;
    const { callId, assistantId } = await seedCall(
      { server_url: receiverUrl, server_events: ['call.transferred'] },
      {
        ended_reason: 'transferred',
        outcome: 'transferred',
        transferred_to: '+15550142424',
        carrier_call_sid: 'CA0123456789abcdef0123456789abcdef',
        answered_by: 'machine_end_beep',
        charged_minutes: 1,
        expires_at: expiresAt,
      },
    );
    // Act
    const result = await processBatch([{ messageId: 'm1', body: envelope('call.transferred', callId, assistantId).body }], deps());
    // Assert
    expect(result).toEqual({ batchItemFailures: [] });
    const { type, data } = JSON.parse(hits[0]!.body) as { type: string; data: Record<string, unknown> };
    expect(type).toBe('call.transferred');
    expect(data).toMatchObject({
      transferred_to: '+15550142424',
      carrier_call_id: 'CA0123456789abcdef0123456789abcdef',
      answered_by: 'machine',
      billed_minutes: 1,
      expires_at: new Date(expiresAt * 1000).toISOString(),
      recording_notice_heard: null,
      ai_disclosure_heard: null,
    });
    expect(strictResponseErrors('CallDetail', data)).toEqual([]);
  });

  it('retries a failing receiver on the schedule with the same webhook-id, hopping until due, and records every attempt', async () => {
    // Arrange
    clock = Date.now();
    hits.length = 0;
    statusPlan = [500, 503, 500];
    const { callId, assistantId } = await seedCall({ server_url: receiverUrl, server_events: ['call.completed'] });
    const event = envelope('call.completed', callId, assistantId);
    await deps().queue.send(event.body, 0);
    // Act: attempt 1 fails; its retry is due ~5 s later, so an undue receipt only hops.
    await pump();
    await pump();
    const afterHop = hits.length;
    for (let i = 0; i < 10 && hits.length < 4; i++) {
      clock += 25 * 3600_000;
      await pump();
    }
    // Assert
    expect(afterHop).toBe(1);
    expect(hits).toHaveLength(4);
    expect(new Set(hits.map((h) => h.headers['webhook-id']))).toEqual(new Set([event.eventId]));
    expect(new Set(hits.map((h) => h.headers['webhook-timestamp'])).size).toBe(4);
    const [view] = await new DeliveryRepository(db).listDeliveriesForCall(businessId, callId);
    expect(view!.state).toBe('delivered');
    expect(view!.attempts.map((a) => a.status)).toEqual([500, 503, 500, 204]);
    expect(await pump()).toBe(0);
  });

  it('sends only the subscribed kinds, and nothing without a server URL', async () => {
    // Arrange
    clock = Date.now();
    hits.length = 0;
    const subscribed = await seedCall({ server_url: receiverUrl, server_events: ['call.completed'] });
    const noUrl = await seedCall({ server_url: '', server_events: ['call.started', 'call.completed'] });
    // Act
    const started = await deliverRecord(envelope('call.started', subscribed.callId, subscribed.assistantId).body, deps());
    const withoutUrl = await deliverRecord(envelope('call.completed', noUrl.callId, noUrl.assistantId).body, deps());
    const completed = await deliverRecord(envelope('call.completed', subscribed.callId, subscribed.assistantId).body, deps());
    // Assert
    expect([started, withoutUrl, completed]).toEqual(['not_subscribed', 'not_subscribed', 'delivered']);
    expect(hits.map((h) => (JSON.parse(h.body) as { type: string }).type)).toEqual(['call.completed']);
    expect(await new DeliveryRepository(db).listDeliveriesForCall(businessId, noUrl.callId)).toEqual([]);
  });

  it('dead-letters after the last attempt, gives up at once on 410, and never double-sends a redelivered message', async () => {
    // Arrange
    clock = Date.now();
    hits.length = 0;
    statusPlan = Array.from({ length: 10 }, () => 500);
    const always = await seedCall({ server_url: receiverUrl, server_events: ['call.completed'] });
    const gone = await seedCall({ server_url: receiverUrl, server_events: ['call.completed'] });
    const alwaysEvent = envelope('call.completed', always.callId, always.assistantId);
    await deps().queue.send(alwaysEvent.body, 0);
    // Act
    for (let i = 0; i < 12; i++) {
      await pump();
      clock += 25 * 3600_000;
    }
    statusPlan = [410];
    const goneEvent = envelope('call.completed', gone.callId, gone.assistantId);
    const first = await deliverRecord(goneEvent.body, deps());
    const again = await deliverRecord(goneEvent.body, deps());
    // Assert
    const [failed] = await new DeliveryRepository(db).listDeliveriesForCall(businessId, always.callId);
    expect(failed!.state).toBe('failed');
    expect(failed!.attempts).toHaveLength(10);
    expect([first, again]).toEqual(['failed', 'duplicate']);
    expect(hits).toHaveLength(11);
  });

  it('drops HIPAA transcripts from payloads and reports only unexpected errors as batch failures', async () => {
    // Arrange
    clock = Date.now();
    hits.length = 0;
    const hipaa = await seedCall({ server_url: receiverUrl, server_events: ['call.completed'], hipaa: true });
    // Act
    const result = await processBatch(
      [
        { messageId: 'ok', body: envelope('call.completed', hipaa.callId, hipaa.assistantId).body },
        { messageId: 'junk', body: '{"not":"an event"}' },
      ],
      deps(),
    );
    // Assert
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'junk' }]);
    expect((JSON.parse(hits[0]!.body) as { data: { transcript: unknown[] } }).data.transcript).toEqual([]);
  });

  it('chains call.ended → analysis → call.completed → signed webhook through the local event router', async () => {
    // Arrange
    clock = Date.now();
    hits.length = 0;
    const { callId, assistantId } = await seedCall(
      { server_url: receiverUrl, server_events: ['call.completed'] },
      { ended_reason: 'no_answer', outcome: null },
    );
    const failures = captureLogger();
    const router: LocalEventRouter = new LocalEventRouter(
      {
        analysis: async (e) => {
          await analyzeCall(e, {
            calls: new CallRepository(db),
            assistants: new AssistantRepository(db),
            businesses: new BusinessRepository(db),
            memory: new CallerMemoryRepository(db),
            events: router,
            model: { analyse: () => Promise.reject(new Error('no LLM for a call that never connected')) },
            now: () => new Date(clock),
            newEventId: () => `evt_${randomUUID()}`,
            log: silentLogger,
          });
        },
        webhooks: async (e) => {
          await deliverRecord(JSON.stringify({ 'detail-type': e.type, detail: e.detail }), deps());
        },
      },
      failures.log,
    );
    // Act
    await router.publish([
      {
        type: 'call.ended',
        detail: {
          event_id: `evt_${randomUUID()}`,
          business_id: businessId,
          call_id: callId,
          assistant_id: assistantId,
          occurred_at: new Date(clock).toISOString(),
        },
      },
    ]);
    await router.drain();
    // Assert
    expect(failures.lines).toEqual([]);
    expect(hits).toHaveLength(1);
    const payload = new Webhook(secret).verify(hits[0]!.body, hits[0]!.headers as Record<string, string>) as {
      type: string;
      data: { outcome: string };
    };
    expect(payload).toMatchObject({ type: 'call.completed', data: { outcome: 'no_answer' } });
  });
});
