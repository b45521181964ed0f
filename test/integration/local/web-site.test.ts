import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolePolicy, localSite } from '../../../scripts/local/web-site';
import { createApiHarness, type ApiHarness } from '../../support/api-harness';

const MEDIA_WS = 'ws://127.0.0.1:3999';
const RECORDINGS = 'http://127.0.0.1:4999';
const INDEX = '<!doctype html><title>Console</title><script type="module" src="/assets/app-1a2b.js"></script>';

let harness: ApiHarness;
let root: string;
let built: string;
let bare: string;
let close: () => void;

/** Serves the site on loopback as `npm run dev` does; `base` is its URL. */
function listen(consoleDir: string, webClientDir: string): Promise<{ base: string; stop: () => void }> {
  const site = localSite(harness.app, { consoleDir, webClientDir, mediaWsOrigin: MEDIA_WS, recordingsOrigin: RECORDINGS });
  return new Promise((resolve) => {
    const server = serve({ fetch: site.fetch, port: 0, hostname: '127.0.0.1' }, (address: AddressInfo) =>
      resolve({ base: `http://127.0.0.1:${address.port}`, stop: () => server.close() }),
    );
  });
}

beforeAll(async () => {
  harness = await createApiHarness();
  root = mkdtempSync(join(tmpdir(), 'web-site-'));
  mkdirSync(join(root, 'console', 'assets'), { recursive: true });
  mkdirSync(join(root, 'client'));
  writeFileSync(join(root, 'console', 'index.html'), INDEX);
  writeFileSync(join(root, 'console', 'assets', 'app-1a2b.js'), 'console.log("console");');
  writeFileSync(join(root, 'console', 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  for (const name of ['web-call.js', 'web-call.mjs', 'web-call-worklet.js']) writeFileSync(join(root, 'client', name), `/* ${name} */`);
  const site = await listen(join(root, 'console'), join(root, 'client'));
  built = site.base;
  const missing = await listen(join(root, 'nothing-here'), join(root, 'nor-here'));
  bare = missing.base;
  close = () => (site.stop(), missing.stop());
});

afterAll(() => {
  close();
  rmSync(root, { recursive: true, force: true });
});

const EXPECTED_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  `media-src 'self' blob: ${RECORDINGS}; connect-src 'self' ${MEDIA_WS}; ` +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

describe('the local site: the console at /, the browser client, the API under /api', () => {
  it('serves index.html at / with the security headers and no-cache', async () => {
    // Arrange / Act
    const response = await fetch(`${built}/`);
    // Assert
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(INDEX);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(Object.fromEntries([...response.headers].filter(([name]) => SECURITY.includes(name)))).toEqual({
      'content-security-policy': EXPECTED_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'permissions-policy': 'microphone=(self)',
    });
  });

  it.each(['/assistants', '/calls/123', '/deep/link/page'])(
    'answers the unknown page %s with index.html (the SPA fallback)',
    async (path) => {
      // Arrange / Act
      const response = await fetch(`${built}${path}`);
      // Assert
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(INDEX);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-security-policy')).toBe(EXPECTED_POLICY);
    },
  );

  it('serves build assets for a year, other files no-cache, and a missing asset is a 404', async () => {
    // Arrange / Act
    const asset = await fetch(`${built}/assets/app-1a2b.js`);
    const icon = await fetch(`${built}/favicon.svg`);
    const missing = await fetch(`${built}/assets/gone-9z.js`);
    // Assert
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe('console.log("console");');
    expect(icon.headers.get('cache-control')).toBe('no-cache');
    expect(missing.status).toBe(404);
  });

  it.each(['web-call.js', 'web-call.mjs', 'web-call-worklet.js'])('serves /%s to any page (CORS *), as JavaScript', async (name) => {
    // Arrange / Act
    const response = await fetch(`${built}/${name}`, { headers: { origin: 'https://shop.example.com' } });
    // Assert
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(`/* ${name} */`);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('leaves every path under /api/ to the API: its JSON, its 404, never the console page', async () => {
    // Arrange / Act
    const openapi = await fetch(`${built}/api/v1/openapi.json`);
    const unknown = await fetch(`${built}/api/v1/nothing`);
    const outside = await fetch(`${built}/api/elsewhere`);
    // Assert
    expect(openapi.status).toBe(200);
    expect(((await openapi.json()) as { openapi: string }).openapi).toBe('3.1.0');
    expect(openapi.headers.get('content-security-policy')).toBeNull();
    expect(unknown.status).toBe(401);
    expect(outside.status).toBe(404);
    expect(await outside.json()).toMatchObject({ code: 'not_found' });
  });

  it('refuses a path that climbs out of the folder', async () => {
    // Arrange / Act
    const response = await fetch(`${built}/assets/%2e%2e/%2e%2e/client/web-call.js`);
    // Assert
    expect(await response.text()).not.toContain('web-call.js */');
  });

  it('answers 503 saying to run npm run build:web when a folder is not built', async () => {
    // Arrange / Act
    const page = await fetch(`${bare}/`);
    const client = await fetch(`${bare}/web-call.js`);
    const api = await fetch(`${bare}/api/v1/openapi.json`);
    // Assert
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('npm run build:web');
    expect(client.status).toBe(503);
    expect(await client.text()).toContain('npm run build:web');
    expect(api.status).toBe(200);
  });
});

describe('consolePolicy', () => {
  it('leaves out the recordings origin when recordings are served from the console origin', () => {
    // Arrange / Act / Assert
    expect(consolePolicy({ mediaWsOrigin: MEDIA_WS })).toContain("media-src 'self' blob:; ");
  });
});

const SECURITY = ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'x-frame-options', 'permissions-policy'];
