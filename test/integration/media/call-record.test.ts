import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { step } from '../../../media-service/src/sandbox/scenario-script';
import type { ReceivedLlmRequest } from '../../../media-service/src/sandbox/openai-server';
import { CALL_TEST_MS } from '../../support/call-limits';
import { callScripted, carrierCall, getCall, llmRequestsWith, placeCall, QUIET, waitForAssistant } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';

/**
 * What a customer reads back about a whole call over the sandbox carrier: the call record's own
 * fields (created_at, answered_by, carrier_call_id, billed_minutes, expires_at, transferred_to;
 * a transfer's is in call-e2e.test.ts),
 * the metrics of a call that never connected, waivers returned as sent, and a prompt that names
 * only the tools the model is offered, and a custom model's label and request.
 */
let stack: CallStack;

beforeAll(async () => {
  stack = await startCallStack();
});

afterAll(async () => {
  await stack?.stop();
});

const T = { timeout: CALL_TEST_MS };
const DAY_MS = 86_400_000;

const toolNames = (request: ReceivedLlmRequest) => (request.request?.tools ?? []).map((tool) => tool.function.name).sort();
const systemOf = (request: ReceivedLlmRequest) => JSON.stringify(request.request?.messages.find((m) => m.role === 'system')?.content ?? '');

describe.concurrent('the call record of a whole call', () => {
  it(
    'an answered outbound call: created_at, answered_by human, the carrier’s id, billed minutes, expires_at; waivers unchanged',
    T,
    async () => {
      // Arrange
      const waivers = { consent: { version: 3, text: 'Recorded with consent' } };
      const config = { first_message: 'Hello from Acme.', advanced: { ...QUIET, keep_days: 7, waivers } };
      // Act
      const { tenant, callId, to, assistantId } = await callScripted(stack, config, [
        waitForAssistant(),
        step.say('Thanks, that is all. Bye bye now.'),
        waitForAssistant(),
        step.hangup(),
      ]);
      await stack.whenCallEnded(tenant.businessId, callId);
      const call = await getCall(tenant, callId);
      // Assert
      expect(call).toMatchObject({
        status: 'ended',
        answered_by: 'human',
        carrier_call_id: carrierCall(stack, to).sid,
        transferred_to: null,
        billed_minutes: 1,
        recording_notice_heard: null,
        ai_disclosure_heard: null,
      });
      expect(Date.parse(call.created_at)).toBeLessThanOrEqual(Date.parse(call.started_at));
      expect(Date.parse(call.expires_at) - Date.parse(call.ended_at)).toBeGreaterThanOrEqual(7 * DAY_MS - 1000);
      expect(Date.parse(call.expires_at) - Date.parse(call.ended_at)).toBeLessThanOrEqual(7 * DAY_MS + 1000);
      const assistant = (await (await tenant.request('GET', `/assistants/${assistantId}`)).json()) as {
        config: { advanced: { waivers: unknown } };
      };
      expect(assistant.config.advanced.waivers).toEqual(waivers);
    },
  );

  it('an answering machine: answered_by machine', T, async () => {
    // Act: the sandbox voicemail line; no voicemail_message, so the engine hangs up once it knows
    const { tenant, callId } = await placeCall(
      stack,
      { first_message: 'Hello.', advanced: { ...QUIET, voicemail_message: '' } },
      '+15005550003',
    );
    await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(await getCall(tenant, callId)).toMatchObject({ ended_reason: 'voicemail', answered_by: 'machine' });
  });

  it('a call that never connected: the documented metrics, empty; never answered, nothing billed', T, async () => {
    // Act
    const { tenant, callId } = await placeCall(stack, {}, '+15005550001');
    await stack.whenCallEnded(tenant.businessId, callId);
    const call = await getCall(tenant, callId);
    // Assert
    expect(call).toMatchObject({ ended_reason: 'busy', answered_by: null, billed_minutes: 0, duration_s: 0 });
    expect(call.metrics).toMatchObject({
      turns: [],
      interruptions: 0,
      latency_ms: { p50: null, p95: null, max: null },
      llm_tokens: { input: 0, output: 0 },
      tts_characters: 0,
      stt_seconds: 0,
      duration_s: 0,
    });
  });

  it('builtin.transfer on without a transfer number: neither the tools nor the prompt offer a transfer', T, async () => {
    // Arrange
    const marker = `Can I speak to a manager about order ${Date.now() % 100000}?`;
    const config = { first_message: 'Hello.', builtin: { transfer: true, end_call: true }, advanced: QUIET };
    // Act
    const { tenant, callId } = await callScripted(stack, config, [waitForAssistant(), step.say(marker), waitForAssistant(), step.hangup()]);
    const { call } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    const requests = llmRequestsWith(stack, marker);
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) {
      expect(toolNames(request)).not.toContain('transfer');
      expect(toolNames(request)).toContain('end_call');
      expect(systemOf(request)).not.toMatch(/transfer tool/);
    }
    expect(call.ended_reason).not.toBe('transferred');
  });

  it('a custom model: metrics.providers.llm says custom, and no OpenAI service_tier reaches it though priority is on', T, async () => {
    // Arrange: the business's own OpenAI-compatible endpoint (here the sandbox's, at its loopback address)
    const marker = `Are you open on Saturday mornings, custom ${Date.now() % 100000}?`;
    const model = { provider: 'custom', custom_url: stack.openai.baseUrl, custom_key: 'sk-business', priority: true, race: false };
    // Act
    const { tenant, callId } = await callScripted(stack, { first_message: 'Hello.', model, advanced: QUIET }, [
      waitForAssistant(),
      step.say(marker),
      waitForAssistant(),
      step.hangup(),
    ]);
    await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    const requests = llmRequestsWith(stack, marker);
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) {
      expect(request.authorization).toBe('Bearer sk-business');
      expect(request.body).not.toHaveProperty('service_tier');
    }
    expect((await getCall(tenant, callId)).metrics.providers.llm).toBe('custom');
  });
});
