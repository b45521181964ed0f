/**
 * `npm run bench:webhooks`: (1) time from `call.ended` to the signed `call.completed` webhook
 * arriving at a local receiver, through the local event router, the analysis (sandbox LLM with
 * zero time-to-first-token) and the delivery handler, p50/p95; (2) deliveries per second one
 * delivery process sustains against a local receiver. Prints numbers; asserts nothing.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { analyzeCall } from '../functions/analysis/analyze-call';
import { deliverRecord, type DeliverDeps } from '../functions/webhook-delivery/deliver';
import { OpenAiSandboxServer } from '../media-service/src/sandbox/openai-server';
import { AssistantRepository } from '../shared/db/assistant-repository';
import { BusinessRepository } from '../shared/db/business-repository';
import { CallRepository } from '../shared/db/call-repository';
import { CallerMemoryRepository } from '../shared/db/caller-memory-repository';
import { createDb } from '../shared/db/client';
import { ensureTable } from '../shared/db/create-table';
import { DeliveryRepository } from '../shared/db/delivery-repository';
import { defaultAssistantConfig } from '../shared/domain/assistant-config';
import { defaultBusinessProfile } from '../shared/domain/business-profile';
import type { CallEvent } from '../shared/events/catalog';
import { LocalEventRouter } from '../shared/events/event-bus';
import { OpenAiAnalysisClient } from '../shared/llm/analysis-client';
import { LocalSecretBox } from '../shared/security/secret-box';
import { webhookSecretContext } from '../shared/services/admin-service';
import { generateWebhookSecret } from '../shared/webhooks/secret';
import { startDynamoDbLocal } from '../scripts/local/stand-ins/dynamodb-local';
import { silentLogger } from '../shared/log';

const CALLS = Number(process.env.BENCH_CALLS ?? 100);
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 400);
const CONCURRENCY = 16;

const pct = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

async function main(): Promise<void> {
  const dynamo = await startDynamoDbLocal();
  const openai = await OpenAiSandboxServer.start({ ttftMs: 0, tokenIntervalMs: 0 });
  const arrivals = new Map<string, number>();
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      arrivals.set(String(request.headers['webhook-id']), performance.now());
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  try {
    const db = createDb({ tableName: 'bench-webhooks', region: 'local', endpoint: dynamo.endpoint });
    await ensureTable(db);
    const secretBox = new LocalSecretBox('bench');
    const repos = {
      calls: new CallRepository(db),
      assistants: new AssistantRepository(db),
      businesses: new BusinessRepository(db),
      memory: new CallerMemoryRepository(db),
    };
    const businessId = 1;
    await repos.businesses.putBusiness({
      id: businessId,
      name: 'Bench',
      created_at: new Date().toISOString(),
      minutes_balance: 1000,
      minutes_reserved: 0,
      max_concurrent_calls: 10,
      profile: defaultBusinessProfile(),
      webhook_secret_sealed: await secretBox.seal(generateWebhookSecret(), webhookSecretContext(businessId)),
    });
    const base = defaultAssistantConfig();
    const config = {
      ...base,
      advanced: { ...base.advanced, server_url: url, server_events: ['call.completed' as const, 'call.started' as const] },
    };
    const now = new Date().toISOString();
    await repos.assistants.insertAssistant(businessId, { id: 2, name: 'Bench', created_at: now, updated_at: now, config });
    const deliverDeps: DeliverDeps = {
      ...repos,
      deliveries: new DeliveryRepository(db),
      secretBox,
      queue: { send: async () => undefined },
      now: () => new Date(),
      random: Math.random,
      allowPrivate: true,
      log: silentLogger,
    };
    const completedIds = new Map<number, string>();
    const router: LocalEventRouter = new LocalEventRouter({
      analysis: async (event) =>
        void (await analyzeCall(event, {
          ...repos,
          events: router,
          model: new OpenAiAnalysisClient({ apiKey: 'sk-sandbox', baseURL: openai.baseUrl }),
          now: () => new Date(),
          newEventId: () => `evt_${randomUUID()}`,
          log: silentLogger,
        })),
      webhooks: async (event) => {
        if (event.type === 'call.completed') completedIds.set(event.detail.call_id, event.detail.event_id);
        await deliverRecord(JSON.stringify({ 'detail-type': event.type, detail: event.detail }), deliverDeps);
      },
    });

    // 1. call.ended → webhook at the receiver, one call at a time.
    const latencies: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const callId = await seedEndedCall(repos.calls, businessId, 1000 + i);
      const started = performance.now();
      await router.publish([endedEvent(businessId, callId)]);
      await router.drain();
      const arrived = arrivals.get(completedIds.get(callId) ?? '');
      if (arrived === undefined) throw new Error(`no webhook for call ${callId}`);
      latencies.push(arrived - started);
    }
    console.log(`call.ended → call.completed webhook received (local stack, sandbox LLM TTFT 0, ${CALLS} calls):`);
    console.log(`  p50 ${pct(latencies, 50).toFixed(1)} ms  p95 ${pct(latencies, 95).toFixed(1)} ms`);

    // 2. Delivery throughput: call.started events for already-stored calls, CONCURRENCY at a time.
    const bodies = Array.from({ length: DELIVERIES }, (_, i) =>
      JSON.stringify({ 'detail-type': 'call.started', detail: { ...endedEvent(businessId, 1000 + (i % CALLS)).detail } }),
    );
    const start = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < bodies.length) await deliverRecord(bodies[next++]!, deliverDeps);
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    console.log(`Webhook delivery throughput (one process, ${CONCURRENCY} in flight, signed, recorded in DynamoDB Local):`);
    console.log(`  ${(DELIVERIES / seconds).toFixed(0)} deliveries/s (${DELIVERIES} in ${seconds.toFixed(2)} s)`);
  } finally {
    receiver.close();
    await openai.close();
    await dynamo.stop();
  }
}

function endedEvent(businessId: number, callId: number): CallEvent {
  return {
    type: 'call.ended',
    detail: {
      event_id: `evt_${randomUUID()}`,
      business_id: businessId,
      call_id: callId,
      assistant_id: 2,
      occurred_at: new Date().toISOString(),
    },
  };
}

async function seedEndedCall(calls: CallRepository, businessId: number, id: number): Promise<number> {
  const now = new Date().toISOString();
  await calls.insertCall({
    id,
    business_id: businessId,
    assistant_id: 2,
    channel: 'phone',
    direction: 'outbound',
    from_number: '+15550100001',
    to_number: '+15550100002',
    started_at: now,
    ended_at: now,
    duration_s: 64,
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
  await calls.putCallDetail(businessId, id, {
    transcript: [
      { role: 'assistant', text: 'Thanks for calling, how can I help?', start_ms: 0, end_ms: 1800, interrupted: false },
      {
        role: 'user',
        text: 'I would like to book a cleaning next Tuesday. My name is Ana.',
        start_ms: 2100,
        end_ms: 5200,
        interrupted: false,
      },
      { role: 'assistant', text: 'Booked for Tuesday at 10. Goodbye!', start_ms: 5600, end_ms: 7600, interrupted: false },
    ],
    metrics: {},
    recording_key: null,
  });
  return id;
}

void main();
