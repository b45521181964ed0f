import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiSandboxServer } from '../../../media-service/src/sandbox/openai-server';
import { SANDBOX_NUMBERS } from '../../../media-service/src/sandbox/sandbox-numbers';
import { TOOL_FILLER_LINE } from '../../../media-service/src/call/rules/replies';
import type { TenantClient } from '../../support/api-harness';
import { CALL_TEST_MS } from '../../support/call-limits';
import { QUIET } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';
import { ToolReceiver } from '../../support/tool-receiver';

/**
 * Chaos: each sandbox fault number through a whole call, with the documented outcome
 * (docs/design.md "Provider faults"). The callee is the patient one (four turns, 2.5 s of quiet
 * before each answer); every provider fails after its first turn, by the stand-in breaking its own wire protocol for that call only,
 * so the calls share the stack safely.
 */

let stack: CallStack;
let receiver: ToolReceiver;
/** A business's own model server (`provider: custom`), on the same board so fault numbers reach it. */
let business: OpenAiSandboxServer;

beforeAll(async () => {
  [stack, receiver] = await Promise.all([startCallStack(), ToolReceiver.start()]);
  business = await OpenAiSandboxServer.start({ apiKey: 'sk-biz-key', ttftMs: 20, tokenIntervalMs: 2, board: stack.board });
});

afterAll(async () => {
  await Promise.all([stack?.stop(), receiver?.close(), business?.close()]);
});

const T = { timeout: CALL_TEST_MS };
const numberOf = (fault: string) => SANDBOX_NUMBERS.find((entry) => entry.line.kind === 'answer' && entry.line.fault === fault)!.number;
const SAFETY_LINE = "I'm sorry, I'm having technical trouble and can't continue right now. Please call back in a little while. Goodbye.";
const CALLER = [
  'Hello, this is Sam speaking.',
  'Sure. Before that, are you open on Saturday mornings?',
  'Tuesday at ten works for me.',
  'Great, thank you. Goodbye!',
];
/** The sandbox model's answer to the caller's first turn, as the caller must hear it whole. */
const FIRST_REPLY = 'I understand, you said: Hello, this is Sam speaking. I can help with that. Could you tell me a little more?';
const FALLBACK = { provider: 'openai', model: 'gpt-fallback' };

type Entry = { role: string; text: string; start_ms: number; end_ms: number };
const said = (transcript: Entry[], role: string) => transcript.filter((entry) => entry.role === role).map((entry) => entry.text);

/**
 * Calls a fault number with the assistant `config` (plus what `setup` adds on the new tenant, such
 * as its tools); resolves with the ended call and its detail.
 */
async function callFault(
  fault: string,
  config: Record<string, unknown> = {},
  setup?: (tenant: TenantClient) => Promise<Record<string, unknown>>,
) {
  const tenant = await stack.api.newTenant({ minutes: 100 });
  const extra = setup ? await setup(tenant) : {};
  const assistant = await tenant.request('POST', '/assistants', {
    name: 'Chaos',
    template: 'receptionist',
    config: { first_message: 'Hello, Acme Dental.', advanced: QUIET, ...config, ...extra },
  });
  expect(assistant.status, await assistant.clone().text()).toBe(200);
  const placed = await tenant.request('POST', '/calls', {
    assistant_id: ((await assistant.json()) as { id: number }).id,
    to: numberOf(fault),
  });
  expect(placed.status, await placed.clone().text()).toBe(200);
  const callId = ((await placed.json()) as { id: number }).id;
  const ended = await stack.whenCallEnded(tenant.businessId, callId);
  const transcript = ended.detail.transcript as Entry[];
  const faults = (ended.detail.metrics as { faults: Record<string, number> }).faults;
  return { tenant, callId, call: ended.call, transcript, faults };
}

/** The longest quiet stretch between two transcript entries, ms (no one speaking). */
function longestQuietMs(transcript: Entry[]): number {
  const sorted = [...transcript].filter((entry) => entry.role !== 'tool').sort((a, b) => a.start_ms - b.start_ms);
  let end = sorted[0]?.end_ms ?? 0;
  let longest = 0;
  for (const entry of sorted.slice(1)) {
    longest = Math.max(longest, entry.start_ms - end);
    end = Math.max(end, entry.end_ms);
  }
  return longest;
}

/** The call's provider failure log lines (what ended it `error`, when one did). */
const failures = (callId: number) =>
  stack.logs.filter((line) => line.message === 'call.provider.failed' && line.fields?.call_id === callId);

/** The fault's log line for the call. */
const faultLog = (callId: number, kind: string) =>
  stack.logs.filter((line) => line.message === 'call.provider.fault' && line.fields?.call_id === callId && line.fields?.kind === kind);

// Faults are per call (the board keys them by call SID), so the calls run at once.
describe.concurrent('chaos', () => {
  describe('chaos: the recogniser and the voice drop their sockets', () => {
    it('+15005550010: Flux drops after the first turn; a new socket within 1 s hears every later word', T, async () => {
      // Act
      const { callId, call, transcript, faults } = await callFault('stt-drop');
      // Assert
      expect(call.ended_reason, JSON.stringify(failures(callId))).toBe('assistant_ended');
      expect(said(transcript, 'user')).toEqual(CALLER);
      expect(faults).toMatchObject({ stt_reconnects: 1, tts_reconnects: 0, model_errors: 0 });
      const [log] = faultLog(callId, 'stt_reconnects');
      expect(Number(/Reconnected in (\d+) ms/.exec(String(log?.fields?.detail))?.[1])).toBeLessThan(1000);
      expect(stack.deepgram.fluxConnections.some((flux) => flux.dropped)).toBe(true);
      expect(longestQuietMs(transcript)).toBeLessThan(12_000);
    });

    it('+15005550011: Aura drops mid-reply; a new socket says the rest, and the caller hears the reply once, whole', T, async () => {
      // Act
      const { callId, call, transcript, faults } = await callFault('tts-drop');
      // Assert
      expect(call.ended_reason, JSON.stringify(failures(callId))).toBe('assistant_ended');
      expect(said(transcript, 'assistant')).toContain(FIRST_REPLY);
      expect(said(transcript, 'user')).toEqual(CALLER);
      expect(faults).toMatchObject({ tts_reconnects: 1, stt_reconnects: 0, model_errors: 0 });
      const [log] = faultLog(callId, 'tts_reconnects');
      expect(Number(/Reconnected in (\d+) ms/.exec(String(log?.fields?.detail))?.[1])).toBeLessThan(1000);
      expect(stack.deepgram.auraConnections.some((aura) => aura.dropped)).toBe(true);
      expect(longestQuietMs(transcript)).toBeLessThan(12_000);
    });
  });

  describe('chaos: the model fails', () => {
    it('+15005550012 without a fallback: the safety line within 2 s of the caller, then error', T, async () => {
      // Act
      const { call, transcript, faults } = await callFault('llm-5xx');
      // Assert
      expect(call.ended_reason).toBe('error');
      expect(said(transcript, 'assistant')).toEqual(['Hello, Acme Dental.', SAFETY_LINE]);
      expect(faults.model_errors).toBeGreaterThanOrEqual(1);
      expect(startAfterCaller(transcript, SAFETY_LINE)).toBeLessThan(2000);
    });

    it('+15005550012 with model.fallback: the fallback answers the rest of the call', T, async () => {
      // Act
      const { call, transcript, faults } = await callFault('llm-5xx', { model: { fallback: FALLBACK } });
      // Assert
      expect(call.ended_reason).toBe('assistant_ended');
      expect(said(transcript, 'assistant')).toContain(FIRST_REPLY);
      expect(said(transcript, 'user')).toEqual(CALLER);
      expect(faults).toMatchObject({ model_fallbacks: 1, model_errors: 0 });
      const tagged = stack.openai.requests.filter((request) => request.request?.model === 'gpt-fallback' && request.status === 200);
      expect(tagged.length).toBeGreaterThanOrEqual(3);
    });

    it(
      '+15005550013 with model.fallback: the stall after two words is noticed, the fallback goes on from them without repeating one',
      T,
      async () => {
        // Act
        const { call, transcript, faults } = await callFault('llm-stall', { model: { fallback: FALLBACK } });
        // Assert
        expect(call.ended_reason).toBe('assistant_ended');
        expect(said(transcript, 'assistant')).toContain(FIRST_REPLY);
        expect(faults).toMatchObject({ model_fallbacks: 1, model_errors: 0 });
        expect(longestQuietMs(transcript)).toBeLessThan(12_000);
      },
    );

    it('+15005550013 without a fallback: the filler, then the safety line, never 2 s of quiet, then error', T, async () => {
      // Act
      const { call, transcript, faults } = await callFault('llm-stall');
      // Assert
      expect(call.ended_reason).toBe('error');
      expect(said(transcript, 'assistant').slice(-2)).toEqual(['One moment.', SAFETY_LINE]);
      expect(faults.model_errors).toBe(1);
      expect(longestQuietMs(transcript.slice(1))).toBeLessThan(2000);
    });
  });

  describe("chaos: a business's own model (provider custom) fails the same ways", () => {
    /** A custom-model assistant on `business`, its key stored sealed. */
    const custom = { provider: 'custom', model: 'biz-model', custom_key: 'sk-biz-key' };
    const customOn = () => ({ ...custom, custom_url: business.baseUrl });

    it('+15005550012 on a custom model without a fallback: the safety line, then error', T, async () => {
      // Act
      const { call, transcript, faults } = await callFault('llm-5xx', { model: customOn() });
      // Assert
      expect(call.ended_reason).toBe('error');
      expect(said(transcript, 'assistant')).toEqual(['Hello, Acme Dental.', SAFETY_LINE]);
      expect(faults.model_errors).toBeGreaterThanOrEqual(1);
      expect(business.requests.some((request) => request.status === 500)).toBe(true);
    });

    it('+15005550013 on a custom model with the platform model as fallback: the call goes on', T, async () => {
      // Act
      const { call, transcript, faults } = await callFault('llm-stall', { model: { ...customOn(), fallback: FALLBACK } });
      // Assert
      expect(call.ended_reason).toBe('assistant_ended');
      expect(said(transcript, 'user')).toEqual(CALLER);
      expect(faults).toMatchObject({ model_fallbacks: 1, model_errors: 0 });
    });
  });

  describe('chaos: a tool hangs', () => {
    it('+15005550014: the caller hears a filler, the model gets an error at the timeout, and the call goes on', T, async () => {
      // Act
      const { call, transcript, faults } = await callFault('tool-hang', {}, async (tenant) => ({ tool_ids: [await hangingTool(tenant)] }));
      // Assert
      expect(call.ended_reason).toBe('assistant_ended');
      expect(said(transcript, 'assistant')).toContain(TOOL_FILLER_LINE);
      expect(said(transcript, 'tool')).toContain('check_stock failed');
      expect(said(transcript, 'user')).toEqual(CALLER);
      expect(faults).toMatchObject({ tool_timeouts: 1, model_errors: 0 });
      expect(longestQuietMs(transcript)).toBeLessThan(12_000);
    });
  });

  /** Ms from the end of the caller's first turn to the start of `line`. */
  function startAfterCaller(transcript: Entry[], line: string): number {
    const caller = transcript.find((entry) => entry.role === 'user')!;
    return transcript.find((entry) => entry.text === line)!.start_ms - caller.end_ms;
  }

  /** A custom tool of `tenant` whose server never answers (3 s timeout). */
  async function hangingTool(tenant: TenantClient): Promise<number> {
    const created = await tenant.request('POST', '/tools', {
      name: 'check_stock',
      description: 'Checks whether an item is in stock.',
      parameters: { type: 'object', properties: { item: { type: 'string' } } },
      server_url: receiver.url('chaos', tenant.webhookSecret, 'hang'),
      timeout_ms: 3000,
    });
    expect(created.status, await created.clone().text()).toBe(200);
    return ((await created.json()) as { id: number }).id;
  }
});
