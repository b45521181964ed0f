import { silentLogger } from '../../../shared/log';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ApiConfigSchema } from '../../../functions/lib/config';
import { scenario, step } from '../../../media-service/src/sandbox/scenario-script';
import { startLocalAfterCall } from '../../../scripts/local/after-call';
import { readConfig } from '../../../shared/config';
import { uniqueNumber, type TenantClient } from '../../support/api-harness';
import { QUIET, waitForAssistant } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';
import { strictOpenApiDocument, strictResponseErrors } from '../../support/openapi-strict';
import { generateClientTypes, typeCheckSamples, type TypedSample } from '../../support/typed-client';

interface Hit {
  headers: IncomingHttpHeaders;
  body: string;
}

let stack: CallStack;
let receiver: Server;
let receiverUrl: string;
const hits: Hit[] = [];
const hitWaiters: (() => void)[] = [];

beforeAll(async () => {
  stack = await startCallStack();
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      response.writeHead(204).end();
      hits.push({ headers: request.headers, body });
      for (const waiter of hitWaiters.splice(0)) waiter();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});

afterAll(async () => {
  await stack?.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** Resolves once the webhook receiver has seen `count` requests (no sleeping). */
function hitCount(count: number): Promise<Hit[]> {
  return new Promise((resolve) => {
    const check = () => (hits.length >= count ? resolve(hits.slice(0, count)) : hitWaiters.push(check));
    check();
  });
}

async function json(tenant: TenantClient, method: string, path: string, body?: unknown): Promise<any> {
  const response = await tenant.request(method, path, body);
  return response.json();
}

/** Runs the after-call pipeline (analysis, then signed webhooks) over the events the call published. */
async function analyseAndDeliver(callId: number): Promise<Hit[]> {
  const config = readConfig(ApiConfigSchema, {
    TABLE_NAME: inject('tableName'),
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    OUTBOUND_QUEUE_URL: 'unused-by-the-after-call-pipeline',
    LOCAL_SECRET_KEY: 'test-secret-key',
    ALLOW_PRIVATE_URLS: 'true',
    REQUIRE_HTTPS_URLS: 'false',
  });
  const afterCall = await startLocalAfterCall(stack.core, config, { openAiBaseUrl: stack.openai.baseUrl, log: silentLogger });
  await afterCall.events.publish(stack.bus.events.filter((event) => event.detail.call_id === callId));
  const delivered = await hitCount(2);
  await afterCall.stop();
  return delivered;
}

/** What one business really gets back: its assistant, the lists, a whole analysed call, its webhooks, two errors. */
async function realResponses(): Promise<{ samples: TypedSample[]; call: any }> {
  const tenant = await stack.api.newTenant({ minutes: 100 });
  await stack.api.admin.addTool(tenant.businessId, {
    name: 'check_slot',
    description: 'Whether a slot is free.',
    parameters: { type: 'object', properties: { day: { type: 'string' } }, required: ['day'] },
    server_url: 'http://127.0.0.1:9/tools/check-slot',
    timeout_ms: 5000,
  });
  const config = {
    first_message: 'Hi {{name}}, this is Acme Dental.',
    advanced: { ...QUIET, server_url: receiverUrl, server_events: ['call.started', 'call.completed'] },
  };
  const assistant = await json(tenant, 'POST', '/assistants', { name: 'Front desk', config });
  const spare = await json(tenant, 'POST', '/assistants', {});
  const deleted = await json(tenant, 'DELETE', `/assistants/${spare.id}`);
  const to = uniqueNumber();
  // A question, then a message (take_message), so the call's `actions` and the messages list are real too.
  const steps = [
    waitForAssistant(),
    step.say('Are you open on Saturday mornings?'),
    waitForAssistant(),
    step.say('This is Sam Lee. Can you take a message for Dana: please call me back.'),
    step.waitForAssistant({ quietMs: 1500, timeoutMs: 15_000 }),
    step.hangup(),
  ];
  stack.carrier.registerScenario(to, scenario(`openapi client ${to}`, steps));
  const created = await json(tenant, 'POST', '/calls', { assistant_id: assistant.id, to, variables: { name: 'Sam' } });
  await stack.whenCallEnded(tenant.businessId, created.id);
  const [started, completed] = (await analyseAndDeliver(created.id)).map((hit) => JSON.parse(hit.body));
  const call = await json(tenant, 'GET', `/calls/${created.id}`);
  const samples: TypedSample[] = [
    { name: 'assistant', type: 'Schemas["Assistant"]', value: await json(tenant, 'GET', `/assistants/${assistant.id}`) },
    { name: 'assistants', type: 'Schemas["AssistantList"]', value: await json(tenant, 'GET', '/assistants') },
    { name: 'deleted', type: 'Schemas["DeleteResult"]', value: deleted },
    { name: 'created', type: 'Schemas["Call"]', value: created },
    { name: 'page', type: 'Schemas["CallsPage"]', value: await json(tenant, 'GET', '/calls?limit=5') },
    { name: 'call', type: 'Schemas["CallDetail"]', value: call },
    // The take_message the caller asked for (undefined, and so a compile error, if the tool did not run).
    {
      name: 'actions',
      type: 'Schemas["ToolAction"]',
      value: call.actions.find((action: { name: string }) => action.name === 'take_message'),
    },
    // `metrics` is typed `CallMetrics | {}`: TypeScript checks unknown keys only against a union as a whole, so once more alone.
    { name: 'metrics', type: 'Schemas["CallMetrics"]', value: call.metrics },
    { name: 'numbers', type: 'Schemas["PhoneNumberList"]', value: await json(tenant, 'GET', '/phone-numbers') },
    { name: 'tools', type: 'Schemas["ToolList"]', value: await json(tenant, 'GET', '/tools') },
    { name: 'messages', type: 'Schemas["MessagesPage"]', value: await json(tenant, 'GET', `/messages?call_id=${created.id}`) },
    { name: 'notFound', type: 'Schemas["ErrorBody"]', value: await json(tenant, 'GET', '/calls/999999999') },
    { name: 'invalid', type: 'Schemas["HTTPValidationError"]', value: await json(tenant, 'POST', '/calls', {}) },
    { name: 'startedHook', type: 'operations["callStartedWebhook"]["requestBody"]["content"]["application/json"]', value: started },
    { name: 'completedHook', type: 'operations["callCompletedWebhook"]["requestBody"]["content"]["application/json"]', value: completed },
    { name: 'completedMetrics', type: 'Schemas["CallMetrics"]', value: completed.data.metrics },
    // What a client sends: the fields with defaults stay optional.
    { name: 'createBody', type: 'operations["createAssistant"]["requestBody"]["content"]["application/json"]', value: { config } },
    { name: 'emptyBody', type: 'operations["createAssistant"]["requestBody"]["content"]["application/json"]', value: {} },
    { name: 'callBody', type: 'operations["createCall"]["requestBody"]["content"]["application/json"]', value: { assistant_id: 1, to } },
    {
      name: 'toolBody',
      type: 'operations["createTool"]["requestBody"]["content"]["application/json"]',
      value: { name: 'check_slot', description: 'Whether a slot is free.', server_url: 'https://tools.example.com/slot' },
    },
    { name: 'toolPatch', type: 'operations["updateTool"]["requestBody"]["content"]["application/json"]', value: { timeout_ms: 3000 } },
  ];
  return { samples, call };
}

/** The samples with a key the document does not describe added at several depths, one per sample. */
function withUndocumentedKeys(samples: TypedSample[]): { broken: TypedSample[]; keys: string[] } {
  const places: Record<string, (value: any) => any> = {
    assistant: (value) => value.config.advanced,
    page: (value) => value.data[0],
    call: (value) => value.transcript[0],
    metrics: (value) => value.turns[0],
    tools: (value) => value.data[0],
    messages: (value) => value.data[0],
    actions: (value) => value,
    completedHook: (value) => value.data,
    startedHook: (value) => value,
  };
  const broken = samples.map((sample) => ({ ...sample, value: structuredClone(sample.value) }));
  const keys = Object.entries(places).map(([name, place]) => {
    place(broken.find((sample) => sample.name === name)!.value)[`undocumented_${name}`] = 1;
    return `undocumented_${name}`;
  });
  return { broken, keys };
}

describe('a client typed from GET /api/v1/openapi.json (openapi-typescript, strict mode)', () => {
  it('compiles against real responses: assistant, lists, a whole analysed call, its webhooks, errors', async () => {
    // Arrange
    const served = await (await stack.api.app.request('/api/v1/openapi.json')).json();
    const types = await generateClientTypes(strictOpenApiDocument(served as Record<string, unknown>));
    const { samples, call } = await realResponses();

    // Act
    const diagnostics = await typeCheckSamples(types, samples);
    const { broken, keys } = withUndocumentedKeys(samples);
    const brokenDiagnostics = await typeCheckSamples(types, broken);

    // Assert
    expect(call).toMatchObject({ status: 'ended', outcome: expect.any(String) });
    expect(call.transcript.length).toBeGreaterThan(2);
    expect(call.metrics.turns.length).toBeGreaterThan(0);
    expect(call.webhook_deliveries.map((delivery: any) => delivery.event_type).sort()).toEqual(['call.completed', 'call.started']);
    expect(samples.find((sample) => sample.name === 'completedHook')!.value).toMatchObject({ type: 'call.completed' });
    for (const [name, component] of [
      ['startedHook', 'CallStartedEvent'],
      ['completedHook', 'CallCompletedEvent'],
    ] as const)
      expect(strictResponseErrors(component, samples.find((sample) => sample.name === name)!.value)).toEqual([]);
    expect(diagnostics).toEqual([]);
    // The same check fails on a field the document leaves out, wherever it is.
    const caught = keys.filter((key) => brokenDiagnostics.some((text) => text.includes(`"${key}"`)));
    expect({ caught, brokenDiagnostics }).toEqual({ caught: keys, brokenDiagnostics: keys.map(() => expect.any(String)) });
  });

  it("openapi-typescript's own default would make defaulted request fields required (why the README passes the flag)", async () => {
    // Arrange
    const served = await (await stack.api.app.request('/api/v1/openapi.json')).json();
    const document = strictOpenApiDocument(served as Record<string, unknown>);
    const empty: TypedSample = {
      name: 'emptyBody',
      type: 'operations["createAssistant"]["requestBody"]["content"]["application/json"]',
      value: {},
    };

    // Act
    const withFlag = await typeCheckSamples(await generateClientTypes(document), [empty]);
    const withoutFlag = await typeCheckSamples(await generateClientTypes(document, { defaultNonNullable: true }), [empty]);

    // Assert
    expect(withFlag).toEqual([]);
    expect(withoutFlag.join('\n')).toMatch(/missing the following properties.*template/s);
  });
});
