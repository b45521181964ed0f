import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SCENARIOS } from '../../../media-service/src/sandbox/scenarios';
import { CALL_TEST_MS } from '../../support/call-limits';
import { uniqueNumber } from '../../support/api-harness';
import { QUIET, getCall, llmRequestsWith } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';
import { KNOWLEDGE_FIXTURES, knowledgeApi, startFixtureServer } from '../../support/knowledge-harness';
import { strictResponseErrors } from '../../support/openapi-strict';
import { ORDER_SCHEMA, ToolReceiver } from '../../support/tool-receiver';

type Json = Record<string, any>;

let stack: CallStack;
let knowledge: ReturnType<typeof knowledgeApi>;
let receiver: ToolReceiver;
let fixtures: Awaited<ReturnType<typeof startFixtureServer>>;

beforeAll(async () => {
  [stack, receiver, fixtures] = await Promise.all([startCallStack(), ToolReceiver.start(), startFixtureServer()]);
  // The stack's URL policy allows private addresses, as `npm run dev` does: the fixtures are on loopback.
  knowledge = knowledgeApi(stack.api, stack.openai);
});

afterAll(async () => {
  await Promise.all([stack?.stop(), receiver?.close(), fixtures?.close()]);
});

const T = { timeout: CALL_TEST_MS };

/** A tenant with a knowledge base of the shipped price list and FAQ, an assistant using it, and a call placed to the `ask` scenario. */
async function askCall(config: Record<string, unknown>) {
  const tenant = await stack.api.newTenant({ minutes: 100 });
  const send = async (method: string, path: string, body?: unknown) =>
    (await knowledge.request(tenant.apiKey, method, path, body)).json() as Promise<Json>;
  const kb = await send('POST', '/knowledge-bases', { name: 'Clinic' });
  for (const [name, file] of [
    ['Prices', 'services.txt'],
    ['FAQ', 'faq.md'],
  ])
    await send('POST', `/knowledge-bases/${kb.id}/documents`, { name, text: readFileSync(join(KNOWLEDGE_FIXTURES, file!), 'utf8') });
  await knowledge.idle();
  const assistant = await tenant.request('POST', '/assistants', {
    name: 'Front desk',
    template: 'receptionist',
    config: { first_message: 'Hello, Harbor Dental.', advanced: QUIET, knowledge_ids: [kb.id], ...config },
  });
  expect(assistant.status, await assistant.clone().text()).toBe(200);
  const assistantId = ((await assistant.json()) as { id: number }).id;
  const to = uniqueNumber();
  stack.carrier.registerScenario(to, { ...SANDBOX_SCENARIOS.ask, name: `ask ${to}` });
  const placed = await tenant.request('POST', '/calls', { assistant_id: assistantId, to });
  const callId = ((await placed.json()) as { id: number }).id;
  await stack.whenCallEnded(tenant.businessId, callId);
  return { kb, callId, call: await getCall(tenant, callId) };
}

const assistantLines = (call: Json) =>
  (call.transcript as { role: string; text: string }[]).filter((e) => e.role === 'assistant').map((e) => e.text);

describe.concurrent('knowledge bases on a whole call', () => {
  it('the ask scenario: search_knowledge finds the price in a document and the reply carries it', T, async () => {
    // Act
    const { callId, call } = await askCall({ first_message: 'Hello, Harbor Dental front desk.' });
    // Assert: the model was offered the tool and told to answer only from what it finds
    // Only this call's assistant greets this way (the other call runs side by side).
    const requests = llmRequestsWith(stack, 'teeth whitening cost').filter((r) =>
      JSON.stringify(r.body).includes('Harbor Dental front desk'),
    );
    const first = requests[0]!.body as { tools: { function: { name: string } }[]; messages: { role: string; content: unknown }[] };
    expect(first.tools.map((tool) => tool.function.name)).toContain('search_knowledge');
    expect(JSON.stringify(first.messages[0]!.content)).toContain('answer only from the passages it returns');
    // Assert: what the caller heard, and the call's actions
    expect(assistantLines(call)).toContain('Let me check that for you.');
    expect(assistantLines(call).some((line) => line.includes('Teeth whitening costs 350 dollars per session'))).toBe(true);
    expect(call.actions[0]).toMatchObject({
      name: 'search_knowledge',
      arguments: { query: 'Hi, how much does teeth whitening cost?' },
      ok: true,
    });
    expect(call.actions[0].result).toMatch(/^\d passages? found$/);
    expect(strictResponseErrors('CallDetail', call)).toEqual([]);
    // Assert: the speculative search of the caller's words was counted
    const searches = stack.logs.filter((line) => line.message === 'call.knowledge.search' && line.fields?.call_id === callId);
    expect(searches).toHaveLength(1);
    expect(['ready', 'pending']).toContain(searches[0]!.fields?.speculative);
  });

  it('builtin knowledge off: the tool is not offered and nothing is searched', T, async () => {
    // Act
    const { call } = await askCall({ first_message: 'Hello, Harbor Dental reception.', builtin: { knowledge: false } });
    // Assert
    const requests = llmRequestsWith(stack, 'teeth whitening cost').filter((r) =>
      JSON.stringify(r.body).includes('Harbor Dental reception'),
    );
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests)
      expect(((request.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name)).not.toContain(
        'search_knowledge',
      );
    expect(call.actions.map((action: Json) => action.name)).not.toContain('search_knowledge');
    expect(assistantLines(call)).not.toContain('Let me check that for you.');
  });
});

describe.concurrent('documents and a custom tool on one call (docs/api-tour.md "Documents and a tool on one call")', () => {
  it(
    'the ask-and-tool scenario: the PDF answers the first question, the tool the second; both in transcript and actions',
    { timeout: CALL_TEST_MS },
    async () => {
      // Arrange: a base from a web page and a PDF, fetched over HTTP; a lookup_order tool on a verifying receiver
      const tenant = await stack.api.newTenant({ minutes: 100 });
      const send = async (method: string, path: string, body?: unknown) =>
        (await knowledge.request(tenant.apiKey, method, path, body)).json() as Promise<Json>;
      const kb = await send('POST', '/knowledge-bases', { name: 'Clinic' });
      await send('POST', `/knowledge-bases/${kb.id}/documents`, { name: 'About us', url: `${fixtures.url}/about.html` });
      await send('POST', `/knowledge-bases/${kb.id}/documents`, { name: 'Policies', url: `${fixtures.url}/policies.pdf` });
      await knowledge.idle();
      const documents = await send('GET', `/knowledge-bases/${kb.id}/documents`);
      expect(documents.data.map((doc: Json) => [doc.name, doc.status])).toEqual(
        expect.arrayContaining([
          ['About us', 'ready'],
          ['Policies', 'ready'],
        ]),
      );
      const token = randomUUID();
      const tool = await tenant.request('POST', '/tools', {
        name: 'lookup_order',
        description: "Looks up an order's status and delivery date by its order id.",
        parameters: ORDER_SCHEMA,
        server_url: receiver.url(token, tenant.webhookSecret, 'ok'),
      });
      expect(tool.status, await tool.clone().text()).toBe(200);
      const toolId = ((await tool.json()) as { id: number }).id;
      const assistant = await tenant.request('POST', '/assistants', {
        name: 'Front desk',
        template: 'receptionist',
        config: { first_message: 'Hello, Harbor Dental.', advanced: QUIET, knowledge_ids: [kb.id], tool_ids: [toolId] },
      });
      expect(assistant.status, await assistant.clone().text()).toBe(200);
      const assistantId = ((await assistant.json()) as { id: number }).id;
      const to = uniqueNumber();
      stack.carrier.registerScenario(to, { ...SANDBOX_SCENARIOS['ask-and-tool'], name: `ask-and-tool ${to}` });
      // Act
      const placed = await tenant.request('POST', '/calls', { assistant_id: assistantId, to });
      const callId = ((await placed.json()) as { id: number }).id;
      await stack.whenCallEnded(tenant.businessId, callId);
      const call = await getCall(tenant, callId);
      // Assert: what the caller heard, in order: the policy from the PDF, then the tool's answer
      const lines = assistantLines(call);
      const policy = lines.findIndex((line) => line.includes('Late cancellations are charged a fee of 40 dollars.'));
      const order = lines.indexOf(
        'Here is what I found. status: shipped; delivery date: 2026-11-28. Is there anything else I can help you with?',
      );
      expect(policy, lines.join('\n')).toBeGreaterThan(-1);
      expect(order, lines.join('\n')).toBeGreaterThan(policy);
      // Assert: the search and the tool call in actions, in the order the caller asked
      expect(call.actions.map((action: Json) => action.name)).toEqual(['search_knowledge', 'lookup_order', 'end_call']);
      expect(call.actions[0]).toMatchObject({
        name: 'search_knowledge',
        arguments: { query: 'Hi, what is your cancellation policy?' },
        ok: true,
        result: expect.stringMatching(/^\d passages? found$/),
      });
      expect(call.actions[1]).toMatchObject({
        name: 'lookup_order',
        arguments: { order_id: 'AB1234' },
        ok: true,
        result: 'HTTP 200: {"status":"shipped","delivery_date":"2026-11-28"}',
      });
      expect(strictResponseErrors('CallDetail', call)).toEqual([]);
      // Assert: the passage the model was given came from the PDF
      const searched = llmRequestsWith(stack, 'cancellation policy')
        .flatMap((request) => (request.body as { messages: { role: string; content: unknown }[] }).messages)
        .find((message) => message.role === 'tool');
      expect(JSON.parse(String(searched?.content)).passages[0]).toMatchObject({ document: 'Policies' });
      // Assert: the search was logged with how it went and how long the model's call waited for passages
      const searches = stack.logs.filter((line) => line.message === 'call.knowledge.search' && line.fields?.call_id === callId);
      expect(searches).toHaveLength(1);
      expect(searches[0]!.fields).toMatchObject({ speculative: expect.stringMatching(/^(ready|pending)$/), wait_ms: expect.any(Number) });
      // Assert: the receiver got one request, verified by standardwebhooks
      expect(receiver.of(token).map((request) => request.verified?.data.arguments)).toEqual([{ order_id: 'AB1234' }]);
    },
  );
});
