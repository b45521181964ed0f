import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twilioSignature } from '../../../media-service/src/telephony/twilio-signature';
import { CALL_HANG_MS, CALL_TEST_MS } from '../../support/call-limits';
import { uniqueNumber, type TenantClient } from '../../support/api-harness';
import { QUIET, shortTalk } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';

/**
 * Attack suite, inbound calls and the minutes they spend: many callers at once on a nearly empty
 * plan, replayed voice webhooks, and a number whose assistant was deleted. Everything goes through
 * the real media server, sandbox carrier and DynamoDB Local.
 */

let stack: CallStack;

beforeAll(async () => {
  stack = await startCallStack();
});

afterAll(async () => {
  await stack?.stop();
});

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

/** A tenant whose plan has `minutes` left, an assistant, and its sandbox number. */
async function tenantWith(minutes: number) {
  const tenant = await stack.api.newTenant({ minutes });
  const assistant = await json(
    await tenant.request('POST', '/assistants', { name: 'Front desk', config: { first_message: 'Hello, Acme here.', advanced: QUIET } }),
  );
  const numbers = await json(await tenant.request('GET', '/phone-numbers'));
  return { tenant, assistantId: assistant.id as number, number: numbers.data[0].number as string };
}

/** POSTs the voice webhook as Twilio would (signed with the carrier's token) and returns the TwiML. */
async function voiceWebhook(form: Record<string, string>): Promise<string> {
  const url = `http://127.0.0.1:${stack.media.port}/twilio/voice`;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(stack.carrier.authToken, url, form),
    },
    body: new URLSearchParams(form).toString(),
  });
  expect(response.status).toBe(200);
  return response.text();
}

/** Every call of the tenant once none is still ringing or live. */
async function whenAllEnded(tenant: TenantClient, count: number, timeoutMs = CALL_HANG_MS): Promise<Json[]> {
  const started = Date.now();
  for (;;) {
    const calls = (await json(await tenant.request('GET', '/calls?limit=200'))).data as Json[];
    if (calls.length >= count && calls.every((call) => call.status === 'ended')) return calls;
    if (Date.now() - started > timeoutMs) throw new Error(`calls still open: ${JSON.stringify(calls.map((c) => [c.id, c.status]))}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('attack: many inbound and outbound calls on a nearly empty plan', () => {
  it('connects only what the plan can pay for, and the balance never goes below zero', { timeout: CALL_TEST_MS }, async () => {
    // Arrange: 2 minutes left; 5 people call in and 5 outbound calls are placed, all at once
    const { tenant, assistantId, number } = await tenantWith(2);
    const talk = shortTalk();
    const outbound = Array.from({ length: 5 }, () => uniqueNumber());
    for (const to of outbound) stack.carrier.registerScenario(to, talk);
    // Act
    const inbound = Array.from({ length: 5 }, () =>
      stack.carrier.startInboundCall({
        to: number,
        from: uniqueNumber(),
        voiceUrl: `http://127.0.0.1:${stack.media.port}/twilio/voice`,
        scenario: talk,
      }),
    );
    const placed = await Promise.all(outbound.map((to) => tenant.request('POST', '/calls', { assistant_id: assistantId, to })));
    const calls = await whenAllEnded(tenant, 10);
    // Assert
    expect(placed.every((response) => response.status === 200 || response.status === 402)).toBe(true);
    expect(inbound).toHaveLength(5);
    // Every ending finished (slot back, minutes settled, then call.ended published), not only written.
    await Promise.all(calls.map((call) => stack.bus.ended(call.id as number)));
    const talked = calls.filter((call) => call.started_at !== null);
    expect(talked.length).toBeGreaterThan(0);
    expect(talked.length).toBeLessThanOrEqual(2);
    for (const call of calls.filter((c) => c.started_at === null)) expect(call.ended_reason).toBe('failed');
    const business = await stack.core.businesses.getBusiness(tenant.businessId);
    expect(business.minutes_balance).toBeGreaterThanOrEqual(0);
    expect(business).toMatchObject({ minutes_reserved: 0, live_calls: 0 });
  });
});

describe('attack: a replayed voice webhook', () => {
  it('makes one call however often it is replayed, in sequence or at once, and reserves its minutes once', async () => {
    // Arrange
    const { tenant, number } = await tenantWith(100);
    const form = {
      CallSid: `CA${'a'.repeat(24)}${Date.now().toString(16).padStart(8, '0')}`,
      From: '+14155550100',
      To: number,
      Direction: 'inbound',
      CallStatus: 'ringing',
    };
    // Act
    const first = await voiceWebhook(form);
    const replays = [
      await voiceWebhook(form),
      await voiceWebhook(form),
      ...(await Promise.all([voiceWebhook(form), voiceWebhook(form), voiceWebhook(form)])),
    ];
    // Assert
    const callId = /name="call_id" value="(\d+)"/.exec(first)?.[1];
    expect(callId).toBeDefined();
    for (const twiml of replays) expect(/name="call_id" value="(\d+)"/.exec(twiml)?.[1]).toBe(callId);
    const calls = (await json(await tenant.request('GET', '/calls'))).data as Json[];
    expect(calls.map((call) => call.id)).toEqual([Number(callId)]);
    const business = await stack.core.businesses.getBusiness(tenant.businessId);
    expect(business).toMatchObject({ minutes_reserved: 10, live_calls: 1 });
  });

  it('never reconnects a replay of a call that has ended: the caller hears the apology and nothing is charged', async () => {
    // Arrange
    const { tenant, number } = await tenantWith(100);
    const form = {
      CallSid: `CA${'b'.repeat(24)}${Date.now().toString(16).padStart(8, '0')}`,
      From: '+14155550100',
      To: number,
      Direction: 'inbound',
      CallStatus: 'ringing',
    };
    const first = await voiceWebhook(form);
    const callId = Number(/name="call_id" value="(\d+)"/.exec(first)?.[1]);
    await stack.lifecycle.end(tenant.businessId, callId, { endedReason: 'caller_hung_up' });
    const before = await stack.core.businesses.getBusiness(tenant.businessId);
    // Act
    const replay = await voiceWebhook(form);
    // Assert
    expect(replay).not.toContain('<Stream');
    expect(replay).toContain('<Say>');
    expect((await json(await tenant.request('GET', '/calls'))).data).toHaveLength(1);
    expect(await stack.core.businesses.getBusiness(tenant.businessId)).toMatchObject({
      minutes_balance: before.minutes_balance,
      minutes_reserved: 0,
    });
  });
});

describe('attack: a number whose assistant was deleted', () => {
  it('is answered by the business default assistant, never by the deleted one', async () => {
    // Arrange
    const { tenant, assistantId: defaultId } = await tenantWith(100);
    const other = await json(await tenant.request('POST', '/assistants', { name: 'Sales' }));
    const line = await stack.api.admin.addNumber(tenant.businessId, {
      number: uniqueNumber(),
      provider: 'sandbox',
      assistantId: other.id,
      label: 'sales',
    });
    await tenant.request('DELETE', `/assistants/${other.id}`);
    const form = {
      CallSid: `CA${'c'.repeat(24)}${Date.now().toString(16).padStart(8, '0')}`,
      From: '+14155550100',
      To: line.number,
      Direction: 'inbound',
      CallStatus: 'ringing',
    };
    // Act
    const twiml = await voiceWebhook(form);
    // Assert
    const callId = Number(/name="call_id" value="(\d+)"/.exec(twiml)?.[1]);
    expect(await json(await tenant.request('GET', `/calls/${callId}`))).toMatchObject({ assistant_id: defaultId, direction: 'inbound' });
  });
});
