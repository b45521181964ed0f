import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TwilioTelephony } from '../../../media-service/src/adapters/twilio-telephony';
import { writeHeartbeat } from '../../../media-service/src/calls/heartbeat';
import type { CallRecord } from '../../../shared/db/call-repository';
import { MinutesRepository } from '../../../shared/db/minutes-repository';
import type { CallEvent } from '../../../shared/events/catalog';
import { LocalEventRouter } from '../../../shared/events/event-bus';
import { SqsOutboundCallQueue } from '../../../shared/queue/outbound-calls';
import { CallLifecycle } from '../../../shared/services/call-lifecycle';
import { CallSweeper, DEFAULT_SWEEP_LIMITS, sweepAction } from '../../../shared/services/call-sweeper';
import { initialCallRecord } from '../../../shared/services/call-views';
import { createApiHarness } from '../../support/api-harness';
import { captureLogger } from '../../support/capture-logger';

const MIN = 60_000;

/** A loopback server answering Twilio's hang-up request (POST Calls/<sid>.json); `failNext` answers 500. */
let carrier: Server;
let carrierUrl: string;
const hangups: string[] = [];
let failNext = false;
beforeAll(async () => {
  carrier = createServer((request, response) => {
    request.resume().on('end', () => {
      hangups.push(request.url!);
      response.writeHead(failNext ? 500 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ sid: 'CA1', status: 'completed' }));
      failNext = false;
    });
  });
  await new Promise<void>((resolve) => carrier.listen(0, '127.0.0.1', resolve));
  carrierUrl = `http://127.0.0.1:${(carrier.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => carrier.close(() => resolve())));

/**
 * Each test gets a table of its own: a sweep reads every open call of its table, and must neither
 * see nor end another test's calls. Each test's clock is a month of 2031 of its own as well.
 */
let month = 0;

async function setup() {
  const harness = await createApiHarness({ tableName: `sweeper-${randomUUID()}` });
  const tenant = await harness.newTenant({ minutes: 50 });
  const assistant = (await (await tenant.request('POST', '/assistants', {})).json()) as { id: number };
  const base = Date.UTC(2031, month++, 1, 12);
  let clock = base;
  const now = () => new Date(clock);
  const ended: CallEvent[] = [];
  const events = new LocalEventRouter({ analysis: async (event) => void ended.push(event), webhooks: async () => {} });
  const lifecycle = new CallLifecycle({
    calls: harness.core.callRepo,
    assistants: harness.core.assistantRepo,
    minutes: new MinutesRepository(harness.core.db),
    events,
    now,
    newEventId: () => `evt_${Math.random()}`,
  });
  const logs = captureLogger();
  const sweeper = (telephony?: TwilioTelephony, ends: Pick<CallLifecycle, 'end' | 'finish'> = lifecycle) =>
    new CallSweeper({
      calls: harness.core.callRepo,
      lifecycle: ends,
      queue: new SqsOutboundCallQueue(harness.sqs, harness.queueUrl),
      telephony,
      now,
      log: logs.log,
    });
  /** Inserts a call created `agoMs` before now, with engine fields. */
  const insert = async (agoMs: number, fields: Partial<CallRecord> = {}, businessId = tenant.businessId) => {
    const at = new Date(clock - agoMs).toISOString();
    const record = initialCallRecord({
      id: await harness.core.ids.nextId(),
      business_id: businessId,
      assistant_id: assistant.id,
      direction: 'outbound',
      from_number: '+15550100001',
      to_number: '+14155550123',
      phone_number_id: null,
      variables: {},
      now: at,
    });
    await harness.core.callRepo.insertCall({ ...record, ...fields });
    return record.id;
  };
  const stored = (callId: number, businessId = tenant.businessId) => harness.core.callRepo.getCallRecord(businessId, callId);
  const advance = (ms: number) => (clock += ms);
  const telephony = () => new TwilioTelephony({ accountSid: 'AC1', authToken: 'secret', baseUrl: carrierUrl });
  const endedEvents = async () => (await events.drain(), ended.length);
  return { harness, tenant, insert, stored, advance, sweeper, telephony, endedEvents, logs, base, lifecycle };
}

const iso = (ms: number) => new Date(ms).toISOString();

describe('sweepAction (the rules)', () => {
  const now = Date.UTC(2031, 0, 1);
  const call = (fields: Partial<CallRecord>) =>
    ({ status: 'queued', direction: 'outbound', created_at: iso(now - 1000), updated_at: iso(now - 1000), ...fields }) as CallRecord;
  it.each([
    ['fresh queued', call({}), undefined],
    ['queued 3 min, unclaimed', call({ created_at: iso(now - 3 * MIN) }), { kind: 'requeue' }],
    ['inbound queued 3 min, no sid', call({ direction: 'inbound', created_at: iso(now - 3 * MIN) }), undefined],
    ['queued 31 min, unclaimed', call({ created_at: iso(now - 31 * MIN) }), { kind: 'end', rule: 'never_claimed', reason: 'error' }],
    [
      'waiting 2 h at the concurrency cap, retried 5 s ago',
      call({ claimed_by: null, created_at: iso(now - 120 * MIN), updated_at: iso(now - 5000) }),
      undefined,
    ],
    [
      'deferred at the cap but its retries stopped 3 min ago',
      call({ claimed_by: null, created_at: iso(now - 120 * MIN), updated_at: iso(now - 3 * MIN) }),
      { kind: 'requeue' },
    ],
    ['claimed 1 min ago', call({ claimed_by: 't', claimed_at: iso(now - MIN), created_at: iso(now - 9 * MIN) }), undefined],
    [
      'claimed 3 min ago, no sid',
      call({ claimed_by: 't', claimed_at: iso(now - 3 * MIN) }),
      { kind: 'end', rule: 'dial_died', reason: 'error' },
    ],
    [
      'dialled, silent 6 min',
      call({ claimed_by: 't', carrier_call_sid: 'CA1', updated_at: iso(now - 6 * MIN) }),
      { kind: 'end', rule: 'no_progress', reason: 'error' },
    ],
    ['ringing 4 min', call({ status: 'ringing', updated_at: iso(now - 4 * MIN) }), undefined],
    [
      'ringing 6 min',
      call({ status: 'ringing', updated_at: iso(now - 6 * MIN) }),
      { kind: 'end', rule: 'ringing_too_long', reason: 'no_answer' },
    ],
    [
      'in progress, heartbeat 1 min ago',
      call({ status: 'in_progress', started_at: iso(now - 50 * MIN), heartbeat_at: iso(now - MIN) }),
      undefined,
    ],
    [
      'in progress, heartbeat 3 min ago',
      call({ status: 'in_progress', heartbeat_at: iso(now - 3 * MIN) }),
      { kind: 'end', rule: 'heartbeat_stale', reason: 'error' },
    ],
    [
      'in progress, no heartbeat, started 3 min ago',
      call({ status: 'in_progress', started_at: iso(now - 3 * MIN) }),
      { kind: 'end', rule: 'heartbeat_stale', reason: 'error' },
    ],
    ['ended long ago', call({ status: 'ended', updated_at: iso(now - 60 * MIN) }), undefined],
  ])('%s', (_name, record, expected) => {
    expect(sweepAction(record, now, DEFAULT_SWEEP_LIMITS)).toEqual(expected);
  });
});

describe('call sweeper (DynamoDB Local + fauxqs)', () => {
  it('re-enqueues an unclaimed queued call and leaves fresh calls alone', async () => {
    // Arrange
    const { harness, tenant, insert, stored, sweeper } = await setup();
    const stuck = await insert(3 * MIN);
    const fresh = await insert(30_000);
    const freshRinging = await insert(60_000, { status: 'ringing' });
    // Act
    const report = await sweeper().sweepOnce();
    // Assert
    expect(report).toMatchObject({ open: 3, requeued: 1, errors: 0 });
    expect(await harness.queuedJobs()).toEqual([{ business_id: tenant.businessId, call_id: stuck }]);
    for (const id of [stuck, fresh, freshRinging]) expect((await stored(id))?.status).not.toBe('ended');
  });

  it('ends a call whose dialler died mid-dial with error, releasing its minutes reservation', async () => {
    // Arrange
    const { harness, tenant, insert, stored, sweeper, base, endedEvents } = await setup();
    const id = await insert(5 * MIN, { claimed_by: 'task-dead', claimed_at: iso(base - 3 * MIN) });
    await new MinutesRepository(harness.core.db).reserve(tenant.businessId, id, 10);
    // Act
    const report = await sweeper().sweepOnce();
    // Assert
    expect(report.ended.dial_died).toBe(1);
    expect(await stored(id)).toMatchObject({ status: 'ended', ended_reason: 'error' });
    expect(await harness.core.businesses.getBusiness(tenant.businessId)).toMatchObject({ minutes_reserved: 0, minutes_balance: 50 });
    expect(await endedEvents()).toBe(1);
  });

  it('hangs up a call ringing too long and ends it no_answer', async () => {
    // Arrange
    const { insert, stored, sweeper, telephony, base, logs } = await setup();
    hangups.length = 0;
    const id = await insert(7 * MIN, { status: 'ringing', claimed_by: 't', carrier_call_sid: 'CAring', updated_at: iso(base - 6 * MIN) });
    // Act
    const report = await sweeper(telephony()).sweepOnce();
    // Assert
    expect(report.ended.ringing_too_long).toBe(1);
    expect(await stored(id)).toMatchObject({ status: 'ended', ended_reason: 'no_answer' });
    expect(hangups).toEqual(['/2010-04-01/Accounts/AC1/Calls/CAring.json']);
    expect(logs.lines).toContainEqual({
      level: 'INFO',
      message: 'sweeper.action',
      fields: expect.objectContaining({ call_id: id, action: 'ended', rule: 'ringing_too_long' }),
    });
  });

  it('ends an in-progress call with a stale heartbeat even when the hang-up fails', async () => {
    // Arrange
    const { insert, stored, sweeper, telephony, base } = await setup();
    hangups.length = 0;
    failNext = true;
    const id = await insert(10 * MIN, {
      status: 'in_progress',
      carrier_call_sid: 'CAlive',
      started_at: iso(base - 9 * MIN),
      heartbeat_at: iso(base - 3 * MIN),
    });
    // Act
    const report = await sweeper(telephony()).sweepOnce();
    // Assert
    expect(report).toMatchObject({ hangupFailures: 1, ended: expect.objectContaining({ heartbeat_stale: 1 }) });
    expect(await stored(id)).toMatchObject({ status: 'ended', ended_reason: 'error' });
    expect(hangups).toEqual(['/2010-04-01/Accounts/AC1/Calls/CAlive.json']);
  });

  it('bills a call whose media task died up to its last heartbeat, not up to the sweep', async () => {
    // Arrange: answered 150 s ago, its task died 12 s in (the heartbeat written at the stream's start, then none)
    const { harness, tenant, insert, stored, sweeper, base } = await setup();
    const startedAt = iso(base - 150_000);
    const lastBeat = iso(base - 138_000);
    const id = await insert(3 * MIN, { status: 'in_progress', started_at: startedAt, media_started_at: startedAt, heartbeat_at: lastBeat });
    await new MinutesRepository(harness.core.db).reserve(tenant.businessId, id, 10);
    // Act
    await sweeper().sweepOnce();
    // Assert
    expect(await stored(id)).toMatchObject({
      status: 'ended',
      ended_reason: 'error',
      duration_s: 12,
      ended_at: lastBeat,
      charged_minutes: 1,
    });
    expect(await harness.core.businesses.getBusiness(tenant.businessId)).toMatchObject({ minutes_balance: 49, minutes_reserved: 0 });
  });

  it('keeps a call alive while its heartbeat is refreshed, and ends it once the heartbeat stops', async () => {
    // Arrange
    const { harness, tenant, insert, stored, sweeper, advance, base } = await setup();
    const id = await insert(MIN, { status: 'in_progress', started_at: iso(base - MIN) });
    const sweep = sweeper();
    // Act: ten minutes of heartbeats every 30 s, sweeping every minute
    for (let tick = 1; tick <= 20; tick++) {
      advance(30_000);
      await writeHeartbeat(harness.core.callRepo, tenant.businessId, id, new Date(base + tick * 30_000));
      if (tick % 2 === 0) await sweep.sweepOnce();
    }
    const aliveAfterTenMinutes = (await stored(id))?.status;
    advance(3 * MIN);
    await sweep.sweepOnce();
    const heartbeatAfterEnd = await writeHeartbeat(harness.core.callRepo, tenant.businessId, id, new Date(base + 14 * MIN));
    // Assert
    expect(aliveAfterTenMinutes).toBe('in_progress');
    expect(await stored(id)).toMatchObject({ status: 'ended', ended_reason: 'error', heartbeat_at: iso(base + 10 * MIN) });
    expect(heartbeatAfterEnd).toBe(false);
  });

  it('reads only the open calls: 1,000 ended calls and 3 open ones are 3 calls looked at', { timeout: 120_000 }, async () => {
    // Arrange
    const { harness, tenant, insert, stored, sweeper, base } = await setup();
    const other = await harness.newTenant();
    const ended = { status: 'ended', ended_reason: 'caller_hung_up', updated_at: iso(base - 9 * MIN) } as const;
    const endedCalls: number[] = [];
    for (let batch = 0; batch < 20; batch++)
      endedCalls.push(...(await Promise.all(Array.from({ length: 50 }, () => insert(10 * MIN, ended)))));
    const freshRinging = await insert(30_000, { status: 'ringing' });
    const ancientRinging = await insert(27 * 3_600_000, { status: 'ringing', updated_at: iso(base - 27 * 3_600_000) });
    const foreignFresh = await insert(30_000, { status: 'ringing' }, other.businessId);
    const before = await stored(endedCalls[0]!);
    // Act
    const report = await sweeper().sweepOnce();
    // Assert
    expect(report).toMatchObject({ open: 3, requeued: 0, alreadyEnded: 0, errors: 0 });
    expect(report.ended).toMatchObject({ ringing_too_long: 1 });
    expect(await stored(endedCalls[0]!)).toEqual(before);
    expect((await stored(freshRinging))?.status).toBe('ringing');
    expect((await stored(ancientRinging))?.status).toBe('ended');
    expect((await stored(foreignFresh, other.businessId))?.status).toBe('ringing');
    expect(await harness.core.callRepo.countOpenCalls(tenant.businessId, 'ringing')).toBe(1);
  });

  it('completes an ending that stopped halfway, and the call leaves the open calls', async () => {
    // Arrange: an ended call whose follow-up never ran (finish_pending), written 2 min ago
    const { harness, tenant, insert, stored, sweeper, base } = await setup();
    const id = await insert(10 * MIN, {
      status: 'ended',
      ended_reason: 'caller_hung_up',
      finish_pending: true,
      ended_at: iso(base - 2 * MIN),
      updated_at: iso(base - 2 * MIN),
    });
    // Act
    const first = await sweeper().sweepOnce();
    const second = await sweeper().sweepOnce();
    // Assert
    expect(first).toMatchObject({ open: 1, finished: 1, errors: 0 });
    expect(second).toMatchObject({ open: 0, finished: 0 });
    expect(await stored(id)).toMatchObject({ status: 'ended', finish_pending: false });
    expect(await harness.core.callRepo.countOpenCalls(tenant.businessId, 'ended')).toBe(0);
  });

  it('two sweepers running at once end a call exactly once', async () => {
    // Arrange: both sweepers decide to end the call before either writes (a gate holds the first)
    const { insert, stored, sweeper, telephony, endedEvents, base, lifecycle } = await setup();
    hangups.length = 0;
    const id = await insert(10 * MIN, { status: 'in_progress', carrier_call_sid: 'CAboth', started_at: iso(base - 9 * MIN) });
    let open!: () => void;
    const bothDecided = new Promise<void>((resolve) => (open = resolve));
    let arrived = 0;
    const gated: Pick<CallLifecycle, 'end' | 'finish'> = {
      finish: (call) => lifecycle.finish(call),
      end: async (...args) => {
        if (++arrived === 2) open();
        await bothDecided;
        return lifecycle.end(...args);
      },
    };
    // Act
    const reports = await Promise.all([sweeper(telephony(), gated).sweepOnce(), sweeper(telephony(), gated).sweepOnce()]);
    // Assert
    expect(reports.map((report) => report.ended.heartbeat_stale).sort()).toEqual([0, 1]);
    expect(reports.map((report) => report.alreadyEnded).sort()).toEqual([0, 1]);
    expect((await stored(id))?.status).toBe('ended');
    expect(await endedEvents()).toBe(1);
    expect(hangups).toEqual(['/2010-04-01/Accounts/AC1/Calls/CAboth.json']);
  });
});
