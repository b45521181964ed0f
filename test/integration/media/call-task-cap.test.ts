import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxCallRecord } from '../../../media-service/src/sandbox/carrier-types';
import { CALL_HANG_MS, CALL_TEST_MS } from '../../support/call-limits';
import { uniqueNumber } from '../../support/api-harness';
import { QUIET, shortTalk } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';
import { holdSeat } from '../../support/session-seat';

/**
 * The per-task admission cap through the sandbox carrier and two call-engine processes behind the
 * round-robin proxy, each taking one call at most. A full process answers the voice webhook 503
 * (the carrier then requests the number's fallback URL, which the proxy sends to the other one)
 * and refuses a media stream at the handshake (the TwiML's next `<Connect>` lands on the other).
 */

let stack: CallStack;

beforeAll(async () => {
  stack = await startCallStack({ tasks: 2, maxCalls: [1, 1] });
});

afterAll(async () => {
  await stack?.stop();
});

type Json = Record<string, any>;

const talk = shortTalk();

/** A tenant with an assistant and its sandbox number. */
async function tenantWithNumber() {
  const tenant = await stack.api.newTenant();
  await tenant.request('POST', '/assistants', { name: 'Front desk', config: { first_message: 'Hello, Acme here.', advanced: QUIET } });
  const numbers = (await (await tenant.request('GET', '/phone-numbers')).json()) as Json;
  return { tenant, number: numbers.data[0].number as string };
}

/** Sends harmless requests through the proxy until process `index` gets the next one. */
async function nextRequestGoesTo(index: number): Promise<void> {
  const proxy = stack.proxy!;
  while (proxy.counts.reduce((sum, count) => sum + count, 0) % proxy.counts.length !== index) await fetch(`${proxy.url}/health`);
}

/** A simulated person calls `number` through the proxy, the fallback URL set to the same route as on Twilio. */
function callIn(number: string): string {
  const voiceUrl = `${stack.proxy!.url}/twilio/voice`;
  return stack.carrier.startInboundCall({ to: number, from: uniqueNumber(), voiceUrl, voiceFallbackUrl: voiceUrl, scenario: talk }).callSid;
}

/** The voice webhook requests the carrier made: their status and the fallback's ErrorCode. */
const voiceRequests = (record: SandboxCallRecord) =>
  record.callbacks.filter((callback) => callback.kind === 'voice').map((callback) => [callback.httpStatus, callback.params.ErrorCode]);

describe('per-task admission cap (sandbox carrier, two processes)', () => {
  it(
    'a full process refuses the webhook (503 → fallback elsewhere) and the stream (next <Connect> elsewhere); the call runs whole',
    { timeout: CALL_TEST_MS },
    async () => {
      // Arrange
      const { tenant, number } = await tenantWithNumber();
      const seat = holdSeat(stack.medias[0]!.registry, 900_001);
      await nextRequestGoesTo(0);
      // Act
      const record = await stack.carrier.whenEnded(callIn(number), CALL_HANG_MS);
      const calls = ((await (await tenant.request('GET', '/calls')).json()) as Json).data as Json[];
      const ended = await stack.whenCallEnded(tenant.businessId, calls[0]!.id as number);
      seat.end();
      // Assert
      expect(voiceRequests(record)).toEqual([
        [503, undefined],
        [200, '11200'],
      ]);
      expect(record.streams.map((stream) => stream.error ?? 'connected')).toEqual(['handshake refused with HTTP 503', 'connected']);
      expect(calls).toHaveLength(1);
      expect(ended.call.ended_reason).toBe('caller_hung_up');
      expect(ended.detail.transcript[0]).toMatchObject({ role: 'assistant', text: 'Hello, Acme here.' });
      expect(stack.logs.filter((line) => line.message === 'media.upgrade.at_task_cap')).not.toHaveLength(0);
    },
  );

  it(
    'when the fallback finds a full process too, the caller hears the apology and nothing is recorded or charged',
    { timeout: CALL_TEST_MS },
    async () => {
      // Arrange
      const { tenant, number } = await tenantWithNumber();
      const before = await stack.core.businesses.getBusiness(tenant.businessId);
      const seats = [holdSeat(stack.medias[0]!.registry, 900_002), holdSeat(stack.medias[1]!.registry, 900_003)];
      await nextRequestGoesTo(0);
      // Act
      const record = await stack.carrier.whenEnded(callIn(number), CALL_HANG_MS);
      for (const seat of seats) seat.end();
      // Assert
      expect(voiceRequests(record)).toEqual([
        [503, undefined],
        [200, '11200'],
      ]);
      expect(record.said).toEqual(['Sorry, we cannot take your call right now. Please try again later. Goodbye.']);
      expect(record.streams).toEqual([]);
      expect(((await (await tenant.request('GET', '/calls')).json()) as Json).data).toEqual([]);
      expect(await stack.core.businesses.getBusiness(tenant.businessId)).toEqual(before);
    },
  );
});
