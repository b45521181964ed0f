import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { SessionHandle } from '../../../../media-service/src/call/session-types';
import type { CallRecord } from '../../../../media-service/src/ports/call-records';
import { SessionRegistry } from '../../../../media-service/src/server/session-registry';
import { TaskAdmission } from '../../../../media-service/src/server/task-admission';
import { WEB_CALL_PATH, webCallUpgrade } from '../../../../media-service/src/server/web-call-upgrade';
import { mintWebCallToken } from '../../../../shared/auth/web-call-token';
import type { Business } from '../../../../shared/db/business-repository';
import { captureLogger } from '../../../support/capture-logger';

/**
 * The `/web/calls` upgrade's own bounds, over real sockets on loopback: the task's cap checked
 * again when a socket becomes a call, and the bound on sockets that have not sent `start`. The
 * platform's records are in memory here (every token redeems once; the calls' endings are kept).
 */

const servers: Server[] = [];
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A media server's upgrade path alone, with a task cap of `maxCalls` and at most `maxPending` sockets waiting for start. */
async function serve(options: { maxCalls: number; maxPending?: number; holdRedeems?: Promise<void> }) {
  const redeeming: number[] = [];
  const registry = new SessionRegistry();
  const admission = new TaskAdmission({ maxCalls: options.maxCalls, registry });
  const ended: { callId: number; reason: string }[] = [];
  const { log, messages } = captureLogger();
  const upgrade = webCallUpgrade({
    tokens: {
      redeem: async (businessId, callId) => {
        redeeming.push(callId);
        await options.holdRedeems;
        return { id: callId, business_id: businessId, assistant_id: 1, status: 'in_progress' } as unknown as CallRecord;
      },
      redeemListen: async () => undefined,
    },
    businesses: { getBusiness: (id) => Promise.resolve({ id } as unknown as Business) },
    assistants: { findAssistant: () => Promise.resolve(undefined) },
    admission: { minutes: { reserve: () => Promise.resolve(5) } },
    lifecycle: {
      markAnswered: () => Promise.resolve(undefined),
      markTransferred: () => Promise.resolve(),
      transferFailed: () => Promise.resolve(),
      end: (_business, callId, ending) => {
        ended.push({ callId, reason: ending.endedReason });
        return Promise.resolve(true);
      },
    },
    consoleOrigins: [],
    typedSpeech: { say: () => Promise.resolve({ refused: 'none here' }) },
    registry,
    startSession: ({ claims }): SessionHandle => ({
      callId: claims.callId,
      businessId: claims.businessId,
      onAmd: () => undefined,
      stop: () => undefined,
      done: new Promise(() => undefined),
    }),
    isDraining: () => false,
    hasRoom: () => admission.hasRoom(),
    nowMs: () => Date.now(),
    ...(options.maxPending !== undefined && { maxPending: options.maxPending }),
    log,
  });
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket, head) => (req.url === WEB_CALL_PATH ? upgrade(req, socket, head) : socket.destroy()));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}${WEB_CALL_PATH}`;
  return { url, registry, ended, redeeming, logged: messages };
}

/** A browser socket: its messages, and how its upgrade or the socket ended. */
function open(url: string) {
  const ws = new WebSocket(url);
  sockets.push(ws);
  const messages: { type: string; [field: string]: unknown }[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
  ws.on('error', () => undefined);
  const outcome = new Promise<{ opened: boolean; status?: number; close?: number }>((resolve) => {
    ws.once('open', () => resolve({ opened: true }));
    ws.once('unexpected-response', (_req, res) => resolve({ opened: false, status: res.statusCode }));
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  return { ws, messages, outcome, closed };
}

const until = (check: () => boolean) =>
  new Promise<void>((resolve) => {
    const poll = () => (check() ? resolve() : setImmediate(poll));
    poll();
  });

const token = (callId: number) => mintWebCallToken(callId, 7, randomBytes(32));

describe('webCallUpgrade', () => {
  it('checks the task cap again at admission: two sockets opened with room for one, both starting, make one call', async () => {
    let release = () => undefined as void;
    const s = await serve({ maxCalls: 1, holdRedeems: new Promise<void>((resolve) => (release = resolve)) });
    const a = open(s.url);
    const b = open(s.url);
    expect(await a.outcome).toEqual({ opened: true });
    expect(await b.outcome).toEqual({ opened: true });
    // Act: both past the first check (both tokens being redeemed), then both go on
    a.ws.send(JSON.stringify({ type: 'start', token: token(101) }));
    b.ws.send(JSON.stringify({ type: 'start', token: token(102) }));
    await until(() => s.redeeming.length === 2);
    release();
    const codes = await Promise.race([Promise.all([a.closed, b.closed]), Promise.any([a.closed, b.closed]).then((code) => [code])]);
    // Assert: one call runs, the other was refused at_capacity (1013) and its call ended failed
    expect(codes).toEqual([1013]);
    expect(s.registry.size).toBe(1);
    const refused = [a, b].find((socket) => socket.messages.some((m) => m.type === 'error'))!;
    expect(refused.messages).toEqual([expect.objectContaining({ type: 'error', code: 'at_capacity' })]);
    expect(s.ended).toHaveLength(1);
    expect(s.ended[0]!.reason).toBe('failed');
    expect([a, b].filter((socket) => socket.messages.some((m) => m.type === 'started'))).toHaveLength(1);
  });

  it('refuses a start at admission when the task filled up while the socket waited, before its token is spent', async () => {
    const s = await serve({ maxCalls: 1 });
    const idle = open(s.url);
    expect(await idle.outcome).toEqual({ opened: true });
    const first = open(s.url);
    await first.outcome;
    first.ws.send(JSON.stringify({ type: 'start', token: token(201) }));
    await new Promise<void>((resolve) => first.ws.on('message', () => resolve()));
    // Act: the socket opened while there was room starts now, at the cap
    idle.ws.send(JSON.stringify({ type: 'start', token: token(202) }));
    // Assert
    expect(await idle.closed).toBe(1013);
    expect(idle.messages).toEqual([expect.objectContaining({ type: 'error', code: 'at_capacity' })]);
    expect(s.registry.size).toBe(1);
    expect(s.ended).toEqual([]);
  });

  it('answers 503 to upgrades past the bound on sockets that have not sent start, and takes another once one starts', async () => {
    const s = await serve({ maxCalls: 10, maxPending: 2 });
    const a = open(s.url);
    const b = open(s.url);
    expect([await a.outcome, await b.outcome]).toEqual([{ opened: true }, { opened: true }]);
    // Act
    const c = open(s.url);
    // Assert
    expect(await c.outcome).toEqual({ opened: false, status: 503 });
    expect(s.logged()).toContain('web.upgrade.too_many_pending');
    // A socket that has sent start no longer waits: its place is free
    a.ws.send(JSON.stringify({ type: 'start', token: token(301) }));
    await new Promise<void>((resolve) => a.ws.on('message', () => resolve()));
    expect(await open(s.url).outcome).toEqual({ opened: true });
  });
});
