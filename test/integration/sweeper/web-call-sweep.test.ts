import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../../shared/db/call-repository';
import { MinutesRepository } from '../../../shared/db/minutes-repository';
import { keys } from '../../../shared/db/table';
import { LocalEventRouter } from '../../../shared/events/event-bus';
import type { CallEvent } from '../../../shared/events/catalog';
import { SqsOutboundCallQueue } from '../../../shared/queue/outbound-calls';
import { CallLifecycle } from '../../../shared/services/call-lifecycle';
import { CallSweeper, DEFAULT_SWEEP_LIMITS, sweepAction } from '../../../shared/services/call-sweeper';
import { createApiHarness } from '../../support/api-harness';
import { captureLogger } from '../../support/capture-logger';

const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('sweepAction on queued web calls (the rules)', () => {
  const now = Date.UTC(2032, 0, 1);
  const web = (fields: Partial<CallRecord>) =>
    ({
      status: 'queued',
      channel: 'web',
      direction: 'inbound',
      created_at: iso(now - 1000),
      updated_at: iso(now - 1000),
      ...fields,
    }) as CallRecord;
  it.each([
    ['unjoined, token still valid', web({ web_token_hash: 'h', web_token_expires_at: now + 30_000 }), undefined],
    ['unjoined, token expired 30 s ago', web({ web_token_hash: 'h', web_token_expires_at: now - 30_000 }), undefined],
    [
      'unjoined, token expired 61 s ago',
      web({ web_token_hash: 'h', web_token_expires_at: now - 61_000, created_at: iso(now - 121_000) }),
      { kind: 'end', rule: 'web_never_joined', reason: 'canceled' },
    ],
    ['joined 1 min ago, not answered yet', web({ created_at: iso(now - MIN) }), undefined],
    [
      'joined but still queued 3 min after creation',
      web({ created_at: iso(now - 3 * MIN) }),
      { kind: 'end', rule: 'web_join_died', reason: 'error' },
    ],
    [
      'in progress (answered): the heartbeat rule applies',
      web({ status: 'in_progress', started_at: iso(now - MIN), heartbeat_at: iso(now - 10_000) }),
      undefined,
    ],
  ])('%s', (_name, call, expected) => {
    // Arrange / Act / Assert
    expect(sweepAction(call, now, DEFAULT_SWEEP_LIMITS)).toEqual(expected);
  });
});

describe('CallSweeper ends web calls nobody joined', () => {
  /** A table of its own (a sweep reads every open call of its table) and a clock the test moves. */
  async function setup() {
    let clock = Date.UTC(2032, 1, 1, 12);
    const now = () => new Date(clock);
    const harness = await createApiHarness({ tableName: `web-sweep-${randomUUID()}`, clock: now });
    const tenant = await harness.newTenant({ minutes: 50 });
    const assistant = (await (await tenant.request('POST', '/assistants', {})).json()) as { id: number };
    const minutes = new MinutesRepository(harness.core.db);
    const ended: CallEvent[] = [];
    const events = new LocalEventRouter({ analysis: async (event) => void ended.push(event), webhooks: async () => {} });
    const lifecycle = new CallLifecycle({
      calls: harness.core.callRepo,
      assistants: harness.core.assistantRepo,
      minutes,
      events,
      now,
      newEventId: () => `evt_${randomUUID()}`,
    });
    const sweeper = new CallSweeper({
      calls: harness.core.callRepo,
      lifecycle,
      queue: new SqsOutboundCallQueue(harness.sqs, harness.queueUrl),
      now,
      log: captureLogger().log,
    });
    const createWebCall = async () =>
      (await (await tenant.request('POST', '/calls/web', { assistant_id: assistant.id })).json()) as { call_id: number; token: string };
    const stored = (callId: number) => harness.core.callRepo.getCallRecord(tenant.businessId, callId);
    const usage = async () =>
      (await (await tenant.request('GET', '/usage')).json()) as { minutes_reserved: number; minutes_remaining: number };
    const advance = (ms: number) => (clock += ms);
    return { harness, tenant, minutes, sweeper, createWebCall, stored, usage, advance, ended, events };
  }

  it('leaves an unjoined web call alone while its token may still be redeemed, then ends it canceled', async () => {
    // Arrange
    const { sweeper, createWebCall, stored, advance, ended, events } = await setup();
    const { call_id } = await createWebCall();
    // Act
    advance(90_000);
    const early = await sweeper.sweepOnce();
    advance(40_000);
    const late = await sweeper.sweepOnce();
    await events.drain();
    // Assert
    expect(early.ended.web_never_joined).toBe(0);
    expect(late.ended.web_never_joined).toBe(1);
    expect(await stored(call_id)).toMatchObject({ status: 'ended', ended_reason: 'canceled', outcome: null, duration_s: 0 });
    expect(ended.map((event) => event.detail.call_id)).toEqual([call_id]);
    expect((await sweeper.sweepOnce()).open).toBe(0);
  });

  it('ends a joined web call the engine never answered as error, and gives its minutes reservation back', async () => {
    // Arrange
    const { harness, tenant, minutes, sweeper, createWebCall, stored, usage, advance } = await setup();
    const { call_id } = await createWebCall();
    // The engine redeems the token (the contract's conditional update) and reserves minutes, then dies.
    await redeem(harness, tenant.businessId, call_id);
    const granted = await minutes.reserve(tenant.businessId, call_id, 5, 300);
    const reserved = await usage();
    // Act
    advance(3 * MIN);
    const report = await sweeper.sweepOnce();
    // Assert
    expect(granted).toBe(5);
    expect(reserved.minutes_reserved).toBe(5);
    expect(report.ended.web_join_died).toBe(1);
    expect(await stored(call_id)).toMatchObject({ status: 'ended', ended_reason: 'error', settled: true });
    expect(await usage()).toMatchObject({ minutes_reserved: 0, minutes_remaining: 50 });
  });
});

/** The call engine's redemption as the contract writes it (the hash checked, then removed). */
async function redeem(harness: Awaited<ReturnType<typeof createApiHarness>>, businessId: number, callId: number): Promise<void> {
  const { db } = harness.core;
  await db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.call(businessId, callId),
      ConditionExpression: 'attribute_exists(web_token_hash) AND #status = :queued',
      UpdateExpression: 'REMOVE web_token_hash',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':queued': 'queued' },
    }),
  );
}
