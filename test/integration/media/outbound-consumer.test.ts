import { ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { dialOutbound } from '../../../media-service/src/calls/dial-outbound';
import { SqsOutboundJobs } from '../../../shared/queue/outbound-calls';
import { OutboundConsumer } from '../../../media-service/src/calls/outbound-consumer';
import type { PlaceCallRequest } from '../../../media-service/src/ports/telephony';
import type { CallRecord } from '../../../shared/db/call-repository';
import { CallSlotsRepository } from '../../../shared/db/call-slots-repository';
import { MinutesRepository } from '../../../shared/db/minutes-repository';
import { CallLifecycle } from '../../../shared/services/call-lifecycle';
import { createApiHarness } from '../../support/api-harness';
import { silentLogger } from '../../../shared/log';
import { captureLogger } from '../../support/capture-logger';

async function setup() {
  const harness = await createApiHarness();
  const tenant = await harness.newTenant();
  const assistant = (await (await tenant.request('POST', '/assistants', {})).json()) as { id: number };
  const call = (await (await tenant.request('POST', '/calls', { assistant_id: assistant.id, to: '+14155550123' })).json()) as {
    id: number;
  };
  const dialled: CallRecord[] = [];
  const logs = captureLogger();
  const consumer = new OutboundConsumer({
    jobs: new SqsOutboundJobs(harness.sqs, harness.queueUrl),
    calls: harness.core.callRepo,
    dial: async (record) => {
      dialled.push(record);
      return 'dialled' as const;
    },
    owner: 'task-1',
    now: () => new Date('2026-11-23T10:00:00.000Z'),
    log: logs.log,
  });
  const receive = async () =>
    (await harness.sqs.send(new ReceiveMessageCommand({ QueueUrl: harness.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 })))
      .Messages ?? [];
  return { harness, tenant, call, consumer, dialled, logs, receive };
}

describe('outbound-calls consumer (fauxqs + DynamoDB Local)', () => {
  it('claims and dials the call the API enqueued, then deletes the job', async () => {
    // Arrange
    const { harness, tenant, call, consumer, dialled, receive } = await setup();
    const [message] = await receive();
    // Act
    const outcome = await consumer.handle(message!);
    // Assert
    expect(outcome).toBe('dialled');
    expect(dialled.map((record) => record.id)).toEqual([call.id]);
    const stored = await harness.core.callRepo.getCallRecord(tenant.businessId, call.id);
    expect(stored).toMatchObject({ claimed_by: 'task-1', status: 'queued' });
  });

  it('never dials twice when the same job is delivered again', async () => {
    // Arrange
    const { harness, tenant, call, consumer, dialled, receive } = await setup();
    await harness.sqs.send(
      new SendMessageCommand({
        QueueUrl: harness.queueUrl,
        MessageBody: JSON.stringify({ business_id: tenant.businessId, call_id: call.id }),
      }),
    );
    const messages = await receive();
    // Act
    const outcomes = await Promise.all(messages.map((message) => consumer.handle(message)));
    // Assert
    expect(messages).toHaveLength(2);
    expect(outcomes.sort()).toEqual(['already_claimed', 'dialled']);
    expect(dialled).toHaveLength(1);
  });

  it('leaves a malformed job for the DLQ and deletes a job whose call does not exist', async () => {
    // Arrange
    const { harness, consumer, logs, receive } = await setup();
    await receive(); // take the API's own job out of the way (it becomes visible again later)
    await harness.sqs.send(new SendMessageCommand({ QueueUrl: harness.queueUrl, MessageBody: '{"business_id": "x"}' }));
    await harness.sqs.send(
      new SendMessageCommand({ QueueUrl: harness.queueUrl, MessageBody: JSON.stringify({ business_id: 1, call_id: 987654321 }) }),
    );
    const messages = await receive();
    // Act
    const outcomes = await Promise.all(messages.map((message) => consumer.handle(message)));
    // Assert
    expect(outcomes.sort()).toEqual(['call_missing', 'invalid']);
    expect(logs.messages().some((line) => line.includes('malformed'))).toBe(true);
  });
});

/** Two calls of a business capped at one live call, with the real dialler (carrier recorded) and slots. */
async function cappedSetup(deferDelayS?: (attempt: number) => number) {
  const harness = await createApiHarness();
  const tenant = await harness.newTenant();
  await harness.admin.setMaxConcurrentCalls(tenant.businessId, 1);
  const assistant = (await (await tenant.request('POST', '/assistants', {})).json()) as { id: number };
  const create = async () =>
    ((await (await tenant.request('POST', '/calls', { assistant_id: assistant.id, to: '+14155550123' })).json()) as { id: number }).id;
  const [first, second] = [await create(), await create()];
  const now = () => new Date('2026-11-23T10:00:00.000Z');
  const repos = {
    calls: harness.core.callRepo,
    assistants: harness.core.assistantRepo,
    minutes: new MinutesRepository(harness.core.db),
    slots: new CallSlotsRepository(harness.core.db),
  };
  const lifecycle = new CallLifecycle({ ...repos, events: { publish: async () => undefined }, now, newEventId: () => 'evt' });
  const placed: PlaceCallRequest[] = [];
  const telephony = {
    placeCall: async (request: PlaceCallRequest) => (placed.push(request), { callSid: `CA-${placed.length}` }),
    hangup: async () => undefined,
    transfer: async () => undefined,
  };
  const dial = dialOutbound({
    ...repos,
    telephony,
    lifecycle,
    publicBaseUrl: 'https://media.example.com',
    streamTokenSecret: 's',
    now,
    log: silentLogger,
  });
  const consumer = new OutboundConsumer({
    jobs: new SqsOutboundJobs(harness.sqs, harness.queueUrl),
    calls: harness.core.callRepo,
    dial,
    owner: 'task-1',
    now,
    log: silentLogger,
    deferDelayS,
  });
  const receive = async () =>
    (await harness.sqs.send(new ReceiveMessageCommand({ QueueUrl: harness.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 })))
      .Messages ?? [];
  const jobFor = (messages: Awaited<ReturnType<typeof receive>>, callId: number) =>
    messages.find((message) => JSON.parse(message.Body!).call_id === callId)!;
  const placedIds = () => placed.map((request) => Number(request.parameters.call_id));
  return { harness, tenant, first, second, lifecycle, consumer, receive, jobFor, placedIds };
}

describe('outbound-calls consumer at the concurrency cap', () => {
  it('defers the second call while the first holds the only slot, and dials it once the first ends', async () => {
    // Arrange
    // A wait of 0: the re-sent job is visible at once, so the test needs no waiting.
    const waits: number[] = [];
    const { harness, tenant, first, second, lifecycle, consumer, receive, jobFor, placedIds } = await cappedSetup((attempt) => {
      waits.push(attempt);
      return 0;
    });
    const jobs = await receive();
    // Act
    const firstOutcome = await consumer.handle(jobFor(jobs, first));
    const secondOutcome = await consumer.handle(jobFor(jobs, second));
    const stillFullJob = jobFor(await receive(), second);
    const stillFull = await consumer.handle(stillFullJob);
    await lifecycle.end(tenant.businessId, first, { endedReason: 'caller_hung_up' });
    const afterEndJob = jobFor(await receive(), second);
    const afterEnd = await consumer.handle(afterEndJob);
    // Assert
    expect([firstOutcome, secondOutcome, stillFull, afterEnd]).toEqual(['dialled', 'deferred', 'deferred', 'dialled']);
    // Each deferral carries its count in the job, and the wait is chosen from it.
    expect([JSON.parse(stillFullJob.Body!).attempt, JSON.parse(afterEndJob.Body!).attempt]).toEqual([1, 2]);
    expect(waits).toEqual([0, 1]);
    expect(placedIds()).toEqual([first, second]);
    expect(await harness.core.callRepo.getCallRecord(tenant.businessId, second)).toMatchObject({
      status: 'queued',
      claimed_by: 'task-1',
      carrier_call_sid: 'CA-2',
    });
    expect(await harness.core.businesses.getBusiness(tenant.businessId)).toMatchObject({ live_calls: 1 });
    expect(await receive()).toEqual([]);
  });

  it('a deferred call waits queued with no claim, slot or reservation, and its job comes back only after the delay (default: 1–2 s the first time)', async () => {
    // Arrange
    const { harness, tenant, first, second, consumer, receive, jobFor } = await cappedSetup();
    const jobs = await receive();
    await consumer.handle(jobFor(jobs, first));
    // Act
    await consumer.handle(jobFor(jobs, second));
    // Assert
    const waiting = await harness.core.callRepo.getCallRecord(tenant.businessId, second);
    expect(waiting).toMatchObject({ status: 'queued', claimed_by: null });
    expect(waiting?.reserved_minutes).toBeUndefined();
    expect(waiting?.slot_held).toBeUndefined();
    expect(await receive()).toEqual([]);
  });
});
