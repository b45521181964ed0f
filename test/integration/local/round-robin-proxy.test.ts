import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import twilio from 'twilio';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { startRoundRobinProxy, type RoundRobinProxy } from '../../../scripts/local/round-robin-proxy';
import { freePort } from '../../../scripts/local/stand-ins/dynamodb-local';

/**
 * The local load balancer in front of the call-engine processes: requests and stream upgrades take
 * turns, reach the target exactly as sent (a Twilio signature over the proxy's URL verifies there),
 * and a dead target (connection refused) is skipped.
 */

const AUTH_TOKEN = 'proxy-test-auth-token';

interface Target {
  name: string;
  port: number;
  /** The proxy URL to check signatures against (set once the proxy runs). */
  publicUrl: string;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
  });

/** A target that answers with its name and whether the Twilio signature verified over the public URL. */
async function startTarget(name: string): Promise<Target> {
  const target: Target = { name, port: 0, publicUrl: '', close: async () => undefined };
  const server: Server = createServer(async (req, res) => {
    const params = Object.fromEntries(new URLSearchParams(await readBody(req)));
    const signature = String(req.headers['x-twilio-signature'] ?? '');
    const verified = twilio.validateRequest(AUTH_TOKEN, signature, `${target.publicUrl}${req.url}`, params);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name, verified, url: req.url }));
  });
  const sockets = new WebSocketServer({ server });
  sockets.on('connection', (socket, req) => socket.send(JSON.stringify({ name, url: req.url })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target.port = (server.address() as AddressInfo).port;
  target.close = () =>
    new Promise<void>((resolve) => {
      for (const client of sockets.clients) client.terminate();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return target;
}

/** A signed carrier-style callback through the proxy; resolves with the target's answer. */
async function post(proxy: RoundRobinProxy, path: string) {
  const params = { CallSid: 'CA123', CallStatus: 'completed' };
  const signature = twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${proxy.url}${path}`, params);
  const response = await fetch(`${proxy.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
    body: new URLSearchParams(params),
  });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as { name: string; verified: boolean } };
}

/** Opens a stream through the proxy; resolves with the first message (the target's name). */
function openStream(proxy: RoundRobinProxy, path: string): Promise<{ name: string; url: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${proxy.url.replace('http', 'ws')}${path}`);
    socket.once('message', (data) => {
      resolve(JSON.parse(String(data)) as { name: string; url: string });
      socket.close();
    });
    socket.once('error', reject);
  });
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function setUp(targets: Target[], deadPorts: number[] = []) {
  const proxy = await startRoundRobinProxy([...deadPorts, ...targets.map((target) => target.port)]);
  for (const target of targets) target.publicUrl = proxy.url;
  cleanups.push(proxy.close, ...targets.map((target) => target.close));
  return proxy;
}

describe('the round-robin proxy', () => {
  it('alternates requests and streams between targets, passing path, query, headers and body through', async () => {
    // Arrange
    const proxy = await setUp([await startTarget('a'), await startTarget('b')]);
    // Act
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await post(proxy, `/twilio/status?call=${i}&attempt=1`));
    const streams = [await openStream(proxy, '/twilio/stream?x=1'), await openStream(proxy, '/twilio/stream?x=2')];
    // Assert
    expect(answers.map(({ body }) => body.name)).toEqual(['a', 'b', 'a', 'b']);
    expect(answers.every(({ status, body }) => status === 200 && body.verified)).toBe(true);
    expect(streams).toEqual([
      { name: 'a', url: '/twilio/stream?x=1' },
      { name: 'b', url: '/twilio/stream?x=2' },
    ]);
    expect(proxy.counts).toEqual([3, 3]);
  });

  it('spreads streams over the targets when each call makes one request then opens its stream', async () => {
    // Arrange
    const proxy = await setUp([await startTarget('a'), await startTarget('b')]);
    // Act: four calls, each its TwiML webhook then its stream
    const streams = [];
    for (let i = 0; i < 4; i++) {
      await post(proxy, '/twilio/voice');
      streams.push(await openStream(proxy, `/twilio/stream?call=${i}`));
    }
    // Assert: with one shared turn, every stream went to b
    expect(streams.map(({ name }) => name)).toEqual(['a', 'b', 'a', 'b']);
  });

  it('skips a target that refuses connections (a killed process): every request and stream reaches a live one', async () => {
    // Arrange: the first target's port has nothing listening
    const dead = await freePort();
    const proxy = await setUp([await startTarget('live')], [dead]);
    // Act
    const answers = [await post(proxy, '/twilio/voice'), await post(proxy, '/twilio/voice'), await post(proxy, '/twilio/voice')];
    const streams = [await openStream(proxy, '/twilio/stream'), await openStream(proxy, '/twilio/stream')];
    // Assert
    expect(answers.map(({ status, body }) => [status, body.name, body.verified])).toEqual([
      [200, 'live', true],
      [200, 'live', true],
      [200, 'live', true],
    ]);
    expect(streams.map(({ name }) => name)).toEqual(['live', 'live']);
    expect(proxy.counts).toEqual([0, 5]);
  });

  it('answers 502 when no target accepts, and serves a target added later', async () => {
    // Arrange
    const proxy = await setUp([], [await freePort()]);
    // Act
    const refused = await fetch(`${proxy.url}/twilio/voice`, { method: 'POST', body: 'x=1' });
    const target = await startTarget('late');
    target.publicUrl = proxy.url;
    cleanups.push(target.close);
    proxy.add(target.port);
    const served = await post(proxy, '/twilio/voice');
    // Assert
    expect(refused.status).toBe(502);
    expect(await refused.text()).toContain('No call engine');
    expect(served.body).toMatchObject({ name: 'late', verified: true });
  });
});
