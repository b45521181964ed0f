import { beforeAll, describe, expect, it } from 'vitest';
import { CallSlotsRepository } from '../../../shared/db/call-slots-repository';
import { MinutesRepository } from '../../../shared/db/minutes-repository';
import { createApiHarness, type ApiHarness } from '../../support/api-harness';
import { strictOpenApiDocument, strictResponseErrors } from '../../support/openapi-strict';

let harness: ApiHarness;

beforeAll(async () => {
  harness = await createApiHarness();
});

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

describe('GET /usage', () => {
  it('starts with the whole plan, no live or queued calls and the default cap', async () => {
    // Arrange
    const tenant = await harness.newTenant({ minutes: 42 });
    // Act
    const response = await tenant.request('GET', '/usage');
    // Assert
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({
      minutes_remaining: 42,
      minutes_reserved: 0,
      live_calls: 0,
      max_concurrent_calls: 10,
      queued_calls: 0,
    });
  });

  it('counts queued calls, a call holding a slot and its reserved minutes; another business sees none of it', async () => {
    // Arrange
    const tenant = await harness.newTenant({ minutes: 30 });
    const other = await harness.newTenant({ minutes: 30 });
    const assistant = await json(await tenant.request('POST', '/assistants', { name: 'Caller' }));
    const ids: number[] = [];
    for (const to of ['+14155550101', '+14155550102', '+14155550103']) {
      ids.push((await json(await tenant.request('POST', '/calls', { assistant_id: assistant.id, to }))).id);
    }
    // One of them connects: it takes a slot and reserves 5 minutes, as the dialler does
    await new CallSlotsRepository(harness.core.db).acquire(tenant.businessId, ids[0]!);
    await new MinutesRepository(harness.core.db).reserve(tenant.businessId, ids[0]!, 5);
    await harness.core.callRepo.markRinging(tenant.businessId, ids[0]!, new Date().toISOString());
    // Act
    const usage = await json(await tenant.request('GET', '/usage'));
    const others = await json(await other.request('GET', '/usage'));
    // Assert
    expect(usage).toEqual({ minutes_remaining: 30, minutes_reserved: 5, live_calls: 1, max_concurrent_calls: 10, queued_calls: 2 });
    expect(others).toMatchObject({ minutes_reserved: 0, live_calls: 0, queued_calls: 0 });
  });

  it('is documented: the response matches the OpenAPI schema in strict mode', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    const document = strictOpenApiDocument() as Json;
    // Act
    const body = await json(await tenant.request('GET', '/usage'));
    // Assert
    expect(strictResponseErrors('Usage', body)).toEqual([]);
    expect(document.paths['/usage'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Usage',
    });
  });

  it('needs a key', async () => {
    const response = await harness.app.request('/api/v1/usage');
    expect(response.status).toBe(401);
  });
});
