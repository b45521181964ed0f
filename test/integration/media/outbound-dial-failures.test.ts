import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it } from 'vitest';
import { TwilioTelephony } from '../../../media-service/src/adapters/twilio-telephony';
import { dialOutbound, MAX_CARRIER_ATTEMPTS } from '../../../media-service/src/calls/dial-outbound';
import { OutboundConsumer, type JobOutcome } from '../../../media-service/src/calls/outbound-consumer';
import { CallSlotsRepository } from '../../../shared/db/call-slots-repository';
import { MinutesRepository } from '../../../shared/db/minutes-repository';
import { CallLifecycle } from '../../../shared/services/call-lifecycle';
import { SqsOutboundJobs, type ReceivedJob } from '../../../shared/queue/outbound-calls';
import { createApiHarness } from '../../support/api-harness';
import { captureLogger } from '../../support/capture-logger';

/**
 * Dials that fail, through the real consumer and dialler on fauxqs and DynamoDB Local. The carrier
 * is the real Twilio adapter against a loopback server answering the scripted statuses; the
 * assistant read, the admission and the give-back fail where a test puts a failure in front of the
 * real repository. Every wait is injected as 0 and every clock is a variable: no test sleeps.
 */

const T0 = Date.parse('2026-11-23T10:00:00.000Z');
const carriers: Server[] = [];

afterEach(async () => {
  await Promise.all(carriers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

/** A loopback Twilio answering create-call with `statusOf(n)` for its n-th request (1-based). */
async function loopbackCarrier(statusOf: (n: number) => number) {
  let requests = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const status = statusOf(++requests);
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(
        status < 300
          ? JSON.stringify({ sid: `CA${requests}`, status: 'queued' })
          : JSON.stringify({ code: 20429, message: 'Too Many Requests' }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  carriers.push(server);
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

interface Failures {
  /** The carrier's answer to its n-th create-call (default 201). */
  carrier?: (n: number) => number;
  /** Assistant reads that throw before the real one runs. */
  assistantReads?: number;
  /** Admissions that throw: before the real one (nothing landed) or after it (it landed, the answer was lost). */
  admissions?: ('before' | 'after')[];
  /** Give-backs that throw (the database unreachable for longer than the dialler's retries). */
  requeues?: number;
}

async function setup(failures: Failures = {}) {
  const harness = await createApiHarness();
  const tenant = await harness.newTenant({ minutes: 100 });
  await harness.admin.setMaxConcurrentCalls(tenant.businessId, 2);
  const body = { config: { advanced: { max_duration_s: 300 } } };
  const assistant = (await (await tenant.request('POST', '/assistants', body)).json()) as { id: number };
  const call = (await (await tenant.request('POST', '/calls', { assistant_id: assistant.id, to: '+14155550123' })).json()) as {
    id: number;
  };
  let clock = T0;
  const now = () => new Date(clock);
  const repos = { calls: harness.core.callRepo, assistants: harness.core.assistantRepo, minutes: new MinutesRepository(harness.core.db) };
  const slots = new CallSlotsRepository(harness.core.db);
  const lifecycle = new CallLifecycle({ ...repos, slots, events: { publish: async () => undefined }, now, newEventId: () => 'evt' });
  const carrier = await loopbackCarrier(failures.carrier ?? (() => 201));
  let { assistantReads = 0, requeues = 0 } = failures;
  const admissions = [...(failures.admissions ?? [])];
  const logs = captureLogger();
  const dial = dialOutbound({
    ...repos,
    lifecycle,
    telephony: new TwilioTelephony({ accountSid: 'AC1', authToken: 't', baseUrl: carrier.baseUrl }),
    assistants: {
      findAssistant: async (businessId, assistantId) => {
        if (assistantReads-- > 0) throw new Error('assistant read failed');
        return repos.assistants.findAssistant(businessId, assistantId);
      },
    },
    slots: {
      admit: async (...args) => {
        const failure = admissions.shift();
        if (failure === 'before') throw new Error('admission failed');
        const admitted = await slots.admit(...args);
        if (failure === 'after') throw new Error('admission answer lost');
        return admitted;
      },
    },
    calls: {
      recordDialled: (...args) => repos.calls.recordDialled(...args),
      requeueUndialled: async (...args) => {
        if (requeues-- > 0) throw new Error('give-back failed');
        return repos.calls.requeueUndialled(...args);
      },
    },
    publicBaseUrl: 'https://media.example.com',
    streamTokenSecret: 's',
    now,
    log: logs.log,
  });
  const jobs = new SqsOutboundJobs(harness.sqs, harness.queueUrl);
  const consumer = new OutboundConsumer({
    jobs,
    calls: repos.calls,
    dial,
    owner: 'task-1',
    now,
    log: logs.log,
    deferDelayS: () => 0,
    retryDelayS: () => 0,
  });
  const receive = async (): Promise<ReceivedJob[]> =>
    (await harness.sqs.send(new ReceiveMessageCommand({ QueueUrl: harness.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 })))
      .Messages ?? [];
  /** Handles every job that comes back (each retry is re-sent with no delay) until the queue is empty. */
  async function drain(): Promise<JobOutcome[]> {
    const outcomes: JobOutcome[] = [];
    for (let messages = await receive(); messages.length > 0 && outcomes.length < 20; messages = await receive()) {
      for (const message of messages) outcomes.push(await consumer.handle(message));
    }
    return outcomes;
  }
  const stored = () => harness.core.callRepo.getCallRecord(tenant.businessId, call.id);
  const counters = async () => {
    const business = await harness.core.businesses.getBusiness(tenant.businessId);
    return {
      live_calls: business?.live_calls ?? 0,
      minutes_reserved: business?.minutes_reserved,
      minutes_balance: business?.minutes_balance,
    };
  };
  return {
    harness,
    tenant,
    call,
    slots,
    jobs,
    consumer,
    receive,
    drain,
    stored,
    counters,
    carrier,
    logs,
    advance: (ms: number) => (clock += ms),
  };
}

describe('an outbound dial that fails before the carrier is asked', () => {
  it.each([
    ['the admission throws before it lands', { admissions: ['before' as const] }],
    ['the admission lands but its answer is lost', { admissions: ['after' as const] }],
    ['the assistant read throws', { assistantReads: 1 }],
  ])('%s: everything is given back, the job comes again, and the call is placed once', async (_case, failures) => {
    // Arrange
    const { drain, stored, counters, carrier, receive, consumer } = await setup(failures);
    const [first] = await receive();
    // Act
    const firstOutcome = await consumer.handle(first!);
    const afterFailure = { call: await stored(), counters: await counters() };
    const rest = await drain();
    // Assert
    expect(firstOutcome).toBe('retried');
    expect(afterFailure.call).toMatchObject({ status: 'queued', claimed_by: null });
    expect([afterFailure.call?.slot_held, afterFailure.call?.reserved_minutes]).toEqual([undefined, undefined]);
    expect(afterFailure.counters).toEqual({ live_calls: 0, minutes_reserved: 0, minutes_balance: 100 });
    expect(rest).toEqual(['dialled']);
    expect(carrier.requests()).toBe(1);
    expect(await stored()).toMatchObject({ status: 'queued', carrier_call_sid: 'CA1', slot_held: true, reserved_minutes: 5 });
    expect(await counters()).toEqual({ live_calls: 1, minutes_reserved: 5, minutes_balance: 100 });
  });
});

describe('an outbound dial the carrier refuses to queue (429)', () => {
  it('is given back and dialled again until the carrier takes it; the slot and minutes are held once', async () => {
    // Arrange
    const { drain, stored, counters, carrier } = await setup({ carrier: (n) => (n <= 2 ? 429 : 201) });
    // Act
    const outcomes = await drain();
    // Assert
    expect(outcomes).toEqual(['retried', 'retried', 'dialled']);
    expect(carrier.requests()).toBe(3);
    expect(await stored()).toMatchObject({ carrier_call_sid: 'CA3', dial_failures: 2, slot_held: true, reserved_minutes: 5 });
    expect(await counters()).toEqual({ live_calls: 1, minutes_reserved: 5, minutes_balance: 100 });
  });

  it(`ends failed after ${MAX_CARRIER_ATTEMPTS} refusals, with everything given back and the reason logged`, async () => {
    // Arrange
    const { drain, stored, counters, carrier, logs, receive } = await setup({ carrier: () => 429 });
    // Act
    const outcomes = await drain();
    // Assert
    expect(outcomes).toEqual([...Array<JobOutcome>(MAX_CARRIER_ATTEMPTS - 1).fill('retried'), 'ended']);
    expect(carrier.requests()).toBe(MAX_CARRIER_ATTEMPTS);
    expect(await stored()).toMatchObject({ status: 'ended', ended_reason: 'failed', charged_minutes: 0 });
    expect(await counters()).toEqual({ live_calls: 0, minutes_reserved: 0, minutes_balance: 100 });
    expect(logs.lines.find((line) => line.message === 'outbound.dial_gave_up')?.fields).toMatchObject({ attempts: MAX_CARRIER_ATTEMPTS });
    expect(await receive()).toEqual([]);
  });
});

describe('an outbound dial the carrier may have placed (5xx)', () => {
  it('ends the call error at once, never dialled twice, with the slot and minutes given back', async () => {
    // Arrange
    const { drain, stored, counters, carrier, logs, receive } = await setup({ carrier: (n) => (n === 1 ? 503 : 201) });
    // Act
    const outcomes = await drain();
    // Assert
    expect(outcomes).toEqual(['ended']);
    expect(carrier.requests()).toBe(1);
    expect(await stored()).toMatchObject({ status: 'ended', ended_reason: 'error', charged_minutes: 0 });
    expect(await counters()).toEqual({ live_calls: 0, minutes_reserved: 0, minutes_balance: 100 });
    expect(logs.messages()).toContain('outbound.dial_ambiguous');
    expect(await receive()).toEqual([]);
  });
});

describe('a dial that stopped without an outcome (its task died, or the give-back failed)', () => {
  it('the job comes back after the visibility timeout, takes its own claim over and dials the call', async () => {
    // Arrange
    const { harness, tenant, call, jobs, receive, consumer, stored, counters, carrier, advance } = await setup();
    const [job] = await receive();
    // A task claimed the call with this job and died before admitting it.
    await harness.core.callRepo.claimQueued(tenant.businessId, call.id, 'dead-task', new Date(T0).toISOString(), {
      id: job!.MessageId!,
      staleBefore: new Date(T0).toISOString(),
    });
    // The visibility timeout passes: the job is visible again.
    await jobs.release(job!);
    advance(61_000);
    // Act
    const outcome = await consumer.handle((await receive())[0]!);
    // Assert
    expect(outcome).toBe('dialled');
    expect(carrier.requests()).toBe(1);
    expect(await stored()).toMatchObject({ claimed_by: 'task-1', carrier_call_sid: 'CA1' });
    expect(await counters()).toEqual({ live_calls: 1, minutes_reserved: 5, minutes_balance: 100 });
  });

  it('a task that died after admitting may have asked the carrier: the call ends error, never dialled twice', async () => {
    // Arrange
    const { harness, tenant, call, jobs, slots, receive, consumer, stored, counters, carrier, advance } = await setup();
    const [job] = await receive();
    await harness.core.callRepo.claimQueued(tenant.businessId, call.id, 'dead-task', new Date(T0).toISOString(), {
      id: job!.MessageId!,
      staleBefore: new Date(T0).toISOString(),
    });
    await slots.admit(tenant.businessId, call.id, 5);
    await jobs.release(job!);
    advance(61_000);
    // Act
    const outcome = await consumer.handle((await receive())[0]!);
    // Assert
    expect(outcome).toBe('ended');
    expect(carrier.requests()).toBe(0);
    expect(await stored()).toMatchObject({ status: 'ended', ended_reason: 'error' });
    expect(await counters()).toEqual({ live_calls: 0, minutes_reserved: 0, minutes_balance: 100 });
  });

  it('a give-back that fails leaves the job on the queue; delivered again, it dials the call', async () => {
    // Arrange
    const { jobs, receive, consumer, stored, counters, carrier, advance } = await setup({ admissions: ['before'], requeues: 1 });
    const [job] = await receive();
    // Act
    const thrown = await consumer.handle(job!).catch((error: unknown) => error);
    const stranded = await stored();
    await jobs.release(job!);
    advance(61_000);
    const outcome = await consumer.handle((await receive())[0]!);
    // Assert
    expect(thrown).toBeInstanceOf(Error);
    expect(stranded).toMatchObject({ status: 'queued', claimed_by: 'task-1' });
    expect(outcome).toBe('dialled');
    expect(carrier.requests()).toBe(1);
    expect(await counters()).toEqual({ live_calls: 1, minutes_reserved: 5, minutes_balance: 100 });
    expect(await receive()).toEqual([]);
  });
});
