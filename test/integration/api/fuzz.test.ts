import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness, type TenantClient } from '../../support/api-harness';

let harness: ApiHarness;
let tenant: TenantClient;
let assistantId: number;

beforeAll(async () => {
  harness = await createApiHarness({ unlimited: true });
  tenant = await harness.newTenant({ minutes: 0 });
  assistantId = ((await (await tenant.request('POST', '/assistants', {})).json()) as { id: number }).id;
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

const configKeys = ['first_message_mode', 'language', 'model', 'transcriber', 'voice', 'builtin', 'tool_ids', 'analysis', 'advanced', 'variables', 'setup', 'knowledge_ids', 'workflow_id', 'bogus'];
const nestedKeys = ['temperature', 'max_tokens', 'speed', 'volume', 'pronunciations', 'structured', 'max_duration_s', 'redact', 'server_events', 'waivers', 'role', 'provider', 'eot_threshold', 'keyterms'];

/** A config with random values at real (and unknown) keys, one and two levels deep. */
const badConfig = fc.dictionary(
  fc.constantFrom(...configKeys),
  fc.oneof(anyJson, fc.dictionary(fc.constantFrom(...nestedKeys), anyJson, { maxKeys: 4 })),
  { minKeys: 1, maxKeys: 4 },
);

const request = fc.oneof(
  fc.record({ method: fc.constant('POST'), path: fc.constant('/assistants'), body: fc.oneof(fc.record({ config: badConfig }), fc.record({ name: anyJson, template: anyJson }), anyJson) }),
  fc.record({ method: fc.constant('PATCH'), path: fc.constant('/assistants/ID'), body: fc.oneof(fc.record({ config: badConfig }), fc.record({ name: anyJson }), anyJson) }),
  fc.record({ method: fc.constant('POST'), path: fc.constant('/calls'), body: fc.record({ assistant_id: anyJson, to: anyJson, phone_number_id: anyJson, variables: anyJson }, { requiredKeys: [] }) }),
  fc.record({ method: fc.constant('GET'), path: fc.string().map((q) => `/calls?limit=${encodeURIComponent(q)}&offset=${encodeURIComponent(q)}`), body: fc.constant(undefined) }),
  fc.record({ method: fc.constantFrom('GET', 'DELETE'), path: fc.string().map((id) => `/assistants/${encodeURIComponent(id)}`), body: fc.constant(undefined) }),
  fc.record({ method: fc.constant('POST'), path: fc.constant('/assistants'), body: fc.string().map((raw) => ({ raw })) }),
);

function isDocumentedError(status: number, body: any): boolean {
  if (status === 422) {
    return Array.isArray(body.detail) && body.detail.length > 0 && body.detail.every(
      (item: any) => Array.isArray(item.loc) && ['body', 'query', 'path', 'header'].includes(item.loc[0]) && typeof item.msg === 'string' && typeof item.type === 'string',
    );
  }
  return typeof body.code === 'string' && typeof body.detail === 'string';
}

describe('fuzzing the API with bad input', () => {
  it('answers 2,000 generated bad requests with no 5xx and documented 4xx bodies', async () => {
    let count = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ method, path, body }) => {
        count++;
        const raw = body && typeof body === 'object' && 'raw' in body && Object.keys(body).length === 1;
        const response = await tenant.request(
          method,
          path.replace('ID', String(assistantId)),
          raw ? (body as { raw: string }).raw : body,
        );
        expect(response.status).toBeLessThan(500);
        if (response.status >= 400) expect(isDocumentedError(response.status, await response.json())).toBe(true);
      }),
      { numRuns: 2000, seed: 20261123 },
    );
    expect(count).toBe(2000);
  }, 240_000);
});
