import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SCENARIOS } from '../../../media-service/src/sandbox/scenarios';
import { uniqueNumber } from '../../support/api-harness';
import { QUIET, getCall, llmRequestsWith } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';
import { KNOWLEDGE_FIXTURES, knowledgeApi } from '../../support/knowledge-harness';
import { strictResponseErrors } from '../../support/openapi-strict';

type Json = Record<string, any>;

let stack: CallStack;
let knowledge: ReturnType<typeof knowledgeApi>;

beforeAll(async () => {
  stack = await startCallStack();
  knowledge = knowledgeApi(stack.api, stack.openai);
});

afterAll(async () => {
  await stack?.stop();
});

const T = { timeout: 60_000 };

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
