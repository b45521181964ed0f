import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../../shared/db/table';
import type { CallRecord } from '../../../shared/db/call-repository';
import { initialCallRecord } from '../../../shared/services/call-views';
import { hashWebCallToken, parseWebCallToken } from '../../../shared/auth/web-call-token';
import { createApiHarness, TEST_WEB_CALL_URL, type ApiHarness, type TenantClient } from '../../support/api-harness';
import { strictResponseErrors } from '../../support/openapi-strict';

let harness: ApiHarness;
const NOW = Date.parse('2026-11-29T10:00:00.000Z');

beforeAll(async () => {
  harness = await createApiHarness({ clock: () => new Date(NOW) });
});

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

async function tenantWithAssistant(setup: { minutes?: number } = {}) {
  const tenant = await harness.newTenant(setup);
  const assistant = await json(await tenant.request('POST', '/assistants', { name: 'Greeter' }));
  return { tenant, assistantId: assistant.id as number };
}

async function rawCall(businessId: number, callId: number): Promise<Json> {
  const { db } = harness.core;
  const got = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keys.call(businessId, callId), ConsistentRead: true }));
  return got.Item as Json;
}

/** Every item the business has in the table (calls, details, idempotency records, …), as one string. */
async function everyItemText(businessId: number): Promise<string> {
  const { db } = harness.core;
  const items = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.business(businessId).pk },
      ConsistentRead: true,
    }),
  );
  return JSON.stringify(items.Items);
}

const createWebCall = (tenant: TenantClient, body: unknown, headers?: Record<string, string>) =>
  tenant.request('POST', '/calls/web', body, headers);

describe('POST /calls/web', () => {
  it('creates a queued web call and answers {call_id, url, token, expires_at}', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant();
    // Act
    const response = await createWebCall(tenant, { assistant_id: assistantId, variables: { name: 'Jo' } });
    // Assert
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await json(response);
    expect(body).toEqual({
      call_id: expect.any(Number),
      url: TEST_WEB_CALL_URL,
      token: expect.stringMatching(/^wc_\d+\.\d+\.[A-Za-z0-9_-]{43}$/),
      expires_at: '2026-11-29T10:01:00.000Z',
    });
    expect(parseWebCallToken(body.token)).toEqual({ callId: body.call_id, businessId: tenant.businessId });
    expect(strictResponseErrors('WebCall', body)).toEqual([]);
    const call = await json(await tenant.request('GET', `/calls/${body.call_id}`));
    expect(strictResponseErrors('CallDetail', call)).toEqual([]);
    expect(call).toMatchObject({
      id: body.call_id,
      assistant_id: assistantId,
      channel: 'web',
      direction: 'inbound',
      from_number: '',
      to_number: '',
      status: 'queued',
      ended_reason: null,
    });
    expect(Object.keys(call).filter((key) => key.startsWith('web_token'))).toEqual([]);
    // A web call is never an outbound job: nothing was queued for the dialler.
    expect(await harness.queuedJobs()).not.toContainEqual({ business_id: tenant.businessId, call_id: body.call_id });
  });

  it('stores only the token hash and expiry; the token string appears in no item of the business', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant();
    // Act
    const body = await json(await createWebCall(tenant, { assistant_id: assistantId }, { 'idempotency-key': 'stored-1' }));
    // Assert
    const item = await rawCall(tenant.businessId, body.call_id);
    expect(item.web_token_hash).toBe(hashWebCallToken(body.token));
    expect(item.web_token_expires_at).toBe(NOW + 60_000);
    expect(item).toMatchObject({ channel: 'web', direction: 'inbound', phone_number_id: null, variables: {} });
    const everything = await everyItemText(tenant.businessId);
    expect(everything).not.toContain(body.token);
    expect(everything).not.toContain(body.token.split('.')[2]);
  });

  it('keeps web_token fields out of GET /calls', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant();
    const body = await json(await createWebCall(tenant, { assistant_id: assistantId }));
    // Act
    const page = await json(await tenant.request('GET', '/calls?channel=web'));
    // Assert
    const listed = page.data.find((call: Json) => call.id === body.call_id);
    expect(listed).toMatchObject({ channel: 'web' });
    expect(JSON.stringify(page)).not.toContain('web_token');
  });

  it("answers 404 for another business's assistant, as GET /assistants/{id} does", async () => {
    // Arrange
    const { assistantId } = await tenantWithAssistant();
    const other = await harness.newTenant();
    // Act
    const response = await createWebCall(other, { assistant_id: assistantId });
    const read = await other.request('GET', `/assistants/${assistantId}`);
    // Assert
    expect(response.status).toBe(404);
    expect(await json(response)).toEqual({ code: 'not_found', detail: `Assistant ${assistantId} not found.` });
    expect(read.status).toBe(404);
  });

  it('answers 422 with one item per bad field, variables checked as POST /calls checks them', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const response = await createWebCall(tenant, { assistant_id: 'x', variables: { name: 'a'.repeat(1001) }, to: '+14155550123' });
    // Assert
    expect(response.status).toBe(422);
    const items = (await json(response)).detail as Json[];
    expect(items.map((item) => [item.loc, item.type])).toEqual(
      expect.arrayContaining([
        [['body', 'assistant_id'], 'int_type'],
        [['body', 'variables', 'name'], 'string_too_long'],
        [['body', 'to'], 'extra_forbidden'],
      ]),
    );
    expect(items).toHaveLength(3);
  });

  it('refuses a body that is not JSON (415) and query parameters (422)', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant();
    // Act
    const form = await tenant.request('POST', '/calls/web', `assistant_id=${assistantId}`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    const query = await tenant.request('POST', '/calls/web?debug=1', { assistant_id: assistantId });
    // Assert
    expect(form.status).toBe(415);
    expect(query.status).toBe(422);
    expect((await json(query)).detail[0]).toMatchObject({ loc: ['query', 'debug'], type: 'extra_forbidden' });
  });

  it('answers 402 insufficient_minutes when the plan has no minutes, and stores no call', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant({ minutes: 0 });
    // Act
    const response = await createWebCall(tenant, { assistant_id: assistantId });
    // Assert
    expect(response.status).toBe(402);
    expect(await json(response)).toEqual({ code: 'insufficient_minutes', detail: 'The plan has no minutes left for a web call.' });
    expect((await json(await tenant.request('GET', '/calls'))).data).toEqual([]);
  });
});

describe('Idempotency-Key on POST /calls/web', () => {
  it('answers the same call with a new token; the earlier token stops working', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant();
    const headers = { 'idempotency-key': 'talk-1' };
    const first = await json(await createWebCall(tenant, { assistant_id: assistantId }, headers));
    // Act
    const replay = await json(await createWebCall(tenant, { variables: {}, assistant_id: assistantId }, headers));
    // Assert
    expect(replay).toMatchObject({ call_id: first.call_id, url: TEST_WEB_CALL_URL, expires_at: first.expires_at });
    expect(replay.token).not.toBe(first.token);
    const item = await rawCall(tenant.businessId, first.call_id);
    expect(item.web_token_hash).toBe(hashWebCallToken(replay.token));
    expect((await json(await tenant.request('GET', '/calls'))).data).toHaveLength(1);
  });

  it('answers 409 idempotency_conflict for the same key with another body', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant();
    const headers = { 'idempotency-key': 'talk-2' };
    await createWebCall(tenant, { assistant_id: assistantId }, headers);
    // Act
    const response = await createWebCall(tenant, { assistant_id: assistantId, variables: { name: 'Jo' } }, headers);
    // Assert
    expect(response.status).toBe(409);
    expect(await json(response)).toMatchObject({ code: 'idempotency_conflict' });
  });

  it('answers 409 conflict once the call was joined (its token redeemed), and keeps a key per route', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant();
    const headers = { 'idempotency-key': 'talk-3' };
    const first = await json(await createWebCall(tenant, { assistant_id: assistantId }, headers));
    await redeem(tenant.businessId, first.call_id, hashWebCallToken(first.token));
    // Act
    const replay = await createWebCall(tenant, { assistant_id: assistantId }, headers);
    const outbound = await tenant.request('POST', '/calls', { assistant_id: assistantId, to: '+14155550123' }, headers);
    // Assert
    expect(replay.status).toBe(409);
    expect(await json(replay)).toEqual({
      code: 'conflict',
      detail: `Web call ${first.call_id} was already joined or has ended; create a new web call.`,
    });
    expect(outbound.status).toBe(200);
  });

  it('releases the key when the create fails, so a retry after topping up runs', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant({ minutes: 0 });
    const headers = { 'idempotency-key': 'talk-4' };
    expect((await createWebCall(tenant, { assistant_id: assistantId }, headers)).status).toBe(402);
    await harness.admin.setMinutes(tenant.businessId, 10);
    // Act
    const response = await createWebCall(tenant, { assistant_id: assistantId }, headers);
    // Assert
    expect(response.status).toBe(200);
  });
});

describe('POST /calls/web without WEB_CALL_URL', () => {
  it('answers 503 web_calls_unavailable and stores nothing', async () => {
    // Arrange
    const bare = await createApiHarness({ settings: {} });
    const tenant = await bare.newTenant();
    const assistant = await json(await tenant.request('POST', '/assistants', { name: 'Greeter' }));
    // Act
    const response = await tenant.request('POST', '/calls/web', { assistant_id: assistant.id });
    // Assert
    expect(response.status).toBe(503);
    expect(await json(response)).toMatchObject({ code: 'web_calls_unavailable' });
    expect((await json(await tenant.request('GET', '/calls'))).data).toEqual([]);
  });
});

describe('GET /calls filters: direction, channel, status, outcome and creation window', () => {
  /** Five calls a minute apart (ids 1..5 after `base`), each differing in one filtered field. */
  async function seed(businessId: number, assistantId: number, base: number): Promise<number[]> {
    const call = (i: number, fields: Partial<CallRecord>): CallRecord => ({
      ...initialCallRecord({
        id: base + i,
        business_id: businessId,
        assistant_id: assistantId,
        direction: 'inbound',
        from_number: '',
        to_number: '',
        phone_number_id: null,
        variables: {},
        now: new Date(Date.UTC(2026, 10, 1, 9, i)).toISOString(),
      }),
      ...fields,
    });
    const records = [
      call(1, { channel: 'phone', direction: 'outbound' }),
      call(2, { channel: 'web' }),
      call(3, { channel: 'web', status: 'ended', ended_reason: 'caller_hung_up', outcome: 'resolved' }),
      call(4, { channel: 'web', status: 'ended', ended_reason: 'canceled', outcome: null }),
      call(5, { channel: 'phone', status: 'ended', ended_reason: 'caller_hung_up', outcome: 'resolved' }),
    ];
    for (const record of records) await harness.core.callRepo.insertCall(record);
    return records.map((record) => record.id);
  }

  it.each([
    ['channel=web', [4, 3, 2]],
    ['channel=phone', [5, 1]],
    ['direction=inbound&channel=web&status=ended', [4, 3]],
    ['channel=web&outcome=resolved', [3]],
    ['status=queued', [2, 1]],
    ['outcome=resolved', [5, 3]],
    ['created_after=2026-11-01T09:02:00Z&created_before=2026-11-01T09:04:00Z', [3, 2]],
    ['channel=web&created_after=2026-11-01T09:03:00Z', [4, 3]],
    ['direction=outbound&channel=web', []],
  ])('GET /calls?%s lists exactly the matching calls, newest first', async (query, expected) => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant();
    const base = 50_000_000 + tenant.businessId * 10;
    await seed(tenant.businessId, assistantId, base);
    // Act
    const response = await tenant.request('GET', `/calls?${query}`);
    // Assert
    expect(response.status).toBe(200);
    expect((await json(response)).data.map((call: Json) => call.id - base)).toEqual(expected);
  });

  it('refuses an unknown channel with a 422 at query.channel', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const response = await tenant.request('GET', '/calls?channel=fax');
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0]).toMatchObject({ loc: ['query', 'channel'], type: 'literal_error' });
  });
});

describe('web_origins on /business', () => {
  it('is [] by default, stored normalised and deduplicated by PATCH, and each bad entry is a 422 at its index', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    const before = await json(await tenant.request('GET', '/business'));
    // Act
    const saved = await tenant.request('PATCH', '/business', {
      web_origins: ['https://Shop.Example.com:443', 'http://localhost:8080', 'https://shop.example.com'],
    });
    const refused = await tenant.request('PATCH', '/business', { web_origins: ['https://ok.example', 'https://ok.example/x'] });
    // Assert
    expect(before.web_origins).toEqual([]);
    expect(saved.status).toBe(200);
    expect((await json(saved)).web_origins).toEqual(['https://shop.example.com', 'http://localhost:8080']);
    expect(refused.status).toBe(422);
    expect((await json(refused)).detail).toEqual([expect.objectContaining({ loc: ['body', 'web_origins', 1], type: 'value_error' })]);
    expect((await json(await tenant.request('GET', '/business'))).web_origins).toEqual([
      'https://shop.example.com',
      'http://localhost:8080',
    ]);
  });
});

/** The call engine's redemption, exactly as the contract writes it: one conditional update that removes the hash. */
async function redeem(businessId: number, callId: number, hash: string): Promise<void> {
  const { db } = harness.core;
  await db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.call(businessId, callId),
      ConditionExpression: 'web_token_hash = :hash AND web_token_expires_at > :now AND #status = :queued',
      UpdateExpression: 'REMOVE web_token_hash',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':hash': hash, ':now': NOW, ':queued': 'queued' },
    }),
  );
}
