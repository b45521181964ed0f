import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TwilioSms } from '../../../media-service/src/adapters/twilio-sms';
import { SandboxCarrier } from '../../../media-service/src/sandbox/carrier';
import { ProviderError } from '../../../shared/errors';
import { silentLogger } from '../../../shared/log';
import { LoopbackRequestClient } from '../../support/twilio-loopback';

/**
 * The sandbox carrier's Messages, driven by the official `twilio` SDK (so the stand-in speaks what
 * Twilio's own client expects) and by our `TwilioSms` adapter; the adapter's retry rules against
 * a loopback server that answers what the test says.
 */

let carrier: SandboxCarrier;
let client: ReturnType<typeof twilio>;
let app: Server;
let appOrigin: string;
const callbacks: { params: Record<string, string>; valid: boolean }[] = [];
/** What the loopback server answers next (status, body), and how many requests it saw. */
const scripted = { answers: [] as { status: number; body: unknown }[], seen: 0 };

beforeAll(async () => {
  carrier = await SandboxCarrier.start({ log: silentLogger });
  client = twilio(carrier.accountSid, carrier.authToken, { httpClient: new LoopbackRequestClient(carrier.baseUrl) });
  app = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/sms-status') {
        const params = Object.fromEntries(new URLSearchParams(body));
        const signature = String(req.headers['x-twilio-signature'] ?? '');
        callbacks.push({ params, valid: twilio.validateRequest(carrier.authToken, signature, `${appOrigin}/sms-status`, params) });
        return void res.writeHead(200).end();
      }
      scripted.seen++;
      const answer = scripted.answers.shift() ?? { status: 201, body: { sid: 'SMffffffffffffffffffffffffffffffff', status: 'queued' } };
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await carrier?.close();
  await new Promise<void>((resolve) => app.close(() => resolve()));
});

const FROM = '+15550100001';
const to = () => `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;

describe('sandbox carrier Messages, with the official twilio SDK', () => {
  it('creates a text: 201 with Twilio’s fields (SM sid, RFC 2822 dates the SDK parses, segments), kept on the carrier', async () => {
    // Arrange
    const number = to();
    // Act
    const message = await client.messages.create({ to: number, from: FROM, body: 'Your booking is at 3pm.' });
    // Assert
    expect(message.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(message).toMatchObject({
      accountSid: carrier.accountSid,
      to: number,
      from: FROM,
      body: 'Your booking is at 3pm.',
      status: 'queued',
      direction: 'outbound-api',
      numSegments: '1',
      numMedia: '0',
      errorCode: null,
      apiVersion: '2010-04-01',
    });
    expect(message.dateCreated).toBeInstanceOf(Date);
    expect(Number.isNaN(message.dateCreated.getTime())).toBe(false);
    expect(carrier.messages({ to: number })).toEqual([expect.objectContaining({ sid: message.sid, body: 'Your booking is at 3pm.' })]);
    const fetched = await client.messages(message.sid).fetch();
    expect(fetched.status).toBe('delivered');
  });

  it.each([
    ['160 GSM-7 characters: one segment', 'a'.repeat(160), '1'],
    ['161 GSM-7 characters: two segments of 153', 'a'.repeat(161), '2'],
    ['extension characters count twice: 80 € is 160 septets', '€'.repeat(80), '1'],
    ['one character outside GSM-7 makes it UCS-2: 71 code units, two segments', `${'a'.repeat(70)}ú`, '2'],
  ])('%s', async (_, body, segments) => {
    const message = await client.messages.create({ to: to(), from: FROM, body });
    expect(message.numSegments).toBe(segments);
  });

  it.each([
    ['a body over 1,600 characters', { body: 'x'.repeat(1601), from: FROM }, 21617],
    ['no body', { from: FROM }, 21602],
    ['no From', { body: 'hi' }, 21603],
    ['a To that is not E.164', { body: 'hi', from: FROM, to: '555-0100' }, 21211],
  ])('refuses %s with Twilio’s code (RestException)', async (_, params, code) => {
    const sent = client.messages.create({ to: to(), ...params } as Parameters<typeof client.messages.create>[0]);
    await expect(sent).rejects.toMatchObject({ status: 400, code });
  });

  it('answers a body over 64 KiB with a Twilio-shaped 413, not a 500', async () => {
    const auth = `Basic ${Buffer.from(`${carrier.accountSid}:${carrier.authToken}`).toString('base64')}`;
    const response = await fetch(`${carrier.baseUrl}/2010-04-01/Accounts/${carrier.accountSid}/Messages.json`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: `To=%2B14155550100&From=%2B15550100001&Body=${'x'.repeat(70_000)}`,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 20413, status: 413 });
  });

  it('answers 401 code 20003 to the wrong credentials', async () => {
    const stranger = twilio(carrier.accountSid, 'wrong-token', { httpClient: new LoopbackRequestClient(carrier.baseUrl) });
    await expect(stranger.messages.create({ to: to(), from: FROM, body: 'hi' })).rejects.toMatchObject({ status: 401, code: 20003 });
  });

  it('posts signed status callbacks, sent then delivered, to StatusCallback', async () => {
    // Arrange
    callbacks.length = 0;
    // Act
    const message = await client.messages.create({ to: to(), from: FROM, body: 'hi', statusCallback: `${appOrigin}/sms-status` });
    await expect.poll(() => callbacks.length).toBe(2);
    // Assert
    expect(callbacks.map((c) => [c.params.MessageSid, c.params.MessageStatus, c.valid])).toEqual([
      [message.sid, 'sent', true],
      [message.sid, 'delivered', true],
    ]);
  });

  it('lists texts on GET /sandbox/messages?to= (Basic auth), oldest first', async () => {
    // Arrange
    const number = to();
    await client.messages.create({ to: number, from: FROM, body: 'first' });
    await client.messages.create({ to: number, from: FROM, body: 'second' });
    const auth = `Basic ${Buffer.from(`${carrier.accountSid}:${carrier.authToken}`).toString('base64')}`;
    // Act
    const listed = await fetch(`${carrier.baseUrl}/sandbox/messages?to=${encodeURIComponent(number)}`, {
      headers: { authorization: auth },
    });
    const anonymous = await fetch(`${carrier.baseUrl}/sandbox/messages`);
    // Assert
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { messages: { body: string; to: string; status: string }[] };
    expect(body.messages.map((m) => [m.to, m.body, m.status])).toEqual([
      [number, 'first', 'delivered'],
      [number, 'second', 'delivered'],
    ]);
    expect(anonymous.status).toBe(401);
  });
});

describe('TwilioSms', () => {
  const sms = (baseUrl: string) =>
    new TwilioSms({ accountSid: carrier.accountSid, authToken: carrier.authToken, baseUrl, retryDelayMs: 1 });
  const signal = () => AbortSignal.timeout(5000);

  it('texts through the sandbox carrier: the message id and status back, the text on the carrier', async () => {
    const number = to();
    const sent = await sms(carrier.baseUrl).send({ from: FROM, to: number, body: 'See you at 3pm.' }, signal());
    expect(sent).toEqual({ id: expect.stringMatching(/^SM[0-9a-f]{32}$/), status: 'queued' });
    expect(carrier.messages({ to: number })).toEqual([expect.objectContaining({ sid: sent.id, from: FROM, body: 'See you at 3pm.' })]);
  });

  it('a refusal is a ProviderError with the status, not retryable, and carries no body text', async () => {
    const error = await sms(carrier.baseUrl)
      .send({ from: FROM, to: 'not-a-number', body: 'secret words' }, signal())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ statusCode: 400, retryable: false });
    expect((error as Error).message).toContain('21211');
    expect((error as Error).message).not.toContain('secret words');
  });

  it('retries once after a 429 (nothing was accepted), then answers', async () => {
    scripted.seen = 0;
    scripted.answers.push({ status: 429, body: { code: 20429, message: 'Too Many Requests', status: 429 } });
    const sent = await sms(appOrigin).send({ from: FROM, to: to(), body: 'hi' }, signal());
    expect(sent.id).toBe('SMffffffffffffffffffffffffffffffff');
    expect(scripted.seen).toBe(2);
  });

  it('does not retry a 500 (the text may have been accepted)', async () => {
    scripted.seen = 0;
    scripted.answers.push({ status: 500, body: { code: 20500, message: 'Internal Server Error', status: 500 } });
    await expect(sms(appOrigin).send({ from: FROM, to: to(), body: 'hi' }, signal())).rejects.toMatchObject({ statusCode: 500 });
    expect(scripted.seen).toBe(1);
  });

  it('a carrier that cannot be reached is a retryable ProviderError without a status', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await sms(`http://127.0.0.1:${port}`)
      .send({ from: FROM, to: to(), body: 'hi' }, signal())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ statusCode: undefined, retryable: true });
  });
});
