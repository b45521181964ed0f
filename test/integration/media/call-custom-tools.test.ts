import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SCENARIOS } from '../../../media-service/src/sandbox/scenarios';
import { step, type ScenarioStep } from '../../../media-service/src/sandbox/scenario-script';
import { CALL_TEST_MS } from '../../support/call-limits';
import { uniqueNumber, type TenantClient } from '../../support/api-harness';
import { QUIET, getCall, llmRequestsWith, waitForAssistant } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';
import { strictResponseErrors } from '../../support/openapi-strict';
import { ORDER_SCHEMA, ToolReceiver, type ToolMode } from '../../support/tool-receiver';

let stack: CallStack;
let receiver: ToolReceiver;

beforeAll(async () => {
  [stack, receiver] = await Promise.all([startCallStack(), ToolReceiver.start()]);
});

afterAll(async () => {
  await Promise.all([stack?.stop(), receiver?.close()]);
});

const T = { timeout: CALL_TEST_MS };

/** A tenant with a `lookup_order` tool on the receiver, an assistant that has it in `tool_ids`, and a call placed to `steps`. */
async function callWithTool(
  mode: ToolMode,
  steps: readonly ScenarioStep[],
  tool: Record<string, unknown> = {},
  config: Record<string, unknown> = {},
) {
  const tenant: TenantClient = await stack.api.newTenant({ minutes: 100 });
  const token = randomUUID();
  const created = await tenant.request('POST', '/tools', {
    name: 'lookup_order',
    description: "Looks up an order's status and delivery date by its order id.",
    parameters: ORDER_SCHEMA,
    server_url: receiver.url(token, tenant.webhookSecret, mode),
    ...tool,
  });
  expect(created.status, await created.clone().text()).toBe(200);
  const toolRecord = (await created.json()) as { id: number };
  const assistant = await tenant.request('POST', '/assistants', {
    name: 'Orders',
    template: 'receptionist',
    config: { first_message: 'Hello, Acme Parts.', advanced: QUIET, tool_ids: [toolRecord.id], ...config },
  });
  const assistantId = ((await assistant.json()) as { id: number }).id;
  const to = uniqueNumber();
  stack.carrier.registerScenario(to, { ...SANDBOX_SCENARIOS.tool, name: `tool ${to}`, steps });
  const placed = await tenant.request('POST', '/calls', { assistant_id: assistantId, to });
  const callId = ((await placed.json()) as { id: number }).id;
  await stack.whenCallEnded(tenant.businessId, callId);
  return { tenant, token, toolId: toolRecord.id, assistantId, callId, to, call: await getCall(tenant, callId) };
}

const assistantLines = (call: Record<string, any>) =>
  (call.transcript as { role: string; text: string }[]).filter((entry) => entry.role === 'assistant').map((entry) => entry.text);

/** The caller asks once, waits for the outcome (a filler, then the answer), and says goodbye. */
const askThenGoodbye = (words: string) => [
  waitForAssistant(),
  step.say(words),
  step.waitForAssistant({ quietMs: 2500, timeoutMs: 15_000 }),
  step.say('Okay, goodbye.'),
  waitForAssistant(),
  step.hangup(),
];

describe.concurrent('custom tools on a whole call', () => {
  it('the tool scenario: a signed tool.call reaches the server, its answer reaches the model, the caller and actions', T, async () => {
    // Act
    const { token, toolId, assistantId, callId, to, call } = await callWithTool('ok', SANDBOX_SCENARIOS.tool.steps);
    // Assert: one request, verified by standardwebhooks, with the documented body
    const received = receiver.of(token);
    expect(received).toHaveLength(1);
    expect(received[0]!.verified).toEqual({
      type: 'tool.call',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: {
        tool: { id: toolId, name: 'lookup_order' },
        arguments: { order_id: 'AB1234' },
        call: { id: callId, assistant_id: assistantId, direction: 'outbound', from_number: call.from_number, to_number: to },
      },
    });
    // Assert: the model was offered the tool with its schema, and got the server's answer as the tool result
    // Only this call's caller introduces themselves (the others run side by side).
    const requests = llmRequestsWith(stack, 'this is Jordan Lee');
    const offered = (requests[0]!.body as { tools: { function: { name: string; parameters: unknown } }[] }).tools;
    expect(offered.find((t) => t.function.name === 'lookup_order')?.function.parameters).toEqual(ORDER_SCHEMA);
    const toolMessages = requests
      .flatMap((r) => (r.body as { messages: { role: string; content: unknown }[] }).messages)
      .filter((m) => m.role === 'tool');
    expect(toolMessages[0]?.content).toBe(JSON.stringify({ status: 'shipped', delivery_date: '2026-11-28' }));
    // Assert: what the caller heard, and the call's actions
    expect(assistantLines(call)).toContain(
      'Here is what I found. status: shipped; delivery date: 2026-11-28. Is there anything else I can help you with?',
    );
    expect(call.actions[0]).toEqual({
      name: 'lookup_order',
      arguments: { order_id: 'AB1234' },
      ok: true,
      result: 'HTTP 200: {"status":"shipped","delivery_date":"2026-11-28"}',
      error: null,
      at_ms: expect.any(Number),
      duration_ms: expect.any(Number),
    });
    expect(strictResponseErrors('CallDetail', call)).toEqual([]);
  });

  it('arguments that fail the schema: the model is told why, the server is never called', T, async () => {
    // Act
    const { token, call } = await callWithTool('ok', askThenGoodbye('Hi, please lookup order number 99 for me.'));
    // Assert
    expect(receiver.of(token)).toEqual([]);
    expect(call.actions[0]).toMatchObject({ name: 'lookup_order', ok: false, result: '' });
    expect(call.actions[0].error).toMatch(/^The arguments were not valid \(order_id must match pattern/);
    expect(assistantLines(call).some((line) => line.startsWith("I'm sorry, that didn't work: the arguments were not valid"))).toBe(true);
  });

  it('a server that does not answer in time: the filler line is spoken, the model hears a plain-words timeout', T, async () => {
    // Act
    const { token, call } = await callWithTool('hang', askThenGoodbye('Hi, please lookup order AB1234 for me.'), {
      timeout_ms: 1500,
      filler: 'Let me pull up that order.',
    });
    // Assert
    expect(receiver.of(token)).toHaveLength(1);
    const error =
      "The business's system did not answer within 1.5 seconds, so it is not known whether lookup_order was done. Tell the caller you could not confirm it right now; do not say it was done or not done.";
    expect(call.actions[0]).toMatchObject({ name: 'lookup_order', ok: false, error });
    expect(assistantLines(call)).toEqual(
      expect.arrayContaining([
        'Let me pull up that order.',
        "I'm sorry, I couldn't confirm that right now. Could you try again a little later?",
      ]),
    );
    expect(stack.logs.some((line) => line.message === 'call.tool.timeout' && line.fields?.call_id === call.id)).toBe(true);
  });

  it('a server answering 503: the model hears it failed in plain words, actions records it', T, async () => {
    // Act
    const { token, call } = await callWithTool('fail', askThenGoodbye('Hi, please lookup order AB1234 for me.'));
    // Assert
    expect(receiver.of(token)).toHaveLength(1);
    const error =
      "The business's system answered lookup_order with an error (HTTP 503), so it did not work. Tell the caller you could not do that right now.";
    expect(call.actions[0]).toMatchObject({ name: 'lookup_order', ok: false, result: '', error });
    expect(assistantLines(call)).toContain("I'm sorry, I couldn't get that done right now. Could you try again a little later?");
    // The server's body is never logged or shown.
    expect(JSON.stringify(stack.logs.filter((line) => line.fields?.call_id === call.id))).not.toContain('maintenance');
  });

  it('live mode (OpenAI Realtime): the same tool runs from a function_call and its answer is spoken', T, async () => {
    // Act
    const { token, call } = await callWithTool('ok', askThenGoodbye('Hi, please lookup order AB1234 for me.'), {}, { mode: 'live' });
    // Assert
    expect(receiver.of(token)).toHaveLength(1);
    expect(receiver.of(token)[0]!.verified?.data.arguments).toEqual({ order_id: 'AB1234' });
    expect(call.actions[0]).toMatchObject({ name: 'lookup_order', ok: true, arguments: { order_id: 'AB1234' } });
    expect(assistantLines(call)).toContain(
      'Here is what I found. status: shipped; delivery date: 2026-11-28. Is there anything else I can help you with?',
    );
  });
});
