import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createAdminService } from '../../../functions/lib/deps';
import { startLocalStack, type LocalStack } from '../../../scripts/local/stack';
import type { CallRecord } from '../../../shared/db/call-record';
import { hashWebCallToken, mintWebCallToken } from '../../../shared/auth/web-call-token';
import { initialCallRecord } from '../../../shared/services/call-views';
import { CALL_HANG_MS, CALL_TEST_MS } from '../../support/call-limits';
import { QUIET } from '../../support/call-scenarios';
import { localStackInfra } from '../../support/local-stack-infra';
import { startCompletedWebhooks, type CompletedWebhooks } from '../../support/completed-webhooks';

/**
 * Web calls on the local stack as `npm run dev` runs it (`startLocalStack`: API, call engine,
 * sandbox providers, after-call pipeline): a browser's socket on `/web/calls` (played here by a
 * `ws` client that echoes marks as a player would), typed speech heard as a caller's words, the
 * call's events streamed back, and the call recorded as any call is, with `channel: "web"`. The
 * web call record is written as `POST /calls/web` writes it (its token hashed on the call item).
 */

interface Completed {
  id: number;
  channel: string;
  status: string;
  ended_reason: string;
  transcript: { role: string; text: string; interrupted?: boolean }[];
  recording_url: string | null;
}

type ServerMessage = { type: string; [field: string]: unknown };

let stack: LocalStack;
let receiver: CompletedWebhooks<Completed>;
/** The console's origin on this stack (the API's own, on its port). */
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

/** A business with a receptionist whose calls' webhooks reach the receiver (`mode`: standard or live). */
async function newBusiness(mode: 'standard' | 'live' = 'standard') {
  const admin = createAdminService(stack.core, 'test');
  const business = await admin.createBusiness(`Web ${randomUUID().slice(0, 8)}`, 100);
  const config = {
    mode,
    first_message: 'Hello, this is Acme.',
    advanced: { ...QUIET, max_duration_s: 60, server_url: receiver.url, server_events: ['call.completed'] },
  };
  const created = await fetch(`${stack.apiUrl}/assistants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${business.api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Front desk', template: 'receptionist', config }),
  });
  expect(created.status, await created.clone().text()).toBe(200);
  return { businessId: business.business_id, apiKey: business.api_key, assistantId: ((await created.json()) as { id: number }).id };
}

/**
 * A web call through the API (`POST /calls/web`), as a business's server asks for one. With
 * `expiresInMs` the call is written as the API writes it but with that expiry (the API always
 * gives 60 s, so an expired token cannot be asked of it).
 */
async function newWebCall(business: { businessId: number; apiKey: string; assistantId: number }, expiresInMs?: number) {
  if (expiresInMs === undefined) {
    const response = await fetch(`${stack.apiUrl}/calls/web`, {
      method: 'POST',
      headers: { authorization: `Bearer ${business.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ assistant_id: business.assistantId }),
    });
    const body = (await response.json()) as { call_id: number; url: string; token: string };
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.url).toBe(`${stack.media.mediaUrl.replace(/^http/, 'ws')}/web/calls`);
    return { id: body.call_id, token: body.token };
  }
  const id = await stack.core.ids.nextId();
  const token = mintWebCallToken(id, business.businessId, randomBytes(32));
  const record = {
    ...initialCallRecord({
      id,
      business_id: business.businessId,
      assistant_id: business.assistantId,
      direction: 'inbound',
      from_number: '',
      to_number: '',
      phone_number_id: null,
      variables: {},
      now: new Date().toISOString(),
    }),
    channel: 'web',
    web_token_hash: hashWebCallToken(token),
    web_token_expires_at: Date.now() + expiresInMs,
  } as CallRecord;
  await stack.core.callRepo.insertCall(record);
  return { id, token };
}

/** A browser's socket: every message kept, marks echoed at once (a player with nothing buffered). */
class Browser {
  readonly messages: ServerMessage[] = [];
  readonly closed: Promise<{ code: number }>;
  audioBytes = 0;
  readonly #ws: WebSocket;
  #waiters: { match: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }[] = [];

  constructor(token: string, origin?: string) {
    this.#ws = new WebSocket(`${stack.media.mediaUrl.replace(/^http/, 'ws')}/web/calls`, origin ? { headers: { origin } } : {});
    this.closed = new Promise((resolve) => this.#ws.on('close', (code) => resolve({ code })));
    this.#ws.on('open', () => this.#ws.send(JSON.stringify({ type: 'start', token })));
    this.#ws.on('message', (data, isBinary) => {
      if (isBinary) return void (this.audioBytes += (data as Buffer).length);
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

  /** The first message from index `from` on (received already, or to come) that matches. */
  next(match: (m: ServerMessage) => boolean, from = 0): Promise<ServerMessage> {
    const seen = this.messages.slice(from).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message; got ${JSON.stringify(this.messages)}`)), CALL_HANG_MS);
      this.#waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }
}

const isType = (type: string) => (m: ServerMessage) => m.type === type;
const said = (role: string, text?: string) => (m: ServerMessage) =>
  m.type === 'transcript' && m.role === role && (text === undefined || m.text === text);

describe.concurrent('web calls', () => {
  it('runs a whole call from a browser with typed speech, and records it as a web call', { timeout: CALL_TEST_MS }, async () => {
    // Arrange
    const business = await newBusiness();
    const call = await newWebCall(business);
    // Act: the call starts; the greeting comes first
    const browser = new Browser(call.token, CONSOLE);
    expect(await browser.next(isType('started'))).toEqual({
      type: 'started',
      call_id: call.id,
      sample_rate: 16_000,
      encoding: 'pcm_s16le',
    });
    const greeting = await browser.next(said('assistant'));
    expect(greeting.text).toBe('Hello, this is Acme.');
    const asked = browser.messages.length;
    browser.send({ type: 'say', text: 'Hi, what are your hours?' });
    await browser.next(said('caller', 'Hi, what are your hours?'), asked);
    const answer = await browser.next(said('assistant'), asked);
    const latency = await browser.next(isType('latency'), asked);
    browser.send({ type: 'hangup' });
    const ended = await browser.next(isType('ended'));
    const { code } = await browser.closed;
    const completed = await receiver.completed((c) => c.id === call.id);
    // Assert: the browser saw the conversation as it happened
    expect(answer.text).toEqual(expect.any(String));
    expect(latency).toMatchObject({ turn: 1, ms: expect.any(Number) });
    expect(browser.messages.filter(isType('state')).map((m) => m.state)).toEqual(
      expect.arrayContaining(['speaking', 'listening', 'thinking']),
    );
    expect(browser.audioBytes).toBeGreaterThan(16_000);
    expect(ended).toEqual({ type: 'ended', reason: 'caller_hung_up' });
    expect(code).toBe(1000);
    // Assert: recorded as any call, on the web channel, both sides in the transcript, with the recording and its metrics
    expect(completed).toMatchObject({ channel: 'web', status: 'ended', ended_reason: 'caller_hung_up' });
    expect(completed.transcript).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ role: 'assistant', text: 'Hello, this is Acme.' }),
        expect.objectContaining({ role: 'user', text: 'Hi, what are your hours?' }),
        expect.objectContaining({ role: 'assistant', text: answer.text }),
      ]),
    );
    expect(completed.recording_url).toEqual(expect.stringContaining('http'));
    const found = await stack.core.callRepo.findCall(business.businessId, call.id, Math.floor(Date.now() / 1000));
    expect(found?.call.carrier_call_sid).toMatch(/^WC[0-9a-f]{32}$/);
    expect((found?.detail.metrics as { turns: { latency_ms: number }[] }).turns[0]!.latency_ms).toBe(latency.ms);
  });

  it('hears typed speech in live mode too (the Realtime stand-in reads the same board)', { timeout: CALL_TEST_MS }, async () => {
    const call = await newWebCall(await newBusiness('live'));
    const browser = new Browser(call.token, CONSOLE);
    await browser.next(said('assistant'));
    const asked = browser.messages.length;
    // Act
    browser.send({ type: 'say', text: 'Hi, what are your hours?' });
    // Assert
    await browser.next(said('caller', 'Hi, what are your hours?'), asked);
    expect(await browser.next(said('assistant'), asked)).toMatchObject({ text: expect.any(String) });
    expect(await browser.next(isType('latency'), asked)).toMatchObject({ turn: 1 });
    browser.send({ type: 'hangup' });
    expect((await browser.closed).code).toBe(1000);
    expect(await receiver.completed((c) => c.id === call.id)).toMatchObject({ channel: 'web', status: 'ended' });
  });

  it('refuses a second use of a token, and an expired one', { timeout: CALL_TEST_MS }, async () => {
    const business = await newBusiness();
    const call = await newWebCall(business);
    const first = new Browser(call.token);
    await first.next(isType('started'));
    // Act
    const second = new Browser(call.token);
    const expired = new Browser((await newWebCall(business, -1)).token);
    // Assert
    expect(await second.next(isType('error'))).toMatchObject({ code: 'bad_token' });
    expect((await second.closed).code).toBe(1008);
    expect(await expired.next(isType('error'))).toMatchObject({ code: 'bad_token' });
    expect((await expired.closed).code).toBe(1008);
    first.send({ type: 'hangup' });
    await first.closed;
  });

  it("refuses a token whose business id was changed to another business's", { timeout: CALL_TEST_MS }, async () => {
    const [mine, theirs] = await Promise.all([newBusiness(), newBusiness()]);
    const call = await newWebCall(mine);
    const forged = call.token.replace(`.${mine.businessId}.`, `.${theirs.businessId}.`);
    // Act
    const browser = new Browser(forged);
    // Assert
    expect(await browser.next(isType('error'))).toMatchObject({ code: 'bad_token' });
    expect((await browser.closed).code).toBe(1008);
    // The real token still works: the forgery spent nothing.
    const real = new Browser(call.token);
    await real.next(isType('started'));
    real.send({ type: 'hangup' });
    await real.closed;
  });

  it(
    "checks the browser's origin: the business's web_origins and the console's pass, others are refused",
    { timeout: CALL_TEST_MS },
    async () => {
      const business = await newBusiness();
      // As a business sets them: PATCH /business (they are kept in its profile).
      const patched = await fetch(`${stack.apiUrl}/business`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${business.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ web_origins: ['https://shop.example.com/'] }),
      });
      expect(patched.status, await patched.clone().text()).toBe(200);
      // Act
      const stranger = new Browser((await newWebCall(business)).token, 'https://evil.example.com');
      const shop = new Browser((await newWebCall(business)).token, 'https://shop.example.com');
      const console = new Browser((await newWebCall(business)).token, CONSOLE);
      // Assert
      expect(await stranger.next(isType('error'))).toMatchObject({ code: 'origin_not_allowed' });
      expect((await stranger.closed).code).toBe(1008);
      for (const browser of [shop, console]) {
        await browser.next(isType('started'));
        browser.send({ type: 'hangup' });
        expect((await browser.closed).code).toBe(1000);
      }
    },
  );
});
