import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../functions/api/app';
import { FEED_RATE_LIMIT } from '../../../shared/domain/rate-limits';
import { RateLimiter } from '../../../shared/db/rate-limiter';
import { createApiHarness, type ApiHarness, type TenantClient } from '../../support/api-harness';

/**
 * Attack suite, the smaller findings of one review: numbers DynamoDB cannot store, a flood of the
 * public calendar feed, control characters in free text, a description cleared with null, and a
 * PATCH that changes nothing moving `updated_at`.
 */

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

/** The use cases' clock: each PATCH below runs a minute after what it patches. */
let clockMs = Date.parse('2026-11-26T09:00:00.000Z');
let harness: ApiHarness;
let tenant: TenantClient;

beforeAll(async () => {
  harness = await createApiHarness({ unlimited: true, clock: () => new Date(clockMs) });
  tenant = await harness.newTenant();
});

/** A valid workflow whose branch compares `visit` with `value`. */
function workflowWithCase(value: unknown, name = 'Intake'): Json {
  return {
    name,
    start: 'details',
    nodes: [
      { id: 'details', type: 'collect', fields: [{ name: 'visit', type: 'number' }], next: 'route' },
      { id: 'route', type: 'branch', cases: [{ when: { var: 'visit', op: 'eq', value }, to: 'bye' }], default: 'bye' },
      { id: 'bye', type: 'end', text: 'Goodbye.' },
    ],
  };
}

const VALUE_LOC = ['body', 'nodes', 1, 'cases', 0, 'when', 'value'];

describe('attack: numbers (and map keys) DynamoDB cannot store are a 422 naming the field at save, never a 500', () => {
  const cases: [string, string, string, unknown, (string | number)[]][] = [
    ['a branch value past 2^53', 'POST', '/workflows', workflowWithCase(1e300), VALUE_LOC],
    ['a branch value nearer 0 than 1e-130', 'POST', '/workflows', workflowWithCase(5e-324), VALUE_LOC],
    ['a branch list with an integer past 2^53', 'POST', '/workflows', workflowWithCase([1, 1e17]), [...VALUE_LOC, 1]],
    [
      'a waiver integer past 2^53',
      'POST',
      '/assistants',
      { config: { advanced: { waivers: { hipaa: { signed: 1e20 } } } } },
      ['body', 'config', 'advanced', 'waivers', 'hipaa', 'signed'],
    ],
    [
      'a temperature nearer 0 than 1e-130',
      'POST',
      '/assistants',
      { config: { model: { temperature: 1e-200 } } },
      ['body', 'config', 'model', 'temperature'],
    ],
    [
      'a service price nearer 0 than 1e-130',
      'PATCH',
      '/business',
      { booking: { services: [{ name: 'Cleaning', duration_min: 30, price: 1e-200 }] } },
      ['body', 'booking', 'services', 0, 'price'],
    ],
    ['an empty variable name', 'POST', '/assistants', { config: { variables: { '': 'x' } } }, ['body', 'config', 'variables', '']],
    [
      'an empty waiver key',
      'POST',
      '/assistants',
      { config: { advanced: { waivers: { hipaa: { '': 1 } } } } },
      ['body', 'config', 'advanced', 'waivers', 'hipaa', ''],
    ],
    [
      'an empty tool-node argument name',
      'POST',
      '/workflows',
      {
        name: 'Args',
        start: 'note',
        nodes: [
          { id: 'note', type: 'tool', tool: 'take_message', args: { '': 'x' }, on_success: 'bye', on_error: 'bye' },
          { id: 'bye', type: 'end' },
        ],
      },
      ['body', 'nodes', 0, 'args', ''],
    ],
    ['a payment cap nearer 0 than 1e-130', 'PATCH', '/business', { payment: { max_amount: 2e-131 } }, ['body', 'payment', 'max_amount']],
  ];

  it.each(cases)('%s', async (_, method, path, body, loc) => {
    // Act
    const response = await tenant.request(method, path, body);
    // Assert
    expect(response.status).toBe(422);
    const detail = (await json(response)).detail as Json[];
    expect(detail.map((item) => item.loc)).toContainEqual(loc);
  });

  it('takes the edges of the storable range, and stores them as sent', async () => {
    // Act
    const edges = [1e-130, -9_007_199_254_740_991, 0, 1.2345678901234567e-120];
    const created = await json(await tenant.request('POST', '/workflows', workflowWithCase(edges)));
    const read = await json(await tenant.request('GET', `/workflows/${created.id}`));
    // Assert
    expect(read.nodes[1].cases[0].when.value).toEqual(edges);
  });
});

// About 60 requests a test, two limiter writes each: slow on a loaded machine (a timeout, never a timed assertion).
describe('attack: a flood of the public calendar feed', { timeout: 120_000 }, () => {
  let now = 1_000_000;
  let app: ReturnType<typeof createApp>;
  const feed = (path: string, address: string) => app.request(path, { headers: { 'x-test-address': address } });
  const address = () => `198.51.100.${randomUUID()}`;

  beforeAll(() => {
    // The address as the platform reports it, stood in by a header only this app reads.
    app = createApp({
      ...harness.deps,
      feedRateLimiter: new RateLimiter(harness.core.db, { limit: FEED_RATE_LIMIT, now: () => now }),
      sourceAddress: (c) => c.req.header('x-test-address'),
    });
  });

  it('answers one address at most 60 a minute (whatever tokens it tries), then 429 with Retry-After, and again a minute later', async () => {
    // Arrange
    const flooder = address();
    // Act
    const guesses = Array.from({ length: FEED_RATE_LIMIT }, (_, i) => feed(`/api/v1/calendars/calf_guess${i}.ics`, flooder));
    const statuses = (await Promise.all(guesses)).map((response) => response.status);
    const limited = await feed('/api/v1/calendars/calf_guess_more.ics', flooder);
    const neighbour = await feed('/api/v1/calendars/calf_guess_more.ics', address());
    now += 60_000;
    const later = await feed('/api/v1/calendars/calf_guess_later.ics', flooder);
    // Assert
    expect(new Set(statuses)).toEqual(new Set([404]));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(await json(limited)).toMatchObject({ code: 'rate_limited' });
    expect(neighbour.status).toBe(404);
    expect(later.status).toBe(404);
  });

  it('answers one token at most 60 a minute, from however many addresses', async () => {
    // Arrange
    const owner = await harness.newTenant();
    const { path } = await json(await owner.request('POST', '/business/calendar-feed'));
    // Act
    const reads = await Promise.all(Array.from({ length: FEED_RATE_LIMIT }, () => feed(path, address())));
    const statuses = reads.map((response) => response.status);
    const limited = await feed(path, address());
    const otherToken = await feed('/api/v1/calendars/calf_other.ics', address());
    // Assert
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(otherToken.status).toBe(404);
  });
});

describe('attack: control characters in free text are a 422 naming the field', () => {
  const refused: [string, string, string, unknown, (string | number)[]][] = [
    [
      'NUL in the display name (it reached an SMS prefix)',
      'PATCH',
      '/business',
      { display_name: 'Bright\u0000Smile' },
      ['body', 'display_name'],
    ],
    ['a line feed in the display name', 'PATCH', '/business', { display_name: 'Bright\nSmile' }, ['body', 'display_name']],
    ['a C1 control in the display name', 'PATCH', '/business', { display_name: 'Bright\u0085Smile' }, ['body', 'display_name']],
    ['a bidi override in the display name', 'PATCH', '/business', { display_name: 'Bright\u202eSmile' }, ['body', 'display_name']],
    ['a line separator in the address', 'PATCH', '/business', { address: '1 Main St\u20282nd floor' }, ['body', 'address']],
    ['NUL in a team email', 'PATCH', '/business', { team_emails: ['desk\u0000@example.com'] }, ['body', 'team_emails', 0]],
    ['ESC in an assistant name', 'POST', '/assistants', { name: 'Desk\u001b[2J' }, ['body', 'name']],
    ['DEL in the first message', 'POST', '/assistants', { config: { first_message: 'Hi\u007f' } }, ['body', 'config', 'first_message']],
    [
      'NUL in the system prompt',
      'POST',
      '/assistants',
      { config: { system_prompt: 'Be kind.\u0000' } },
      ['body', 'config', 'system_prompt'],
    ],
    [
      'a tab in a variable name',
      'POST',
      '/assistants',
      { config: { variables: { 'a\tb': 'x' } } },
      ['body', 'config', 'variables', 'a\tb'],
    ],
    ['NUL in a knowledge base name', 'POST', '/knowledge-bases', { name: 'Desk\u0000' }, ['body', 'name']],
    [
      'NUL in a tool description',
      'POST',
      '/tools',
      { name: 'lookup', description: 'Looks\u0000up', parameters: { type: 'object' }, server_url: 'https://tools.example.com/x' },
      ['body', 'description'],
    ],
    ['a line feed in a workflow name', 'POST', '/workflows', workflowWithCase(1, 'In\ntake'), ['body', 'name']],
  ];

  it.each(refused)('%s', async (_, method, path, body, loc) => {
    // Act
    const response = await tenant.request(method, path, body);
    // Assert
    expect(response.status).toBe(422);
    const item = ((await json(response)).detail as Json[]).find((entry) => JSON.stringify(entry.loc) === JSON.stringify(loc));
    expect(item).toMatchObject({ type: 'string_pattern_mismatch' });
    // Free text says why; a field with a pattern of its own (an email) quotes it, as pydantic does.
    if (!JSON.stringify(loc).includes('team_emails')) expect(item!.msg).toMatch(/^String should have no control characters/);
  });

  it('takes tabs and line breaks in multi-line text (prompts, the address, a description)', async () => {
    // Act
    const assistant = await tenant.request('POST', '/assistants', {
      name: 'Desk',
      config: { system_prompt: 'Rules:\n\t- be kind\r\n\t- be brief', first_message: 'Hello!\nHow can I help?' },
    });
    const business = await tenant.request('PATCH', '/business', { address: '1 Main St\n2nd floor' });
    const base = await tenant.request('POST', '/knowledge-bases', { name: 'Desk', description: 'Prices\nand hours' });
    // Assert
    expect([assistant.status, business.status, base.status]).toEqual([200, 200, 200]);
    expect((await json(assistant)).config.system_prompt).toBe('Rules:\n\t- be kind\r\n\t- be brief');
  });
});

describe("a knowledge base's description", () => {
  it('is cleared by PATCH {"description": null}', async () => {
    // Arrange
    const base = await json(await tenant.request('POST', '/knowledge-bases', { name: 'Clinic', description: 'What the desk knows.' }));
    // Act
    const patched = await tenant.request('PATCH', `/knowledge-bases/${base.id}`, { description: null });
    const read = await json(await tenant.request('GET', `/knowledge-bases/${base.id}`));
    // Assert
    expect(patched.status).toBe(200);
    expect(read).toMatchObject({ name: 'Clinic', description: '' });
  });
});

describe('a PATCH that changes nothing keeps updated_at', () => {
  const resources: [string, string, Json, Json][] = [
    ['assistant', '/assistants', { name: 'Same' }, { name: 'Same' }],
    [
      'tool',
      '/tools',
      { name: 'same_tool', description: 'Looks up an order.', parameters: { type: 'object' }, server_url: 'https://tools.example.com/x' },
      { name: 'same_tool' },
    ],
    ['workflow', '/workflows', workflowWithCase('new', 'Same'), { name: 'Same' }],
    ['knowledge base', '/knowledge-bases', { name: 'Same', description: 'Unchanged.' }, { name: 'Same', description: 'Unchanged.' }],
  ];

  it.each(resources)('%s: PATCH {} and PATCH with the same values', async (_, path, body, same) => {
    // Arrange
    const created = await json(await tenant.request('POST', path, body));
    // Act
    clockMs += 60_000;
    const empty = await json(await tenant.request('PATCH', `${path}/${created.id}`, {}));
    clockMs += 60_000;
    const unchanged = await json(await tenant.request('PATCH', `${path}/${created.id}`, same));
    clockMs += 60_000;
    const echoed = await json(
      await tenant.request('PATCH', `${path}/${created.id}`, await json(await tenant.request('GET', `${path}/${created.id}`))),
    );
    const read = await json(await tenant.request('GET', `${path}/${created.id}`));
    clockMs += 60_000;
    const renamed = await json(await tenant.request('PATCH', `${path}/${created.id}`, { name: 'renamed_one' }));
    // Assert
    expect([empty.updated_at, unchanged.updated_at, echoed.updated_at, read.updated_at]).toEqual(Array(4).fill(created.updated_at));
    expect(renamed.updated_at > created.updated_at).toBe(true);
  });
});
