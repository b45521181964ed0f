import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { TwilioMediaStream } from '../../../media-service/src/adapters/twilio-media-stream';
import { SANDBOX_DEFAULT_CALLER, SandboxCarrier } from '../../../media-service/src/sandbox/carrier';
import { silentLogger } from '../../../shared/log';

/**
 * The sandbox carrier's developer routes over loopback: `POST /sandbox/inbound-calls` rings the
 * configured voice webhook (a test server answering TwiML), `GET /sandbox/calls/{sid}` returns the
 * record. Network progress uses tiny `timing` values; the test waits on conditions, never durations.
 */

const STREAM_NUMBER = '+15550100002';
const TIMING = { dialMs: 5, answerMs: 5, busyMs: 5, maxRingMs: 30, amdHumanMs: 10, transferTalkMs: 10, sayMsPerChar: 1 };

let carrier: SandboxCarrier;
let app: Server;
const voiceHooks: Record<string, string>[] = [];
const legs: { transport: TwilioMediaStream; started: boolean }[] = [];

beforeAll(async () => {
  // Calls to STREAM_NUMBER connect a media stream to this server; every other call hears <Say> and ends.
  app = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const params = Object.fromEntries(new URLSearchParams(body));
      voiceHooks.push(params);
      const twiml =
        params.To === STREAM_NUMBER
          ? `<Response><Connect><Stream url="ws://127.0.0.1:${port()}/media"/></Connect></Response>`
          : '<Response><Say>Hello from the test</Say><Hangup/></Response>';
      res.writeHead(200, { 'content-type': 'text/xml' }).end(twiml);
    });
  });
  new WebSocketServer({ server: app }).on('connection', (ws) => {
    const leg = { transport: new TwilioMediaStream(ws, { log: silentLogger }), started: false };
    leg.transport.on((event) => void (event.type === 'start' && (leg.started = true)));
    legs.push(leg);
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  carrier = await SandboxCarrier.start({ voiceUrl: `http://127.0.0.1:${port()}/voice`, timing: TIMING, log: silentLogger });
});

afterAll(async () => {
  await carrier.close();
  app.closeAllConnections();
  await new Promise<void>((resolve) => app.close(() => resolve()));
});

const port = () => (app.address() as AddressInfo).port;
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

async function send(
  method: 'GET' | 'POST',
  path: string,
  body?: string,
  auth = basic(carrier.accountSid, carrier.authToken),
  on = carrier,
) {
  const response = await fetch(`${on.baseUrl}${path}`, {
    method,
    headers: { authorization: auth, 'content-type': 'application/json' },
    ...(body !== undefined && { body }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const startCall = (body: Record<string, unknown>) => send('POST', '/sandbox/inbound-calls', JSON.stringify(body));

describe('POST /sandbox/inbound-calls and GET /sandbox/calls/{sid}', () => {
  it.each([
    ['POST', '/sandbox/inbound-calls', 'no credentials', ''],
    ['POST', '/sandbox/inbound-calls', 'a wrong token', basic('AC00000000000000000000000000000000', 'wrong')],
    ['GET', '/sandbox/calls/CA00000000000000000000000000000000', 'no credentials', ''],
  ] as const)('%s %s with %s is a Twilio 401', async (method, path, _label, auth) => {
    // Act
    const answer = await send(method, path, method === 'POST' ? '{"to":"+15550100001"}' : undefined, auth);
    // Assert
    expect(answer).toEqual({
      status: 401,
      body: { code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 },
    });
    expect(carrier.calls()).toHaveLength(0);
  });

  it.each([
    ['not JSON', 'to=+15550100001', 21200, /not valid JSON/],
    ['a JSON array', '[]', 21200, /JSON object/],
    ['no to', '{}', 21201, /No 'to' number/],
    ['a non-E.164 to', '{"to":"555-0100"}', 21211, /Invalid 'to'/],
    ['a number as to', '{"to":15550100001}', 21211, /Invalid 'to'/],
    ['a bad from', '{"to":"+15550100001","from":"anonymous"}', 21212, /Invalid 'from'/],
    ['an unknown scenario', '{"to":"+15550100001","scenario":"dance"}', 21200, /default, voicemail, interrupter, silent, keypad/],
    ['an unknown field', '{"to":"+15550100001","voiceUrl":"http://elsewhere"}', 21200, /Unknown parameter 'voiceUrl'/],
  ])('refuses %s with a Twilio-shaped 400', async (_label, body, code, message) => {
    // Act
    const answer = await send('POST', '/sandbox/inbound-calls', body);
    // Assert
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code, status: 400, more_info: `https://www.twilio.com/docs/errors/${code}` });
    expect(answer.body.message).toMatch(message);
    expect(carrier.calls()).toHaveLength(0);
  });

  it('rings the configured voice webhook and shows the finished call with GET', async () => {
    // Act
    const started = await startCall({ to: '+15550100001', scenario: 'voicemail' });
    const callSid = started.body.call_sid as string;
    await carrier.whenEnded(callSid);
    const record = await send('GET', `/sandbox/calls/${callSid}`);
    // Assert
    expect(started).toEqual({ status: 201, body: { call_sid: expect.stringMatching(/^CA[0-9a-f]{32}$/) } });
    expect(voiceHooks.find((hook) => hook.CallSid === callSid)).toMatchObject({
      To: '+15550100001',
      From: SANDBOX_DEFAULT_CALLER,
      Direction: 'inbound',
      CallStatus: 'ringing',
    });
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({
      sid: callSid,
      direction: 'inbound',
      to: '+15550100001',
      from: SANDBOX_DEFAULT_CALLER,
      scenario: 'voicemail',
      status: 'completed',
      endedBy: 'twiml',
      said: ['Hello from the test'],
      streams: [],
    });
    expect(record.body.statusHistory.map((entry: { status: string }) => entry.status)).toContain('completed');
    expect(record.body.callbacks[0]).toMatchObject({ kind: 'voice', url: `http://127.0.0.1:${port()}/voice`, httpStatus: 200 });
  });

  it('shows a live stream’s marks and clears with audio reduced to a byte count', async () => {
    // Arrange
    const started = await startCall({ to: STREAM_NUMBER, from: '+14155550199', scenario: 'silent' });
    const callSid = started.body.call_sid as string;
    const leg = await until(() => legs.find((candidate) => candidate.started)?.transport);
    // Act: half a second of assistant audio, a mark, then a barge-in clear
    for (let frame = 0; frame < 25; frame++) leg.sendAudio(new Uint8Array(160).fill(0x10));
    leg.sendMark('greeting:1');
    leg.clear();
    await carrier.waitFor(callSid, (call) => call.streams[0]!.marksEchoed.length === 1 && call.streams[0]!.clears.length === 1);
    const record = await send('GET', `/sandbox/calls/${callSid}`);
    carrier.hangup(callSid);
    // Assert
    const stream = record.body.streams[0];
    expect(record.body).toMatchObject({ from: '+14155550199', scenario: 'silent', callee: { scenario: 'silent', said: [] } });
    expect(stream).toMatchObject({
      audioBytes: 4000,
      mediaMessages: 25,
      marksEchoed: [{ name: 'greeting:1', afterClear: true }],
      clears: [{ droppedBytes: expect.any(Number) }],
    });
    expect(stream).not.toHaveProperty('audioChunks');
    expect(stream.received.map((event: { event: string }) => event.event)).toEqual(['mark', 'clear']);
  });

  it('answers 404 for an unknown call', async () => {
    // Act
    const answer = await send('GET', '/sandbox/calls/CA0123456789abcdef0123456789abcdef');
    // Assert
    expect(answer).toEqual({ status: 404, body: expect.objectContaining({ code: 20404, status: 404 }) });
  });

  it('refuses to start a call when the carrier has no voice webhook', async () => {
    // Arrange
    const bare = await SandboxCarrier.start({ timing: TIMING, log: silentLogger });
    // Act
    const answer = await send(
      'POST',
      '/sandbox/inbound-calls',
      '{"to":"+15550100001"}',
      basic(bare.accountSid, bare.authToken),
      bare,
    ).finally(() => bare.close());
    // Assert
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/no voice webhook/);
  });
});

/** Resolves once `probe` returns a value (polled every 5 ms); a missing condition fails at the test timeout. */
async function until<T>(probe: () => T | undefined): Promise<T> {
  for (;;) {
    const value = probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
