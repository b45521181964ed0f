import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { guardedFetch, RequestTimeoutError } from '../../../shared/security/guarded-fetch';
import { BlockedUrlError, type LookupAll } from '../../../shared/security/ssrf';

/**
 * guardedFetch against real receivers on 127.0.0.1. Names are resolved by an injected lookup, so
 * "receiver.test" can point at loopback without touching the system resolver, and the tests can
 * count how often the name is resolved (once: the connection goes to the checked address).
 */
interface Seen {
  method: string;
  url: string;
  host: string | undefined;
  body: string;
}

let server: Server;
let port: number;
let seen: Seen[] = [];

async function readBody(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
}

const routes: Record<string, (response: ServerResponse) => void> = {
  '/ok': (response) => response.writeHead(200, { 'content-type': 'text/plain', 'x-multi': ['a', 'b'] }).end('hello'),
  '/redirect': (response) => response.writeHead(302, { location: '/ok' }).end(),
  '/hang': () => undefined,
  '/big': (response) => response.writeHead(200).end('x'.repeat(200 * 1024)),
};

function resolvingTo(address: string): LookupAll & { calls: number } {
  const lookup = Object.assign(
    async () => {
      lookup.calls += 1;
      return [{ address, family: 4 }];
    },
    { calls: 0 },
  );
  return lookup;
}

const DEV = { allowPrivate: true, timeoutMs: 2_000 };

beforeAll(async () => {
  server = createServer(async (request, response) => {
    seen.push({ method: request.method ?? '', url: request.url ?? '', host: request.headers.host, body: await readBody(request) });
    (routes[request.url ?? ''] ?? ((r: ServerResponse) => r.writeHead(404).end()))(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen = [];
});

describe('guardedFetch with allowPrivate (local development)', () => {
  it('reaches a loopback receiver and returns status, headers, body and latency', async () => {
    // Act
    const response = await guardedFetch(
      `http://127.0.0.1:${port}/ok`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' },
      DEV,
    );

    // Assert
    expect(response).toMatchObject({ status: 200, bodyText: 'hello', bodyTruncated: false });
    expect(response.headers['content-type']).toBe('text/plain');
    expect(response.headers['x-multi']).toBe('a, b');
    expect(response.latencyMs).toBeGreaterThanOrEqual(0);
    expect(seen).toEqual([{ method: 'POST', url: '/ok', host: `127.0.0.1:${port}`, body: '{"a":1}' }]);
  });

  it('resolves a name once, connects to the checked address, and keeps the name in Host', async () => {
    // Arrange
    const lookup = resolvingTo('127.0.0.1');

    // Act
    const response = await guardedFetch(`http://receiver.test:${port}/ok`, { headers: { Host: 'evil.example' } }, { ...DEV, lookup });

    // Assert
    expect(response.status).toBe(200);
    expect(lookup.calls).toBe(1);
    expect(seen[0]!.host).toBe(`receiver.test:${port}`);
  });

  it('returns a 3xx as it is and never follows it', async () => {
    const response = await guardedFetch(`http://127.0.0.1:${port}/redirect`, {}, DEV);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/ok');
    expect(seen.map((s) => s.url)).toEqual(['/redirect']);
  });

  it('times out a receiver that never answers', async () => {
    // Arrange
    const started = performance.now();

    // Act / Assert
    await expect(guardedFetch(`http://127.0.0.1:${port}/hang`, {}, { ...DEV, timeoutMs: 300 })).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('keeps at most 64 KiB of the body', async () => {
    const response = await guardedFetch(`http://127.0.0.1:${port}/big`, {}, DEV);
    expect(response.bodyText).toHaveLength(64 * 1024);
    expect(response.bodyTruncated).toBe(true);
  });

  it('honours a caller abort signal as well', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('shutting down')), 50);
    await expect(guardedFetch(`http://127.0.0.1:${port}/hang`, { signal: controller.signal }, DEV)).rejects.toThrow();
  });

  it('still refuses the cloud metadata address', async () => {
    await expect(guardedFetch('http://169.254.169.254/latest/meta-data/', {}, DEV)).rejects.toBeInstanceOf(BlockedUrlError);
  });
});

describe('guardedFetch without allowPrivate (production)', () => {
  const PROD_HTTP = { allowPrivate: false, requireHttps: false, timeoutMs: 2_000 };

  it.each([
    [() => `http://127.0.0.1:${port}/ok`],
    [() => `http://localhost:${port}/ok`],
    [() => `http://[::ffff:127.0.0.1]:${port}/ok`],
    [() => `http://0x7f.1:${port}/ok`],
    [() => `http://2130706433:${port}/ok`],
  ])('refuses loopback before connecting (%#)', async (url) => {
    await expect(guardedFetch(url(), {}, PROD_HTTP)).rejects.toBeInstanceOf(BlockedUrlError);
    expect(seen).toEqual([]);
  });

  it('refuses a public-looking name that resolves to loopback (DNS rebinding) before connecting', async () => {
    await expect(
      guardedFetch(`http://rebind.example.com:${port}/ok`, {}, { ...PROD_HTTP, lookup: resolvingTo('127.0.0.1') }),
    ).rejects.toThrow('resolves to a blocked address (127.0.0.1 is a loopback address)');
    expect(seen).toEqual([]);
  });

  it('requires https by default', async () => {
    await expect(guardedFetch('http://example.com/', {}, { allowPrivate: false, timeoutMs: 1_000 })).rejects.toThrow('must use https');
  });
});

function openssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!openssl())('guardedFetch over https', () => {
  let tls: HttpsServer;
  let tlsPort: number;
  let dir: string;
  const serverNames: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'guarded-fetch-'));
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=receiver.test',
        '-addext',
        'subjectAltName=DNS:receiver.test',
      ],
      { stdio: 'ignore' },
    );
    const context = createSecureContext({ key: readFileSync(key), cert: readFileSync(cert) });
    tls = createTlsServer({ SNICallback: (name, done) => (serverNames.push(name), done(null, context)) }, (_, response) =>
      response.end('secret'),
    );
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    tlsPort = (tls.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => tls.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the name as SNI and verifies the certificate (a self-signed one is refused)', async () => {
    // Act
    const attempt = guardedFetch(
      `https://receiver.test:${tlsPort}/`,
      {},
      { allowPrivate: true, requireHttps: true, timeoutMs: 2_000, lookup: resolvingTo('127.0.0.1') },
    );

    // Assert
    await expect(attempt).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(serverNames).toEqual(['receiver.test']);
  });
});
