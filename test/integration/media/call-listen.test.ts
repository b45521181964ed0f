import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createAdminService } from '../../../functions/lib/deps';
import { scenario, step } from '../../../media-service/src/sandbox/scenario-script';
import { startLocalStack, type LocalStack } from '../../../scripts/local/stack';
import { CALL_HANG_MS, CALL_TEST_MS } from '../../support/call-limits';
import { uniqueNumber } from '../../support/api-harness';
import { QUIET, waitForAssistant } from '../../support/call-scenarios';
import { localStackInfra } from '../../support/local-stack-infra';
import { startCompletedWebhooks, type CompletedWebhooks } from '../../support/completed-webhooks';

/**
 * Listening to live calls and ending them, on the local stack as `npm run dev` runs it: a phone call
 * from the sandbox carrier is listened to over `/web/listen` (both sides' audio, the live
 * transcript) and ended through `POST /calls/{id}/end`; a web call is ended the same way. The time
 * from the request to the `ended` message is measured and bounded (the issue asks for about 2 s).
 */

interface Completed {
  id: number;
  channel: string;
  status: string;
  ended_reason: string;
}

type ServerMessage = { type: string; [field: string]: unknown };

/** The end must reach the listener within this: the engine checks every second, the hang-up takes about 200 ms, and a loaded machine runs late. */
const END_WITHIN_MS = 3000;

let stack: LocalStack;
let receiver: CompletedWebhooks<Completed>;
let CONSOLE: string;

beforeAll(async () => {
  receiver = await startCompletedWebhooks<Completed>();
  stack = await startLocalStack({ apiPort: 0, mediaPort: 0, mediaTasks: 1, infra: await localStackInfra() });
  CONSOLE = stack.consoleOrigins[0]!;
}, CALL_TEST_MS);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

async function newBusiness() {
  const admin = createAdminService(stack.core, 'test');
  const business = await admin.createBusiness(`Listen ${randomUUID().slice(0, 8)}`, 100);
  const config = {
    first_message: 'Hello, this is Acme.',
    advanced: { ...QUIET, max_duration_s: 120, server_url: receiver.url, server_events: ['call.completed'] },
  };
  const created = await api(business.api_key, 'POST', '/assistants', { name: 'Front desk', template: 'receptionist', config });
  expect(created.status).toBe(200);
  const assistantId = (created.body as { id: number }).id;
  const number = uniqueNumber();
  await admin.addNumber(business.business_id, { number, provider: 'sandbox', assistantId, label: 'main' });
  return { businessId: business.business_id, apiKey: business.api_key, assistantId, number };
}

async function api(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

/** The business's one call once it is in progress (an inbound call's id is the engine's to give). */
async function liveCall(key: string): Promise<number> {
  const deadline = Date.now() + CALL_HANG_MS;
  while (Date.now() < deadline) {
    const page = (await api(key, 'GET', '/calls')).body as { data: { id: number; status: string }[] };
    const call = page.data.find((c) => c.status === 'in_progress');
    if (call) return call.id;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no call in progress');
}

/** A socket on `path` that sends `start` with `token` and keeps every message, binary frames counted. */
class Socket {
  readonly messages: ServerMessage[] = [];
  readonly closed: Promise<{ code: number }>;
  audioBytes = 0;
  /** Largest absolute sample seen in the audio (it must not be silence). */
  peak = 0;
  readonly #ws: WebSocket;
  #waiters: { match: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }[] = [];

  constructor(url: string, token: string, origin?: string) {
    this.#ws = new WebSocket(url, origin ? { headers: { origin } } : {});
    this.closed = new Promise((resolve) => this.#ws.on('close', (code) => resolve({ code })));
    this.#ws.on('open', () => this.#ws.send(JSON.stringify({ type: 'start', token })));
    this.#ws.on('message', (data, isBinary) => {
      if (isBinary) return this.#audio(data as Buffer);
      const message = JSON.parse(data.toString()) as ServerMessage;
      this.messages.push(message);
      if (message.type === 'mark') this.send({ type: 'mark', name: message.name });
      for (const waiter of this.#waiters.filter((w) => w.match(message))) waiter.resolve(message);
      this.#waiters = this.#waiters.filter((w) => !w.match(message));
    });
  }

  send(message: Record<string, unknown>): void {
    if (this.#ws.readyState === WebSocket.OPEN) this.#ws.send(JSON.stringify(message));
  }

  next(match: (m: ServerMessage) => boolean, from = 0): Promise<ServerMessage> {
    const seen = this.messages.slice(from).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message; got ${JSON.stringify(this.messages)}`)), CALL_HANG_MS);
      this.#waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }

  #audio(frame: Buffer): void {
    this.audioBytes += frame.length;
    for (let i = 0; i + 1 < frame.length; i += 2) this.peak = Math.max(this.peak, Math.abs(frame.readInt16LE(i)));
  }
}

const isType = (type: string) => (m: ServerMessage) => m.type === type;
const said = (role: string, text?: string) => (m: ServerMessage) =>
  m.type === 'transcript' && m.role === role && (text === undefined || m.text === text);

describe.concurrent('listening to a live call, and ending it', () => {
  it(
    'streams a phone call to a listener, both sides and the transcript, and ends it canceled fast',
    { timeout: CALL_TEST_MS },
    async () => {
      // Arrange: a caller who talks, then waits on the line
      const business = await newBusiness();
      stack.media.carrier.startInboundCall({
        from: uniqueNumber(),
        to: business.number,
        voiceUrl: `${stack.media.mediaUrl}/twilio/voice`,
        scenario: scenario('caller', [
          waitForAssistant(),
          step.say('Hi, are you open on Saturday mornings?'),
          waitForAssistant(),
          step.silence(),
        ]),
      });
      const callId = await liveCall(business.apiKey);
      // Act: listen
      const grant = await api(business.apiKey, 'POST', `/calls/${callId}/listen`);
      expect(grant.status, JSON.stringify(grant.body)).toBe(200);
      const { url, token } = grant.body as { url: string; token: string };
      expect(url).toBe(`${stack.media.mediaUrl.replace(/^http/, 'ws')}/web/listen`);
      const listener = new Socket(url, token, CONSOLE);
      expect(await listener.next(isType('started'))).toMatchObject({ type: 'started', call_id: callId, sample_rate: 16_000 });
      listener.send({ type: 'hangup' }); // ignored: a listener is read-only
      const question = await listener.next(said('caller', 'Hi, are you open on Saturday mornings?'));
      const answer = await listener.next(said('assistant'), listener.messages.indexOf(question));
      // Act: end it
      const asked = performance.now();
      const end = await api(business.apiKey, 'POST', `/calls/${callId}/end`);
      const ended = await listener.next(isType('ended'));
      const endMs = performance.now() - asked;
      const { code } = await listener.closed;
      const completed = await receiver.completed((c) => c.id === callId);
      // Assert: audio of both sides and the transcript arrived while it ran
      expect(answer.text).toEqual(expect.any(String));
      expect(listener.audioBytes).toBeGreaterThan(32_000 * 2); // more than 2 s of 16 kHz PCM16
      expect(listener.peak).toBeGreaterThan(1000);
      expect(listener.messages.filter(isType('state')).map((m) => m.state)).toEqual(expect.arrayContaining(['thinking', 'speaking']));
      expect(listener.messages.some(isType('error'))).toBe(false);
      // Assert: ended canceled, fast
      expect(end).toEqual({ status: 202, body: { id: callId, status: 'in_progress' } });
      expect(ended).toEqual({ type: 'ended', reason: 'canceled' });
      expect(code).toBe(1000);
      console.info(`phone call: POST /end → ended at the listener in ${Math.round(endMs)} ms`);
      expect(endMs).toBeLessThan(END_WITHIN_MS);
      expect(completed).toMatchObject({ channel: 'phone', status: 'ended', ended_reason: 'canceled' });
      const carrierCall = stack.media.carrier.calls().find((c) => c.to === business.number);
      expect(carrierCall?.status).toBe('completed');
      // Assert: the token was single use
      const again = new Socket(url, token);
      expect(await again.next(isType('error'))).toMatchObject({ code: expect.stringMatching(/^(bad_token|not_here)$/) });
    },
  );

  it('ends a web call canceled through POST /calls/{id}/end, fast', { timeout: CALL_TEST_MS }, async () => {
    // Arrange
    const business = await newBusiness();
    const created = await api(business.apiKey, 'POST', '/calls/web', { assistant_id: business.assistantId });
    const { call_id: callId, url, token } = created.body as { call_id: number; url: string; token: string };
    const browser = new Socket(url, token, CONSOLE);
    await browser.next(said('assistant'));
    // Act
    const asked = performance.now();
    const end = await api(business.apiKey, 'POST', `/calls/${callId}/end`);
    const ended = await browser.next(isType('ended'));
    const endMs = performance.now() - asked;
    // Assert
    expect(end.status).toBe(202);
    expect(ended).toEqual({ type: 'ended', reason: 'canceled' });
    expect((await browser.closed).code).toBe(1000);
    console.info(`web call: POST /end → ended in the browser in ${Math.round(endMs)} ms`);
    expect(endMs).toBeLessThan(END_WITHIN_MS);
    expect(await receiver.completed((c) => c.id === callId)).toMatchObject({ channel: 'web', ended_reason: 'canceled' });
    expect((await api(business.apiKey, 'POST', `/calls/${callId}/end`)).status).toBe(409);
    expect((await api(business.apiKey, 'POST', `/calls/${callId}/listen`)).body).toMatchObject({ code: 'call_not_live' });
  });

  it('refuses not_here (1013) when no session here holds the call, without spending the token', { timeout: CALL_TEST_MS }, async () => {
    // Arrange: a call in progress that this task does not run (as when another task holds it)
    const business = await newBusiness();
    const created = await api(business.apiKey, 'POST', '/calls/web', { assistant_id: business.assistantId });
    const { call_id: callId, url } = created.body as { call_id: number; url: string };
    await stack.core.callRepo.markAnswered(business.businessId, callId, new Date().toISOString());
    const grant = (await api(business.apiKey, 'POST', `/calls/${callId}/listen`)).body as { url: string; token: string };
    expect(grant.url).toBe(url.replace('/web/calls', '/web/listen'));
    // Act
    const listener = new Socket(grant.url, grant.token, CONSOLE);
    // Assert
    expect(await listener.next(isType('error'))).toMatchObject({ code: 'not_here' });
    expect((await listener.closed).code).toBe(1013);
    const item = await stack.core.callRepo.getCallRecord(business.businessId, callId);
    expect(item).toHaveProperty('listen_token_hash');
  });

  it('refuses a listener from an origin the business does not allow, and a token of another kind', { timeout: CALL_TEST_MS }, async () => {
    // Arrange
    const business = await newBusiness();
    const created = await api(business.apiKey, 'POST', '/calls/web', { assistant_id: business.assistantId });
    const { call_id: callId, url, token } = created.body as { call_id: number; url: string; token: string };
    const browser = new Socket(url, token, CONSOLE);
    // The call is in progress once the assistant speaks (`started` comes before it is marked answered).
    await browser.next(isType('state'));
    const listenUrl = url.replace('/web/calls', '/web/listen');
    const listen = await api(business.apiKey, 'POST', `/calls/${callId}/listen`);
    expect(listen.status, JSON.stringify(listen.body)).toBe(200);
    const grant = listen.body as { token: string };
    // Act
    const stranger = new Socket(listenUrl, grant.token, 'https://evil.example.com');
    const strangerError = await stranger.next(isType('error'));
    const webToken = new Socket(listenUrl, token);
    // Assert
    expect(strangerError).toMatchObject({ code: 'origin_not_allowed' });
    expect((await stranger.closed).code).toBe(1008);
    expect(await webToken.next(isType('error'))).toMatchObject({ code: 'bad_token' });
    // The refused listener spent nothing: the token still works.
    const listener = new Socket(listenUrl, grant.token, CONSOLE);
    await listener.next(isType('started'));
    browser.send({ type: 'hangup' });
    expect(await listener.next(isType('ended'))).toEqual({ type: 'ended', reason: 'caller_hung_up' });
  });
});
