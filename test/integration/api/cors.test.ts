import { beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, TEST_WEB_CALL_URL, type ApiHarness } from '../../support/api-harness';

const CONSOLE = 'https://console.example.com';
let withConsole: ApiHarness;
let withoutConsole: ApiHarness;

beforeAll(async () => {
  [withConsole, withoutConsole] = await Promise.all([
    createApiHarness({ settings: { webCallUrl: TEST_WEB_CALL_URL, consoleOrigin: CONSOLE } }),
    createApiHarness(),
  ]);
});

const preflight = (harness: ApiHarness, origin: string, path = '/api/v1/calls/web') =>
  harness.app.request(path, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type, idempotency-key',
    },
  });

/** Every Access-Control-* header of a response. */
const corsHeaders = (response: Response) => [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));

describe('CORS with CONSOLE_ORIGIN set', () => {
  it("answers the console's preflight 204 with its origin, the API's methods and headers, before auth", async () => {
    // Arrange / Act
    const response = await preflight(withConsole, CONSOLE);
    // Assert
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(CONSOLE);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET,HEAD,POST,PATCH,DELETE');
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'Authorization,Content-Type,Idempotency-Key,If-Match,If-None-Match,X-Request-Id',
    );
    expect(response.headers.get('access-control-max-age')).toBe('600');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('vary')).toContain('Origin');
  });

  it('lets the console read answers and their headers, errors included', async () => {
    // Arrange
    const tenant = await withConsole.newTenant();
    // Act
    const ok = await tenant.request('GET', '/calls', undefined, { origin: CONSOLE });
    const unauthorized = await withConsole.app.request('/api/v1/calls', { headers: { origin: CONSOLE } });
    // Assert
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(CONSOLE);
    expect(ok.headers.get('access-control-expose-headers')?.split(',')).toEqual(
      expect.arrayContaining(['ETag', 'X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Retry-After']),
    );
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe(CONSOLE);
  });

  it.each([
    ['another site', 'https://evil.example'],
    ["the console's host over http", 'http://console.example.com'],
    ['a sub-domain of the console', 'https://x.console.example.com'],
    ['the literal null origin', 'null'],
  ])('gives a preflight from %s no Access-Control header at all', async (_name, origin) => {
    // Arrange / Act
    const response = await preflight(withConsole, origin);
    // Assert
    expect(corsHeaders(response)).toEqual([]);
    expect(response.status).not.toBe(204);
  });

  it('gives a request from another origin no Access-Control header, and varies on Origin', async () => {
    // Arrange
    const tenant = await withConsole.newTenant();
    // Act
    const response = await tenant.request('GET', '/calls', undefined, { origin: 'https://evil.example' });
    // Assert
    expect(response.status).toBe(200);
    expect(corsHeaders(response)).toEqual([]);
    expect(response.headers.get('vary')).toContain('Origin');
  });
});

describe('CORS with CONSOLE_ORIGIN unset (the local stack: the console is served same-origin)', () => {
  it.each([CONSOLE, 'http://localhost:3000'])('sends no Access-Control header to %s', async (origin) => {
    // Arrange
    const tenant = await withoutConsole.newTenant();
    // Act
    const answers = [await preflight(withoutConsole, origin), await tenant.request('GET', '/calls', undefined, { origin })];
    // Assert
    expect(answers.map(corsHeaders)).toEqual([[], []]);
  });
});
