import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateWebhookSecret } from '../../../shared/webhooks/secret';
import { sendWebhook, type SendWebhookInput } from '../../../shared/webhooks/send';

/**
 * One signed delivery attempt against a scripted loopback receiver: the receiver
 * verifies every request with the standardwebhooks reference library on the raw body, as a
 * customer's server would, and answers with the behaviour the test scripted.
 */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  verified: unknown;
}

let server: Server;
let port: number;
let received: Received[] = [];
let script: ((response: ServerResponse) => void)[] = [];

const current = generateWebhookSecret();
const rotatedOut = generateWebhookSecret();
const payload = {
  type: 'call.completed',
  timestamp: '2026-11-22T09:21:23.123Z',
  data: { id: 99, outcome: 'resolved', summary: 'Naïve café ✓' },
};

function verify(body: string, headers: IncomingHttpHeaders, secret: string): unknown {
  try {
    return new Webhook(secret).verify(body, headers as Record<string, string>);
  } catch (error) {
    return `rejected: ${(error as Error).message}`;
  }
}

function attempt(overrides: Partial<SendWebhookInput> = {}) {
  return sendWebhook({
    url: `http://127.0.0.1:${port}/hooks`,
    payload,
    webhookId: 'msg_99_completed',
    secrets: [current],
    now: () => new Date(),
    allowPrivate: true,
    ...overrides,
  });
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    received.push({ headers: request.headers, body, verified: verify(body, request.headers, current) });
    (script.shift() ?? ((r: ServerResponse) => r.writeHead(204).end()))(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received = [];
  script = [];
});

describe('sendWebhook against a loopback receiver', () => {
  it('delivers a request the receiver verifies with the reference library', async () => {
    // Act
    const result = await attempt();

    // Assert
    expect(result).toMatchObject({ status: 204, outcome: 'delivered', error: null });
    expect(received).toHaveLength(1);
    expect(received[0]!.verified).toEqual(payload);
    expect(received[0]!.headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': 'msg_99_completed' });
  });

  it('keeps the webhook-id across a failed attempt and its retry', async () => {
    // Arrange
    script = [(r) => r.writeHead(503, { 'retry-after': '30' }).end('busy'), (r) => r.writeHead(200).end()];

    // Act
    const first = await attempt();
    const second = await attempt();

    // Assert
    expect(first).toMatchObject({ status: 503, outcome: 'retry', retry_after_s: 30 });
    expect(second).toMatchObject({ status: 200, outcome: 'delivered' });
    expect(received.map((r) => r.headers['webhook-id'])).toEqual(['msg_99_completed', 'msg_99_completed']);
    expect(received.every((r) => typeof r.verified === 'object')).toBe(true);
  });

  it('signs with both secrets during rotation: a receiver holding either verifies', async () => {
    // Act
    await attempt({ secrets: [current, rotatedOut] });

    // Assert
    const { body: raw, headers } = received[0]!;
    expect(String(headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(raw, headers, current)).toEqual(payload);
    expect(verify(raw, headers, rotatedOut)).toEqual(payload);
  });

  it('does not follow a redirect', async () => {
    script = [(r) => r.writeHead(301, { location: `http://127.0.0.1:${port}/elsewhere` }).end()];
    const result = await attempt();
    expect(result).toMatchObject({ status: 301, outcome: 'retry' });
    expect(received).toHaveLength(1);
  });

  it('gives up on 410 Gone', async () => {
    script = [(r) => r.writeHead(410).end()];
    expect(await attempt()).toMatchObject({ status: 410, outcome: 'give_up' });
  });

  it('records a timeout when the receiver never answers', async () => {
    script = [() => undefined];
    const result = await attempt({ timeoutMs: 300 });
    expect(result).toMatchObject({ status: null, outcome: 'retry', error: 'timeout after 300 ms' });
  });

  it('records a refused connection as a network error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await attempt({ url: `http://127.0.0.1:${closedPort}/` })).toMatchObject({
      status: null,
      outcome: 'retry',
      error: 'network: ECONNREFUSED',
    });
  });

  it('refuses a loopback receiver in production settings without sending anything', async () => {
    const result = await attempt({ allowPrivate: false, requireHttps: false });
    expect(result).toMatchObject({
      status: null,
      outcome: 'give_up',
      error: expect.stringContaining('blocked: 127.0.0.1 is a loopback address'),
    });
    expect(received).toEqual([]);
  });
});
