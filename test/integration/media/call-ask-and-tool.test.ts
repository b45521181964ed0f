import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SCENARIOS } from '../../../media-service/src/sandbox/scenarios';
import { uniqueNumber } from '../../support/api-harness';
import { QUIET, getCall, llmRequestsWith } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';
import { knowledgeApi, startFixtureServer } from '../../support/knowledge-harness';
import { strictResponseErrors } from '../../support/openapi-strict';
import { ORDER_SCHEMA, ToolReceiver } from '../../support/tool-receiver';

type Json = Record<string, any>;

let stack: CallStack;
let receiver: ToolReceiver;
let fixtures: Awaited<ReturnType<typeof startFixtureServer>>;
let knowledge: ReturnType<typeof knowledgeApi>;

beforeAll(async () => {
  [stack, receiver, fixtures] = await Promise.all([startCallStack(), ToolReceiver.start(), startFixtureServer()]);
  // The stack's URL policy allows private addresses, as `npm run dev` does: the fixtures are on loopback.
  knowledge = knowledgeApi(stack.api, stack.openai);
});

afterAll(async () => {
  await Promise.all([stack?.stop(), receiver?.close(), fixtures?.close()]);
});

const assistantLines = (call: Json) =>
  (call.transcript as { role: string; text: string }[]).filter((entry) => entry.role === 'assistant').map((entry) => entry.text);

describe('documents and a custom tool on one call (README "Documents and a tool on one call")', () => {
  it(
    'the ask-and-tool scenario: the PDF answers the first question, the tool the second; both in transcript and actions',
    { timeout: 90_000 },
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
