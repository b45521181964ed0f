import { beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../../shared/auth/api-key';
import { createApiHarness, type ApiHarness } from '../../support/api-harness';

let harness: ApiHarness;

beforeAll(async () => {
  harness = await createApiHarness();
});

async function expectUnauthorized(response: Response) {
  expect(response.status).toBe(401);
  const body = (await response.json()) as { code: string; detail: string };
  expect(body.code).toBe('unauthorized');
  expect(typeof body.detail).toBe('string');
  expect(response.headers.get('x-api-version')).toBe('1.0.0');
}

describe('authentication', () => {
  it.each([
    ['no header', undefined],
    ['wrong scheme', 'Basic abc'],
    ['empty bearer', 'Bearer '],
    ['not a key', 'Bearer hello'],
    ['bad checksum', `Bearer ${generateApiKey('test').slice(0, -1)}A`],
    ['unknown but well-formed key', `Bearer ${generateApiKey('test')}`],
  ])('refuses %s with 401', async (_name, header) => {
    // Arrange
    const headers: Record<string, string> = header === undefined ? {} : { authorization: header };
    // Act
    const response = await harness.app.request('/api/v1/assistants', { headers });
    // Assert
    await expectUnauthorized(response);
  });

  it('refuses a revoked key and keeps the other keys working', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    const second = await harness.admin.createKey(tenant.businessId);
    await harness.admin.revokeKey(tenant.businessId, tenant.apiKey.slice(0, 16));
    const fresh = await createApiHarness(); // a process that has not cached the key
    // Act
    const revoked = await fresh.app.request('/api/v1/assistants', { headers: { authorization: `Bearer ${tenant.apiKey}` } });
    const other = await fresh.app.request('/api/v1/assistants', { headers: { authorization: `Bearer ${second.api_key}` } });
    // Assert
    await expectUnauthorized(revoked);
    expect(other.status).toBe(200);
  });

  it('accepts a valid key and answers with version and rate-limit headers', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const response = await tenant.request('GET', '/assistants');
    // Assert
    expect(response.status).toBe(200);
    expect(response.headers.get('x-api-version')).toBe('1.0.0');
    expect(response.headers.get('ratelimit-policy')).toBe('"default";q=240;w=60');
    expect(response.headers.get('ratelimit')).toMatch(/^"default";r=239;t=\d+$/);
  });

  it('caches a key lookup so a warm process authenticates without a read', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    let lookups = 0;
    const original = harness.deps.findApiKey;
    const counting = await createApiHarness();
    counting.deps.findApiKey = async (hash) => {
      lookups++;
      return original(hash);
    };
    const { createApp } = await import('../../../functions/api/app');
    const app = createApp(counting.deps);
    // Act
    for (let i = 0; i < 3; i++) await app.request('/api/v1/assistants', { headers: { authorization: `Bearer ${tenant.apiKey}` } });
    // Assert
    expect(lookups).toBe(1);
  });

  it('serves the OpenAPI document without a key', async () => {
    // Act
    const response = await harness.app.request('/api/v1/openapi.json');
    // Assert
    expect(response.status).toBe(200);
    const doc = (await response.json()) as { openapi: string };
    expect(doc.openapi).toMatch(/^3\.1/);
  });
});
