import { beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION } from '../../../functions/api/app';
import { createApiHarness, type ApiHarness, type TenantClient } from '../../support/api-harness';
import { strictResponseErrors } from '../../support/openapi-strict';

/**
 * Attack suite, HTTP conventions a generated client relies on: a wrong method on a known path is a
 * 405 with `Allow`, a body that is not JSON is a 415, and every error body fits the document's
 * `ErrorBody` (its `code` in the enum) when checked strictly, as ajv in a strict client checks it.
 */

let harness: ApiHarness;
let tenant: TenantClient;

beforeAll(async () => {
  harness = await createApiHarness({ unlimited: true });
  tenant = await harness.newTenant();
});

type Json = Record<string, any>;

describe('attack: a known path with a method it does not take', () => {
  it.each([
    ['DELETE', '/assistants', 'GET, HEAD, POST'],
    ['PUT', '/assistants/1', 'GET, HEAD, PATCH, DELETE'],
    ['POST', '/calls/1', 'GET, HEAD'],
    ['PATCH', '/usage', 'GET, HEAD'],
    ['GET', '/knowledge-bases/1/search', 'POST'],
    ['DELETE', '/bookings/1/cancel', 'POST'],
    ['POST', '/openapi.json', 'GET, HEAD'],
    ['OPTIONS', '/tools/1', 'GET, HEAD, PATCH, DELETE'],
  ])('%s %s is a 405 with Allow: %s and a documented body', async (method, path, allow) => {
    // Act
    const response = await tenant.request(method, path);
    const body = (await response.json()) as Json;
    // Assert
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect(response.headers.get('x-api-version')).toBe(API_VERSION);
    expect(body).toEqual({ code: 'method_not_allowed', detail: expect.stringContaining(allow) });
    expect(strictResponseErrors('ErrorBody', body)).toEqual([]);
  });

  it.each([
    ['GET', '/nope'],
    ['DELETE', '/assistants/1/nope'],
    ['POST', '/knowledge-bases/1/documents/2/search'],
  ])('%s %s (an unknown path) stays a 404 with no Allow', async (method, path) => {
    // Act
    const response = await tenant.request(method, path);
    // Assert
    expect(response.status).toBe(404);
    expect(response.headers.get('allow')).toBeNull();
    expect(await response.json()).toMatchObject({ code: 'not_found' });
  });

  it('without a key is a 401 first: the method is checked only for a caller the API knows', async () => {
    // Act
    const response = await harness.app.request('/api/v1/assistants', { method: 'DELETE' });
    // Assert
    expect(response.status).toBe(401);
  });
});

/** Every route that reads a body (none takes anything but JSON: documents come as JSON text or a URL). */
const BODY_ROUTES: [string, string][] = [
  ['POST', '/assistants'],
  ['PATCH', '/assistants/1'],
  ['POST', '/calls'],
  ['POST', '/tools'],
  ['PATCH', '/tools/1'],
  ['PATCH', '/business'],
  ['POST', '/knowledge-bases'],
  ['PATCH', '/knowledge-bases/1'],
  ['POST', '/knowledge-bases/1/documents'],
  ['POST', '/knowledge-bases/1/search'],
  ['POST', '/workflows'],
  ['PATCH', '/workflows/1'],
];

describe('attack: a body that is not JSON', () => {
  it.each(BODY_ROUTES)(
    '%s %s with text/plain is a 415 unsupported_media_type, before anything is read or changed',
    async (method, path) => {
      // Act
      const response = await tenant.request(method, path, '{"name": "x"}', { 'content-type': 'text/plain' });
      const body = (await response.json()) as Json;
      // Assert
      expect(response.status).toBe(415);
      expect(body).toEqual({ code: 'unsupported_media_type', detail: expect.stringContaining('"text/plain"') });
      expect(strictResponseErrors('ErrorBody', body)).toEqual([]);
    },
  );

  it.each([
    ['no Content-Type at all', undefined],
    ["curl -d's default", 'application/x-www-form-urlencoded'],
    ['a multipart form', 'multipart/form-data; boundary=x'],
    ['JSON in a charset the API does not read', 'application/json; charset=iso-8859-1'],
    ['a look-alike', 'application/jsonx'],
  ])('JSON sent as %s is a 415', async (_case, type) => {
    // Arrange: the harness sets application/json unless told otherwise; a Blob body carries no type
    const headers = type === undefined ? {} : { 'content-type': type };
    // Act
    const response = await harness.app.request('/api/v1/assistants', {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.apiKey}`, ...headers },
      body: new Blob([JSON.stringify({ name: 'Front desk' })]),
    });
    // Assert
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ code: 'unsupported_media_type' });
  });

  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON;charset="UTF-8"',
    'application/merge-patch+json',
    'application/vnd.example+json; charset=utf-8',
  ])('Content-Type %s is read as JSON', async (type) => {
    // Act
    const response = await tenant.request('POST', '/assistants', JSON.stringify({ name: 'Front desk' }), { 'content-type': type });
    // Assert
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ name: 'Front desk' });
  });

  it('an empty body needs no Content-Type (POST /assistants with no body at all still creates one)', async () => {
    // Act
    const response = await harness.app.request('/api/v1/assistants', {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    // Assert
    expect(response.status).toBe(200);
  });
});
