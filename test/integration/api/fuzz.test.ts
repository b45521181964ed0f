import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness, type TenantClient } from '../../support/api-harness';
import { strictResponseErrors } from '../../support/openapi-strict';

let harness: ApiHarness;
let tenant: TenantClient;
let assistantId: number;
let toolId: number;
let knowledgeBaseId: number;
let workflowId: number;

beforeAll(async () => {
  harness = await createApiHarness({ unlimited: true });
  tenant = await harness.newTenant({ minutes: 0 });
  assistantId = ((await (await tenant.request('POST', '/assistants', {})).json()) as { id: number }).id;
  const tool = await tenant.request('POST', '/tools', {
    name: 'fuzzed',
    description: 'A tool to patch.',
    server_url: 'https://x.example.com/t',
  });
  toolId = ((await tool.json()) as { id: number }).id;
  const base = await tenant.request('POST', '/knowledge-bases', { name: 'Fuzzed' });
  knowledgeBaseId = ((await base.json()) as { id: number }).id;
  const workflow = await tenant.request('POST', '/workflows', {
    name: 'Fuzzed',
    start: 'hello',
    nodes: [
      { id: 'hello', type: 'say', text: 'Hello.', next: 'bye' },
      { id: 'bye', type: 'end', text: 'Goodbye.' },
    ],
  });
  workflowId = ((await workflow.json()) as { id: number }).id;
});

/** Values of every JSON type, including ones just outside the spec's bounds. */
const anyJson = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, '', 'x'.repeat(31_000), [], {}),
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.array(fc.string(), { maxLength: 70 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
);

const configKeys = [
  'first_message_mode',
  'language',
  'model',
  'transcriber',
  'voice',
  'builtin',
  'tool_ids',
  'analysis',
  'advanced',
  'variables',
  'setup',
  'knowledge_ids',
  'workflow_id',
  'bogus',
];
const nestedKeys = [
  'temperature',
  'max_tokens',
  'speed',
  'volume',
  'pronunciations',
  'structured',
  'max_duration_s',
  'redact',
  'server_events',
  'waivers',
  'role',
  'provider',
  'eot_threshold',
  'keyterms',
];

/** A config with random values at real (and unknown) keys, one and two levels deep. */
const badConfig = fc.dictionary(
  fc.constantFrom(...configKeys),
  fc.oneof(anyJson, fc.dictionary(fc.constantFrom(...nestedKeys), anyJson, { maxKeys: 4 })),
  { minKeys: 1, maxKeys: 4 },
);

/** A JSON text nested `depth` levels deep, as arrays or objects (depth 5,000 used to overflow the stack). */
const deepJson = fc
  .record({ depth: fc.integer({ min: 60, max: 6000 }), kind: fc.constantFrom('array', 'object', 'config') })
  .map(({ depth, kind }) => {
    if (kind === 'array') return '['.repeat(depth) + ']'.repeat(depth);
    const nested = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    return kind === 'object' ? nested : `{"config":{"variables":${nested}}}`;
  });

/** Lists whose items are each far over their bound (the lists themselves within theirs). */
const longItem = fc.string({ minLength: 101, maxLength: 4000 });
const oversizedItems = fc.oneof(
  fc.record({ advanced: fc.record({ idle_messages: fc.array(longItem, { minLength: 1, maxLength: 5 }) }) }),
  fc.record({ advanced: fc.record({ end_call_phrases: fc.array(longItem, { minLength: 1, maxLength: 20 }) }) }),
  fc.record({ transcriber: fc.record({ keyterms: fc.array(longItem, { minLength: 1, maxLength: 50 }) }) }),
  fc.record({
    analysis: fc.record({
      structured: fc
        .constant([{ name: 'x', type: 'enum' }])
        .chain((base) => fc.array(longItem, { minLength: 1, maxLength: 30 }).map((options) => [{ ...base[0], options }])),
    }),
  }),
  fc.record({
    voice: fc.record({ pronunciations: fc.array(fc.record({ word: longItem, say: longItem }), { minLength: 1, maxLength: 100 }) }),
  }),
  fc.record({
    advanced: fc.record({
      waivers: fc.dictionary(longItem, fc.dictionary(fc.string(), longItem, { maxKeys: 3 }), { minKeys: 1, maxKeys: 3 }),
    }),
  }),
  fc.record({ live_voice: longItem }),
);

/** Custom tool bodies: random fields, and JSON Schemas built from real and unknown keywords. */
const schemaKeys = ['type', 'properties', 'required', 'pattern', 'items', 'enum', '$ref', '$id', 'minimum', 'format', 'allOf', 'bogus'];
const schemaLike = fc
  .dictionary(
    fc.constantFrom(...schemaKeys),
    fc.oneof(
      anyJson,
      fc.constantFrom('(a+)+$', '(?=x)', '#/x', 'https://x.test/s'),
      fc.dictionary(fc.constantFrom(...schemaKeys), anyJson, { maxKeys: 3 }),
    ),
    { maxKeys: 4 },
  )
  .map((schema) => ({ type: 'object', ...schema }));
const toolBody = fc.record(
  {
    name: fc.oneof(anyJson, fc.constantFrom('fuzzed', 'end_call', 'a-b_c')),
    description: anyJson,
    parameters: fc.oneof(anyJson, schemaLike),
    server_url: fc.oneof(anyJson, fc.constantFrom('https://x.example.com/t', 'http://127.0.0.1/', 'file:///etc/passwd')),
    timeout_ms: anyJson,
    filler: anyJson,
  },
  { requiredKeys: [] },
);

/** Knowledge-base and document bodies: random fields, text and URLs of every kind. */
const knowledgeBody = fc.record({ name: anyJson, description: anyJson }, { requiredKeys: [] });
const documentBody = fc.record(
  {
    name: fc.oneof(anyJson, fc.constant('Doc')),
    text: fc.oneof(anyJson, fc.constant('# Heading\n\nSome words.')),
    url: fc.oneof(anyJson, fc.constantFrom('http://169.254.169.254/latest', 'file:///etc/passwd', 'https://[::1]/', 'ftp://x.test/a')),
  },
  { requiredKeys: [] },
);

/** Workflow bodies: graphs of random nodes, real and unknown types, dangling and odd edges. */
const nodeTypes = ['say', 'conversation', 'collect', 'branch', 'tool', 'transfer', 'end', 'bogus'];
const workflowNode = fc.record(
  {
    id: fc.oneof(fc.constantFrom('a', 'b', 'c', 'A-1', ''), anyJson),
    type: fc.oneof(fc.constantFrom(...nodeTypes), anyJson),
    text: anyJson,
    next: fc.oneof(fc.constantFrom('a', 'b', 'c', 'missing'), anyJson),
    prompt: anyJson,
    edges: fc.oneof(anyJson, fc.array(fc.record({ to: fc.constantFrom('a', 'b', 'zz'), when: anyJson }), { maxLength: 3 })),
    fields: fc.oneof(
      anyJson,
      fc.array(fc.record({ name: anyJson, type: fc.constantFrom('string', 'number', 'enum', 'date', 'x'), options: anyJson }), {
        maxLength: 3,
      }),
    ),
    cases: fc.oneof(
      anyJson,
      fc.array(fc.record({ when: fc.record({ var: anyJson, op: fc.constantFrom('eq', 'in', 'gt', 'zz'), value: anyJson }), to: anyJson }), {
        maxLength: 3,
      }),
    ),
    default: anyJson,
    tool: fc.oneof(fc.constantFrom('book_appointment', 'fuzzed', 'nope'), anyJson),
    number: fc.oneof(fc.constantFrom('+15550100777', '+882123'), anyJson),
    max_turns: anyJson,
    on_stuck: anyJson,
  },
  { requiredKeys: [] },
);
const workflowBody = fc.record(
  {
    name: anyJson,
    start: fc.oneof(fc.constantFrom('a', 'b'), anyJson),
    nodes: fc.oneof(anyJson, fc.array(workflowNode, { maxLength: 6 })),
  },
  { requiredKeys: [] },
);

const request = fc.oneof(
  fc.record({ method: fc.constant('POST'), path: fc.constant('/tools'), body: toolBody }),
  fc.record({ method: fc.constant('PATCH'), path: fc.constant('/tools/TOOL'), body: fc.oneof(toolBody, anyJson) }),
  fc.record({ method: fc.constant('POST'), path: fc.constant('/knowledge-bases'), body: fc.oneof(knowledgeBody, anyJson) }),
  fc.record({ method: fc.constant('PATCH'), path: fc.constant('/knowledge-bases/KB'), body: fc.oneof(knowledgeBody, anyJson) }),
  fc.record({ method: fc.constant('POST'), path: fc.constant('/knowledge-bases/KB/documents'), body: fc.oneof(documentBody, anyJson) }),
  fc.record({ method: fc.constant('POST'), path: fc.constant('/workflows'), body: fc.oneof(workflowBody, anyJson) }),
  fc.record({ method: fc.constant('PATCH'), path: fc.constant('/workflows/WF'), body: fc.oneof(workflowBody, anyJson) }),
  fc.record({ method: fc.constant('POST'), path: fc.constant('/assistants'), body: deepJson.map((raw) => ({ raw })) }),
  fc.record({ method: fc.constant('PATCH'), path: fc.constant('/assistants/ID'), body: oversizedItems.map((config) => ({ config })) }),
  fc.record({ method: fc.constant('POST'), path: fc.constant('/assistants'), body: oversizedItems.map((config) => ({ config })) }),
  fc.record({
    method: fc.constant('POST'),
    path: fc.constant('/assistants'),
    body: fc.oneof(fc.record({ config: badConfig }), fc.record({ name: anyJson, template: anyJson }), anyJson),
  }),
  fc.record({
    method: fc.constant('PATCH'),
    path: fc.constant('/assistants/ID'),
    body: fc.oneof(fc.record({ config: badConfig }), fc.record({ name: anyJson }), anyJson),
  }),
  fc.record({
    method: fc.constant('POST'),
    path: fc.constant('/calls'),
    body: fc.record({ assistant_id: anyJson, to: anyJson, phone_number_id: anyJson, variables: anyJson }, { requiredKeys: [] }),
  }),
  fc.record({
    method: fc.constant('GET'),
    path: fc.string().map((q) => `/calls?limit=${encodeURIComponent(q)}&offset=${encodeURIComponent(q)}`),
    body: fc.constant(undefined),
  }),
  fc.record({
    method: fc.constantFrom('GET', 'DELETE'),
    path: fc.string().map((id) => `/assistants/${encodeURIComponent(id)}`),
    body: fc.constant(undefined),
  }),
  fc.record({ method: fc.constant('POST'), path: fc.constant('/assistants'), body: fc.string().map((raw) => ({ raw })) }),
);

/**
 * The body fits the document, checked as a strict client checks it (closed objects, `code` in the
 * enum), and a 422's items point into the request.
 */
function isDocumentedError(status: number, body: any): boolean {
  if (strictResponseErrors(status === 422 ? 'HTTPValidationError' : 'ErrorBody', body).length > 0) return false;
  return (
    status !== 422 ||
    (body.detail.length > 0 && body.detail.every((item: any) => ['body', 'query', 'path', 'header'].includes(item.loc[0])))
  );
}

describe('fuzzing the API with bad input', () => {
  it('answers 2,000 generated bad requests (deep nesting and oversized list items among them) with no 5xx and small, documented 4xx bodies', async () => {
    let count = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ method, path, body }) => {
        count++;
        const raw = body && typeof body === 'object' && 'raw' in body && Object.keys(body).length === 1;
        const response = await tenant.request(
          method,
          path
            .replace('ID', String(assistantId))
            .replace('TOOL', String(toolId))
            .replace('KB', String(knowledgeBaseId))
            .replace('WF', String(workflowId)),
          raw ? (body as { raw: string }).raw : body,
        );
        expect(response.status).toBeLessThan(500);
        const text = await response.text();
        if (response.status >= 400) expect(isDocumentedError(response.status, JSON.parse(text))).toBe(true);
        // An error never echoes the (possibly huge) input back: items cut it to ~100 characters.
        if (response.status >= 400) expect(text.length).toBeLessThan(32 * 1024);
      }),
      { numRuns: 2000, seed: 20261123 },
    );
    expect(count).toBe(2000);
  }, 240_000);
});
