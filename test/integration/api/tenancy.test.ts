import { beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness, type TenantClient } from '../../support/api-harness';

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

let harness: ApiHarness;
let owner: TenantClient & { numberIds: number[] };
let intruder: TenantClient & { numberIds: number[] };
let assistant: Json;
let call: Json;
let toolId: number;

beforeAll(async () => {
  harness = await createApiHarness();
  owner = await harness.newTenant();
  intruder = await harness.newTenant();
  assistant = await json(await owner.request('POST', '/assistants', { name: 'Secret Name 7731' }));
  call = await json(await owner.request('POST', '/calls', { assistant_id: assistant.id, to: '+14155550123' }));
  toolId = (
    await harness.admin.addTool(owner.businessId, {
      name: 'private_tool',
      description: 'owner only',
      server_url: 'https://tools.example.com/x',
      parameters: { type: 'object', properties: {} },
      timeout_ms: 1000,
    })
  ).id;
});

describe('no cross-tenant access', () => {
  it.each([
    ['GET', () => `/assistants/${assistant.id}`, undefined],
    ['PATCH', () => `/assistants/${assistant.id}`, { name: 'hijacked' }],
    ['DELETE', () => `/assistants/${assistant.id}`, undefined],
    ['GET', () => `/calls/${call.id}`, undefined],
  ])("%s another business's id is 404 not_found and leaks nothing", async (method, path, body) => {
    // Act
    const response = await intruder.request(method, path(), body);
    const text = await response.text();
    // Assert
    expect(response.status).toBe(404);
    expect(JSON.parse(text)).toMatchObject({ code: 'not_found' });
    expect(text).not.toContain('Secret Name 7731');
  });

  it("POST /calls with another business's assistant or number is 404", async () => {
    // Act
    const foreignAssistant = await intruder.request('POST', '/calls', { assistant_id: assistant.id, to: '+14155550123' });
    const ownAssistant = await json(await intruder.request('POST', '/assistants', {}));
    const foreignNumber = await intruder.request('POST', '/calls', {
      assistant_id: ownAssistant.id,
      to: '+14155550123',
      phone_number_id: owner.numberIds[0],
    });
    // Assert
    expect(foreignAssistant.status).toBe(404);
    expect(foreignNumber.status).toBe(404);
  });

  it("a config naming another business's tool is a 422 on that tool id", async () => {
    // Act
    const response = await intruder.request('POST', '/assistants', { config: { tool_ids: [toolId] } });
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0].loc).toEqual(['body', 'config', 'tool_ids', 0]);
  });

  it("lists show only the caller's records", async () => {
    // Act
    const [assistants, calls, numbers, tools] = await Promise.all(
      ['/assistants', '/calls', '/phone-numbers', '/tools'].map(async (path) => json(await intruder.request('GET', path))),
    );
    // Assert
    expect(assistants!.data.map((a: Json) => a.id)).not.toContain(assistant.id);
    expect(calls!.data.map((c: Json) => c.id)).not.toContain(call.id);
    expect(numbers!.data.map((n: Json) => n.id)).toEqual(intruder.numberIds);
    expect(tools!.data).toEqual([]);
  });

  it("the owner's assistant survived the intruder's PATCH and DELETE", async () => {
    // Act
    const response = await owner.request('GET', `/assistants/${assistant.id}`);
    // Assert
    expect(response.status).toBe(200);
    expect((await json(response)).name).toBe('Secret Name 7731');
  });
});

describe('no cross-tenant access to the business, bookings and calendar', () => {
  let booking: Json;

  beforeAll(async () => {
    await owner.request('PATCH', '/business', {
      display_name: 'Secret Clinic 5521',
      hours: { sat: [{ start: '08:00', end: '20:00' }], sun: [{ start: '08:00', end: '20:00' }] },
      booking: { max_days_ahead: 365 },
    });
    const next = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const slots = await json(await owner.request('GET', `/availability?date=${next}&days=7`));
    const start = String(slots.data[0].start).slice(0, 16);
    const result = await harness.deps.bookings.book(owner.businessId, { start, name: 'Secret Patient 9917' });
    if ('reason' in result) throw new Error(result.reason);
    booking = result;
  });

  it.each([
    ['GET', () => `/bookings/${booking.id}`],
    ['POST', () => `/bookings/${booking.id}/cancel`],
  ])("%s another business's booking is 404 and leaks nothing", async (method, path) => {
    // Act
    const response = await intruder.request(method, path());
    const text = await response.text();
    // Assert
    expect(response.status).toBe(404);
    expect(text).not.toContain('Secret Patient 9917');
  });

  it("the business, availability, booking list and calendar are the caller's own", async () => {
    // Act
    const business = await intruder.request('GET', '/business');
    const list = await intruder.request('GET', '/bookings');
    const ics = await intruder.request('GET', '/bookings.ics');
    const weekend = await intruder.request('GET', `/availability?date=${String(booking.start).slice(0, 10)}`);
    const texts = await Promise.all([business, list, ics].map((response) => response.text()));
    // Assert
    for (const text of texts) {
      expect(text).not.toContain('Secret Clinic 5521');
      expect(text).not.toContain('Secret Patient 9917');
    }
    expect(JSON.parse(texts[1]!).data).toEqual([]);
    expect(weekend.status).toBe(200);
    expect((await owner.request('GET', `/bookings/${booking.id}`)).status).toBe(200);
    expect((await json(await owner.request('GET', `/bookings/${booking.id}`))).status).toBe('confirmed');
  });

  it("the intruder's PATCH and feed changes touch only its own business", async () => {
    // Act
    await intruder.request('PATCH', '/business', { display_name: 'Intruder' });
    const feed = await json(await intruder.request('POST', '/business/calendar-feed'));
    const calendar = await harness.app.request(feed.path);
    // Assert
    expect((await json(await owner.request('GET', '/business'))).display_name).toBe('Secret Clinic 5521');
    expect(await calendar.text()).not.toContain('Secret Patient 9917');
  });
});
