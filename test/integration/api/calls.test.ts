import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../../functions/api/app';
import { createApiDeps } from '../../../functions/lib/deps';
import { S3RecordingLinks } from '../../../functions/lib/recording-links';
import { SqsOutboundCallQueue } from '../../../shared/queue/outbound-calls';
import { createApiHarness, type ApiHarness } from '../../support/api-harness';

let harness: ApiHarness;

const RECORDINGS_BUCKET = 'recordings-api-test';
const s3 = new S3Client({
  region: 'us-east-1',
  endpoint: inject('sqsEndpoint'),
  forcePathStyle: true,
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

beforeAll(async () => {
  harness = await createApiHarness();
  await s3.send(new CreateBucketCommand({ Bucket: RECORDINGS_BUCKET })).catch(() => undefined);
});

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

async function tenantWithAssistant(setup: { minutes?: number; numbers?: number } = {}) {
  const tenant = await harness.newTenant(setup);
  const assistant = await json(await tenant.request('POST', '/assistants', { name: 'Caller' }));
  return { tenant, assistantId: assistant.id as number };
}

describe('POST /calls', () => {
  it('stores the call in its initial state and enqueues a job for the call engine', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant({ numbers: 2 });
    const numbers = await json(await tenant.request('GET', '/phone-numbers'));
    const first = numbers.data.find((n: Json) => n.id === Math.min(...tenant.numberIds));
    // Act
    const response = await tenant.request('POST', '/calls', { assistant_id: assistantId, to: '+14155550123', variables: { name: 'Jo' } });
    // Assert
    expect(response.status).toBe(200);
    const call = await json(response);
    expect(call).toEqual({
      id: expect.any(Number),
      assistant_id: assistantId,
      channel: 'phone',
      direction: 'outbound',
      from_number: first.number,
      to_number: '+14155550123',
      started_at: null,
      ended_at: null,
      duration_s: 0,
      status: 'queued',
      outcome: null,
      ended_reason: null,
      summary: '',
      intent: '',
      caller_name: null,
      score: null,
      analysis: {},
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      answered_by: null,
      carrier_call_id: null,
      transferred_to: null,
      recording_notice_heard: null,
      ai_disclosure_heard: null,
      billed_minutes: null,
      expires_at: null,
    });
    expect(await harness.queuedJobs()).toContainEqual({ business_id: tenant.businessId, call_id: call.id });
  });

  it('uses the phone number given', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant({ numbers: 2 });
    const chosen = Math.max(...tenant.numberIds);
    const numbers = await json(await tenant.request('GET', '/phone-numbers'));
    // Act
    const call = await json(
      await tenant.request('POST', '/calls', { assistant_id: assistantId, to: '+14155550123', phone_number_id: chosen }),
    );
    // Assert
    expect(call.from_number).toBe(numbers.data.find((n: Json) => n.id === chosen).number);
  });

  it('refuses with 402 insufficient_minutes when the plan has no minutes', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant({ minutes: 0 });
    // Act
    const response = await tenant.request('POST', '/calls', { assistant_id: assistantId, to: '+14155550123' });
    // Assert
    expect(response.status).toBe(402);
    expect(await json(response)).toMatchObject({ code: 'insufficient_minutes' });
  });

  it('answers 404 for an assistant or number that does not exist', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant();
    // Act
    const noAssistant = await tenant.request('POST', '/calls', { assistant_id: 987_654_321, to: '+14155550123' });
    const noNumber = await tenant.request('POST', '/calls', {
      assistant_id: assistantId,
      to: '+14155550123',
      phone_number_id: 987_654_321,
    });
    // Assert
    expect(noAssistant.status).toBe(404);
    expect(noNumber.status).toBe(404);
    expect(await json(noNumber)).toMatchObject({ code: 'not_found' });
  });

  it('a business with no number gets a 422 on phone_number_id', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant({ numbers: 0 });
    // Act
    const response = await tenant.request('POST', '/calls', { assistant_id: assistantId, to: '+14155550123' });
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0].loc).toEqual(['body', 'phone_number_id']);
  });

  it('reports every invalid field at once', async () => {
    // Arrange
    const { tenant } = await tenantWithAssistant();
    // Act
    const response = await tenant.request('POST', '/calls', { to: '415-555-0123', variables: { a: 1 }, extra: true });
    // Assert
    expect(response.status).toBe(422);
    const locs = (await json(response)).detail.map((item: Json) => item.loc.join('.')).sort();
    expect(locs).toEqual(['body.assistant_id', 'body.extra', 'body.to', 'body.variables.a']);
  });

  it.each(['+1', '14155550123', '+0123456789', '+1415555012345678', '+1 415 555 0123'])('refuses non-E.164 to=%s', async (to) => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant();
    // Act
    const response = await tenant.request('POST', '/calls', { assistant_id: assistantId, to });
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0].loc).toEqual(['body', 'to']);
  });
});

describe('Idempotency-Key on POST /calls', () => {
  it('returns the same call for the same key and body, and enqueues once', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant();
    const body = { assistant_id: assistantId, to: '+14155550999' };
    const headers = { 'idempotency-key': 'order-42' };
    // Act
    const first = await json(await tenant.request('POST', '/calls', body, headers));
    const second = await json(await tenant.request('POST', '/calls', { to: '+14155550999', assistant_id: assistantId }, headers));
    const list = await json(await tenant.request('GET', '/calls'));
    // Assert
    expect(second).toEqual(first);
    expect(list.data).toHaveLength(1);
  });

  it('answers 409 idempotency_conflict for the same key with a different body', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant();
    const headers = { 'idempotency-key': 'k-1' };
    await tenant.request('POST', '/calls', { assistant_id: assistantId, to: '+14155550999' }, headers);
    // Act
    const response = await tenant.request('POST', '/calls', { assistant_id: assistantId, to: '+14155550998' }, headers);
    // Assert
    expect(response.status).toBe(409);
    expect(await json(response)).toMatchObject({ code: 'idempotency_conflict' });
  });

  it('creates exactly one call when the same request races itself', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant();
    const body = { assistant_id: assistantId, to: '+14155550777' };
    // Act
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => tenant.request('POST', '/calls', body, { 'idempotency-key': 'race' })),
    );
    const list = await json(await tenant.request('GET', '/calls'));
    // Assert
    expect(responses.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(list.data).toHaveLength(1);
  });

  it('keeps keys of different businesses apart', async () => {
    // Arrange
    const a = await tenantWithAssistant();
    const b = await tenantWithAssistant();
    const headers = { 'idempotency-key': 'shared-key' };
    // Act
    const callA = await json(await a.tenant.request('POST', '/calls', { assistant_id: a.assistantId, to: '+14155550100' }, headers));
    const callB = await json(await b.tenant.request('POST', '/calls', { assistant_id: b.assistantId, to: '+14155550100' }, headers));
    // Assert
    expect(callB.id).not.toBe(callA.id);
    expect(callB.assistant_id).toBe(b.assistantId);
  });

  it('does not remember a request that failed, so a retry after fixing it runs', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant({ minutes: 0 });
    const headers = { 'idempotency-key': 'after-topup' };
    const body = { assistant_id: assistantId, to: '+14155550100' };
    const refused = await tenant.request('POST', '/calls', body, headers);
    await harness.admin.setMinutes(tenant.businessId, 10);
    // Act
    const retried = await tenant.request('POST', '/calls', body, headers);
    // Assert
    expect(refused.status).toBe(402);
    expect(retried.status).toBe(200);
  });
});

describe('GET /calls and /calls/{id}', () => {
  it('pages newest first with limit, offset, has_more and filters', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant();
    const other = await json(await tenant.request('POST', '/assistants', { name: 'Other' }));
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const assistant = i === 2 ? other.id : assistantId;
      ids.push((await json(await tenant.request('POST', '/calls', { assistant_id: assistant, to: `+1415555010${i}` }))).id);
    }
    // Act
    const page1 = await json(await tenant.request('GET', '/calls?limit=2'));
    const page3 = await json(await tenant.request('GET', '/calls?limit=2&offset=4'));
    const byAssistant = await json(await tenant.request('GET', `/calls?assistant_id=${other.id}`));
    const inbound = await json(await tenant.request('GET', '/calls?direction=inbound'));
    // Assert
    expect(page1).toMatchObject({ limit: 2, offset: 0, has_more: true });
    expect(page1.data.map((c: Json) => c.id)).toEqual([ids[4], ids[3]]);
    expect(page3).toMatchObject({ limit: 2, offset: 4, has_more: false });
    expect(page3.data.map((c: Json) => c.id)).toEqual([ids[0]]);
    expect(byAssistant.data.map((c: Json) => c.id)).toEqual([ids[2]]);
    expect(inbound.data).toEqual([]);
    expect(page1.data[0]).not.toHaveProperty('transcript');
  });

  it.each([
    ['limit=0', 'limit', 'greater_than_equal'],
    ['limit=201', 'limit', 'less_than_equal'],
    ['limit=abc', 'limit', 'int_parsing'],
    ['offset=-1', 'offset', 'greater_than_equal'],
    ['direction=sideways', 'direction', 'literal_error'],
    ['assistant_id=x', 'assistant_id', 'int_parsing'],
  ])('GET /calls?%s is a 422 on query.%s', async (query, field, type) => {
    // Arrange
    const { tenant } = await tenantWithAssistant();
    // Act
    const response = await tenant.request('GET', `/calls?${query}`);
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0]).toMatchObject({ loc: ['query', field], type });
  });

  it('GET /calls/{id} returns the call with transcript, metrics, recording_url and deliveries', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant();
    const created = await json(await tenant.request('POST', '/calls', { assistant_id: assistantId, to: '+14155550123' }));
    // Act
    const detail = await json(await tenant.request('GET', `/calls/${created.id}`));
    // Assert
    expect(detail).toEqual({
      ...created,
      transcript: [],
      metrics: {},
      recording_url: null,
      webhook_deliveries: [],
      actions: [],
      workflow: null,
    });
  });

  it('GET /calls/{id} gives a 15-minute presigned recording_url that downloads the recording', async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant();
    const created = await json(await tenant.request('POST', '/calls', { assistant_id: assistantId, to: '+14155550123' }));
    const key = `recordings/${tenant.businessId}/${created.id}.wav`;
    const audio = Buffer.from(`RIFF-test-recording-${created.id}`);
    await s3.send(new PutObjectCommand({ Bucket: RECORDINGS_BUCKET, Key: key, Body: audio }));
    await harness.core.callRepo.putCallDetail(tenant.businessId, created.id, { transcript: [], metrics: {}, recording_key: key });
    const links = new S3RecordingLinks({ bucket: RECORDINGS_BUCKET, region: 'us-east-1', endpoint: inject('sqsEndpoint') });
    const app = createApp(
      createApiDeps({ ...harness.core, recordingLinks: links }, new SqsOutboundCallQueue(harness.sqs, harness.queueUrl)),
    );
    // Act
    const response = await app.request(`/api/v1/calls/${created.id}`, { headers: { authorization: `Bearer ${tenant.apiKey}` } });
    const detail = await json(response);
    const download = await fetch(detail.recording_url);
    // Assert
    expect(response.status).toBe(200);
    expect(new URL(detail.recording_url).searchParams.get('X-Amz-Expires')).toBe('900');
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(audio);
  });
});

describe('GET /phone-numbers and /tools', () => {
  it('lists the business numbers and tools newest first in {data}', async () => {
    // Arrange
    const tenant = await harness.newTenant({ numbers: 2 });
    await harness.admin.addTool(tenant.businessId, {
      name: 'check_stock',
      description: 'Checks stock',
      server_url: 'https://tools.example.com/stock',
      parameters: { type: 'object', properties: { sku: { type: 'string' } } },
      timeout_ms: 3000,
    });
    // Act
    const numbers = await json(await tenant.request('GET', '/phone-numbers'));
    const tools = await json(await tenant.request('GET', '/tools'));
    // Assert
    expect(numbers.data).toHaveLength(2);
    expect(Object.keys(numbers.data[0]).sort()).toEqual(['assistant_id', 'created_at', 'id', 'label', 'number', 'provider']);
    expect(tools.data).toEqual([
      {
        id: expect.any(Number),
        name: 'check_stock',
        description: 'Checks stock',
        parameters: { type: 'object', properties: { sku: { type: 'string' } } },
        server_url: 'https://tools.example.com/stock',
        timeout_ms: 3000,
        filler: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
  });
});
