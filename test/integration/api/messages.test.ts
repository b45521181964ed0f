import { beforeAll, describe, expect, it } from 'vitest';
import { MessageService, type NewMessage } from '../../../shared/services/message-service';
import { createApiHarness, type ApiHarness, type TenantClient } from '../../support/api-harness';
import { strictResponseErrors } from '../../support/openapi-strict';

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

let harness: ApiHarness;
let owner: TenantClient;
let intruder: TenantClient;
const ids: number[] = [];

/** Messages as the call engine's tools leave them, at fixed times (the service's clock is injected). */
async function leave(tenant: TenantClient, at: string, fields: Partial<NewMessage>): Promise<number> {
  const service = new MessageService({ messages: harness.core.messages, ids: harness.core.ids, now: () => new Date(at) });
  const message = await service.leave(tenant.businessId, {
    call_id: 501,
    assistant_id: 9,
    caller_name: 'Jordan Lee',
    caller_number: '+14155550199',
    body: 'Please call back about the boiler.',
    urgent: false,
    source: 'take_message',
    ...fields,
  });
  return message.id;
}

beforeAll(async () => {
  harness = await createApiHarness();
  [owner, intruder] = await Promise.all([harness.newTenant(), harness.newTenant()]);
  ids.push(await leave(owner, '2026-11-24T10:00:00.000Z', {}));
  ids.push(await leave(owner, '2026-11-25T09:30:00.000Z', { urgent: true, call_id: 502 }));
  ids.push(await leave(owner, '2026-11-26T00:00:00.000Z', { source: 'notify_team', caller_name: '', call_id: 502 }));
  await leave(intruder, '2026-11-25T12:00:00.000Z', { caller_name: 'Someone Else' });
});

describe('GET /messages', () => {
  it('lists newest first as a page with has_more, every field documented', async () => {
    // Act
    const first = await json(await owner.request('GET', '/messages?limit=2'));
    const second = await json(await owner.request('GET', '/messages?limit=2&offset=2'));
    // Assert
    expect(first.data.map((m: Json) => m.id)).toEqual([ids[2], ids[1]]);
    expect(first).toMatchObject({ limit: 2, offset: 0, has_more: true });
    expect(second.data.map((m: Json) => m.id)).toEqual([ids[0]]);
    expect(second.has_more).toBe(false);
    expect(first.data[1]).toEqual({
      id: ids[1],
      call_id: 502,
      assistant_id: 9,
      caller_name: 'Jordan Lee',
      caller_number: '+14155550199',
      body: 'Please call back about the boiler.',
      urgent: true,
      source: 'take_message',
      created_at: '2026-11-25T09:30:00.000Z',
    });
    expect(strictResponseErrors('MessagesPage', first)).toEqual([]);
  });

  it.each([
    ['call_id', 'call_id=502', [2, 1]],
    ['urgent', 'urgent=true', [1]],
    ['not urgent', 'urgent=false', [2, 0]],
    ['from (inclusive) a date', 'from=2026-11-25', [2, 1]],
    ['to (exclusive) a date-time', 'to=2026-11-26T00:00:00Z', [1, 0]],
    ['a window with an offset', 'from=2026-11-25T10:00:00%2B01:00&to=2026-11-25T10:00:00Z', [1]],
    ['combined', 'call_id=502&urgent=false', [2]],
  ])('filters by %s', async (_name, query, expected) => {
    // Act
    const page = await json(await owner.request('GET', `/messages?${query}`));
    // Assert
    expect(page.data.map((m: Json) => m.id)).toEqual(expected.map((index) => ids[index]));
  });

  it.each([
    ['limit=0', 'limit', 'greater_than_equal'],
    ['offset=1001', 'offset', 'less_than_equal'],
    ['call_id=abc', 'call_id', 'int_parsing'],
    ['urgent=yes', 'urgent', 'literal_error'],
    ['from=yesterday', 'from', 'string_pattern_mismatch'],
    ['to=2026-02-30', 'to', 'datetime_parsing'],
  ])('%s is a 422 on that parameter', async (query, name, type) => {
    // Act
    const response = await owner.request('GET', `/messages?${query}`);
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail).toEqual([expect.objectContaining({ loc: ['query', name], type })]);
  });
});

describe('GET /messages/{id}', () => {
  it('returns the message', async () => {
    // Act
    const message = await json(await owner.request('GET', `/messages/${ids[0]}`));
    // Assert
    expect(message).toMatchObject({ id: ids[0], caller_name: 'Jordan Lee', created_at: '2026-11-24T10:00:00.000Z' });
    expect(strictResponseErrors('Message', message)).toEqual([]);
  });

  it.each([
    ['a missing id', '/messages/999999999', 404],
    ['a malformed id', '/messages/01', 422],
  ])('%s (%s) is %i', async (_name, path, status) => {
    // Act
    const response = await owner.request('GET', path);
    // Assert
    expect(response.status).toBe(status);
  });
});

describe('messages are per business', () => {
  it("another business's message is 404 not_found and leaks nothing", async () => {
    // Act
    const response = await intruder.request('GET', `/messages/${ids[1]}`);
    const text = await response.text();
    // Assert
    expect(response.status).toBe(404);
    expect(text).not.toContain('boiler');
  });

  it("a list, filtered by another business's call or not, shows only one's own messages", async () => {
    // Act
    const all = await json(await intruder.request('GET', '/messages'));
    const byCall = await json(await intruder.request('GET', '/messages?call_id=502'));
    // Assert
    expect(all.data.map((m: Json) => m.caller_name)).toEqual(['Someone Else']);
    expect(byCall.data).toEqual([]);
  });
});
