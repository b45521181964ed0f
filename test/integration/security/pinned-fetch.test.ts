import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pinnedFetch, RedirectRefusedError } from '../../../shared/security/pinned-fetch';
import { BlockedUrlError, type LookupAll } from '../../../shared/security/ssrf';

/**
 * pinnedFetch (the SDK-facing guarded fetch) against a real receiver on 127.0.0.1; the name
 * "llm.test" is resolved by an injected lookup, so the tests count resolutions.
 */

let server: Server;
let port: number;
const seen: { url: string; host: string | undefined; body: string; auth: string | undefined }[] = [];
/** Resolves the streaming route's second chunk once the client has read the first. */
let releaseSecond: () => void = () => undefined;

const routes: Record<string, (response: ServerResponse) => void> = {
  '/v1/ok': (response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
  '/v1/redirect': (response) => response.writeHead(307, { location: 'http://127.0.0.1:1/secret' }).end('SECRET-BODY'),
  '/v1/stream': (response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('data: first\n\n');
    releaseSecond = () => response.end('data: second\n\n');
  },
  '/v1/big': (response) => response.writeHead(200).end('x'.repeat(64 * 1024)),
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

const DEV = { allowPrivate: true, requireHttps: false };

beforeAll(async () => {
  server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    seen.push({ url: request.url ?? '', host: request.headers.host, body, auth: request.headers.authorization });
    (routes[request.url ?? ''] ?? ((r: ServerResponse) => r.writeHead(404).end()))(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('pinnedFetch', () => {
  it('resolves the name once, connects to that address, and keeps the Host header, method, headers and body', async () => {
    // Arrange
    const lookup = resolvingTo('127.0.0.1');
    const fetch = pinnedFetch({ policy: DEV, lookup });
    // Act
    const response = await fetch(`http://llm.test:${port}/v1/ok`, {
      method: 'POST',
      headers: { authorization: 'Bearer k' },
      body: '{"a":1}',
    });
    // Assert
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(lookup.calls).toBe(1);
    expect(seen.at(-1)).toEqual({ url: '/v1/ok', host: `llm.test:${port}`, body: '{"a":1}', auth: 'Bearer k' });
  });

  it('streams the body: the first event is readable before the server ends the response', async () => {
    // Arrange
    const fetch = pinnedFetch({ policy: DEV });
    const response = await fetch(`http://127.0.0.1:${port}/v1/stream`);
    const reader = response.body!.getReader();
    // Act
    const first = new TextDecoder().decode((await reader.read()).value);
    releaseSecond();
    let rest = '';
    for (let next = await reader.read(); !next.done; next = await reader.read()) rest += new TextDecoder().decode(next.value);
    // Assert
    expect(first).toBe('data: first\n\n');
    expect(rest).toBe('data: second\n\n');
  });

  it('refuses a redirect without following it or reading its body', async () => {
    // Arrange
    const fetch = pinnedFetch({ policy: DEV });
    const before = seen.length;
    // Act
    const error = await fetch(`http://127.0.0.1:${port}/v1/redirect`).catch((e: unknown) => e);
    // Assert
    expect(error).toBeInstanceOf(RedirectRefusedError);
    expect((error as Error).message).not.toContain('SECRET-BODY');
    expect(seen.length).toBe(before + 1);
  });

  it('refuses a name resolving to a blocked address without connecting', async () => {
    // Arrange
    const fetch = pinnedFetch({ policy: { allowPrivate: false, requireHttps: false }, lookup: resolvingTo('127.0.0.1') });
    const before = seen.length;
    // Act
    const error = await fetch(`http://llm.test:${port}/v1/ok`).catch((e: unknown) => e);
    // Assert
    expect(error).toBeInstanceOf(BlockedUrlError);
    expect(seen.length).toBe(before);
  });

  it('cuts a response that grows past its bound', async () => {
    // Arrange
    const fetch = pinnedFetch({ policy: DEV, maxResponseBytes: 1024 });
    // Act
    const response = await fetch(`http://127.0.0.1:${port}/v1/big`);
    const error = await response.text().catch((e: unknown) => e);
    // Assert
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).cause ?? error)).toMatch(/passed 1024 bytes/);
  });
});
