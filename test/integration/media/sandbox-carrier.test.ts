import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { TwilioMediaStream } from '../../../media-service/src/adapters/twilio-media-stream';
import { TwilioTelephony } from '../../../media-service/src/adapters/twilio-telephony';
import { mulawRms } from '../../../media-service/src/audio/mulaw';
import { speechLike } from '../../../media-service/src/audio/tone';
import type { CallTransportEvent } from '../../../media-service/src/ports/call-transport';
import { PlaceCallError, type PlaceCallRequest } from '../../../media-service/src/ports/telephony';
import { SandboxCarrier } from '../../../media-service/src/sandbox/carrier';
import { scenario, step } from '../../../media-service/src/sandbox/scenario-script';
import { isValidTwilioSignature } from '../../../media-service/src/telephony/twilio-signature';
import { ProviderError } from '../../../shared/errors';
import { silentLogger } from '../../../shared/log';

/**
 * The sandbox carrier driven by the production Twilio adapters: `TwilioTelephony` over REST, and
 * `TwilioMediaStream` on a loopback WebSocket server standing in for our media service. Network
 * progress uses tiny `timing` values; the media clock is the carrier's real 20 ms ticker, and the
 * test waits on conditions (never on durations).
 */

interface Webhook {
  path: string;
  params: Record<string, string>;
  signed: boolean;
}
interface Leg {
  path: string;
  signed: boolean;
  transport: TwilioMediaStream;
  events: CallTransportEvent[];
  raw: Record<string, any>[];
}

let carrier: SandboxCarrier;
let app: Server;
let origin: string;
let telephony: TwilioTelephony;
const webhooks: Webhook[] = [];
const legs: Leg[] = [];
let voiceTwiml = '<Response><Hangup/></Response>';

beforeAll(async () => {
  carrier = await SandboxCarrier.start({
    timing: { dialMs: 5, answerMs: 5, busyMs: 5, maxRingMs: 30, amdHumanMs: 10, transferTalkMs: 10, sayMsPerChar: 1 },
    log: silentLogger,
  });
  app = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const params = Object.fromEntries(new URLSearchParams(body));
      const signed = isValidTwilioSignature(carrier.authToken, req.headers['x-twilio-signature'] as string, origin + req.url, params);
      webhooks.push({ path: req.url!, params, signed });
      res.writeHead(200, { 'content-type': 'text/xml' }).end(req.url === '/voice' ? voiceTwiml : '');
    });
  });
  new WebSocketServer({ server: app }).on('connection', (ws, req) => {
    const signed = isValidTwilioSignature(
      carrier.authToken,
      req.headers['x-twilio-signature'] as string,
      `ws://127.0.0.1:${port()}${req.url}`,
    );
    const leg: Leg = { path: req.url!, signed, transport: new TwilioMediaStream(ws, { log: silentLogger }), events: [], raw: [] };
    ws.on('message', (data) => void leg.raw.push(JSON.parse(data.toString())));
    leg.transport.on((event) => void leg.events.push(event));
    legs.push(leg);
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${port()}`;
  telephony = new TwilioTelephony({ accountSid: carrier.accountSid, authToken: carrier.authToken, baseUrl: carrier.baseUrl });
});

afterAll(async () => {
  await carrier.close();
  app.closeAllConnections();
  await new Promise<void>((resolve) => app.close(() => resolve()));
});

const port = () => (app.address() as AddressInfo).port;

/** Resolves once `predicate` holds (polled every 5 ms); a missing condition fails at the test timeout. */
async function until<T>(probe: () => T | undefined | false): Promise<T> {
  for (;;) {
    const value = probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const request = (to: string, path: string, overrides: Partial<PlaceCallRequest> = {}): PlaceCallRequest => ({
  to,
  from: '+15550100001',
  streamUrl: `ws://127.0.0.1:${port()}${path}`,
  parameters: { callId: '42', token: 'tok' },
  statusCallbackUrl: `${origin}/status`,
  machineDetection: false,
  amdCallbackUrl: `${origin}/amd`,
  timeoutS: 30,
  timeLimitS: 600,
  ...overrides,
});
const statusesOf = (callSid: string, path = '/status') => webhooks.filter((w) => w.path === path && w.params.CallSid === callSid);
const legAt = (path: string) => until(() => legs.find((leg) => leg.path === path && leg.events.some((e) => e.type === 'start')));
const marksOf = (leg: Leg) => leg.events.filter((e): e is Extract<CallTransportEvent, { type: 'mark' }> => e.type === 'mark');
const frames = (count: number, sample = 0x10) => Array.from({ length: count }, () => new Uint8Array(160).fill(sample));

describe('SandboxCarrier driven by TwilioTelephony and TwilioMediaStream', () => {
  it('connects a signed media stream, plays audio in real time, echoes marks after playback, honours clear, and hangs up', async () => {
    // Arrange
    carrier.registerScenario('+15550100123', scenario('quiet', [step.silence()]));
    const { callSid } = await telephony.placeCall(request('+15550100123', '/media/a', { machineDetection: true }));
    const leg = await legAt('/media/a');
    // Act 1: 200 ms of audio, then a mark
    const mediaBefore = leg.raw.filter((m) => m.event === 'media').length;
    for (const frame of frames(10)) leg.transport.sendAudio(frame);
    leg.transport.sendMark('m1');
    const mediaAtEcho = await until(() => marksOf(leg).length === 1 && leg.raw.filter((m) => m.event === 'media').length);
    // Act 2: a second of audio and two marks, cleared at once
    for (const frame of frames(50)) leg.transport.sendAudio(frame);
    leg.transport.sendMark('m2');
    leg.transport.sendMark('m3');
    leg.transport.clear();
    await until(() => marksOf(leg).length === 3);
    // Act 3
    await telephony.hangup(callSid);
    const ended = await carrier.whenEnded(callSid);
    await until(
      () => leg.events.some((e) => e.type === 'closed') && statusesOf(callSid).length === 4 && statusesOf(callSid, '/amd').length === 1,
    );
    // Assert: the stream
    const stream = ended.streams[0]!;
    expect(leg.signed).toBe(true);
    expect(leg.events[0]).toMatchObject({
      type: 'start',
      callSid,
      customParameters: { callId: '42', token: 'tok' },
      mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
    });
    expect(marksOf(leg)).toEqual([
      { type: 'mark', name: 'm1', afterClear: false },
      { type: 'mark', name: 'm2', afterClear: true },
      { type: 'mark', name: 'm3', afterClear: true },
    ]);
    expect(mediaAtEcho - mediaBefore).toBeGreaterThanOrEqual(9); // one caller frame per 20 ms played
    expect(stream.marksEchoed.map((m) => [m.name, m.playedBytes, m.afterClear])).toEqual([
      ['m1', 1600, false],
      ['m2', 9600, true],
      ['m3', 9600, true],
    ]);
    expect(stream.clears[0]!.droppedBytes).toBeGreaterThan(0);
    expect(leg.events.slice(-2).map((e) => e.type)).toEqual(['stop', 'closed']);
    // Assert: the wire format
    expect(leg.raw[0]).toEqual({ event: 'connected', protocol: 'Call', version: '1.0.0' });
    expect(leg.raw.slice(1).map((m) => m.sequenceNumber)).toEqual(leg.raw.slice(1).map((_m, i) => String(i + 1)));
    const media = leg.raw.filter((m) => m.event === 'media');
    expect(media.map((m) => m.media.timestamp)).toEqual(media.map((_m, i) => String(i * 20)));
    expect(media.map((m) => m.media.chunk)).toEqual(media.map((_m, i) => String(i + 1)));
    expect(media.every((m) => Buffer.from(m.media.payload, 'base64').length === 160 && m.streamSid === stream.streamSid)).toBe(true);
    // Assert: the call and its signed callbacks, in order
    expect(ended).toMatchObject({ status: 'completed', endedBy: 'api' });
    const statuses = statusesOf(callSid);
    expect(statuses.every((w) => w.signed)).toBe(true);
    expect(statuses.map((w) => [w.params.CallStatus, w.params.SequenceNumber])).toEqual([
      ['initiated', '0'],
      ['ringing', '1'],
      ['in-progress', '2'],
      ['completed', '3'],
    ]);
    expect(statuses[3]!.params.CallDuration).toMatch(/^\d+$/);
    expect(statusesOf(callSid, '/amd')[0]).toMatchObject({ signed: true, params: { AnsweredBy: 'human', CallSid: callSid } });
  });

  it('sends the keypad scenario’s DTMF as the callee reacts to the assistant', async () => {
    // Arrange: the "assistant" speaks 300 ms on start and after the first and last key
    const { callSid } = await telephony.placeCall(request('+15005550006', '/media/keys'));
    const leg = await legAt('/media/keys');
    const speak = () => leg.transport.sendAudio(speechLike(300));
    speak();
    leg.transport.on(
      (event) => event.type === 'dtmf' && (event.digit === '#' || leg.events.filter((e) => e.type === 'dtmf').length === 1) && speak(),
    );
    // Act
    const ended = await carrier.whenEnded(callSid);
    // Assert
    expect(leg.events.filter((e) => e.type === 'dtmf').map((e) => (e as { digit: string }).digit)).toEqual(['1', '1', '2', '3', '4', '#']);
    expect(ended).toMatchObject({ status: 'completed', endedBy: 'callee', scenario: 'keypresser' });
    expect(ended.callee!.said.map((s) => s.text)).toEqual(['Hello?', 'Thanks, bye.']);
  });

  it.each([
    ['+15005550001', 'busy', ['initiated', 'busy'], '486'],
    ['+15005550002', 'no-answer', ['initiated', 'ringing', 'no-answer'], '487'],
    ['+15005550007', 'failed', ['initiated', 'failed'], '404'],
  ])('ends a call to the special number %s as %s', async (to, status, history, sip) => {
    // Act
    const { callSid } = await telephony.placeCall(request(to, '/media/never'));
    const ended = await carrier.whenEnded(callSid);
    await until(() => statusesOf(callSid).length === history.length);
    // Assert
    expect(ended.status).toBe(status);
    expect(ended.answeredAtMs).toBeUndefined();
    const statuses = statusesOf(callSid);
    expect(statuses.map((w) => w.params.CallStatus)).toEqual(history);
    expect(statuses.every((w) => w.signed)).toBe(true);
    expect(statuses.at(-1)!.params.SipResponseCode).toBe(sip);
    expect(legs.some((leg) => leg.path === '/media/never')).toBe(false);
  });

  it('refuses +15005550008 with 429 twice (nothing placed), then places it; +15005550009 with a 500 (may be placed)', async () => {
    // Act
    const refusals = [];
    for (let i = 0; i < 2; i++) refusals.push(await telephony.placeCall(request('+15005550008', '/media/never')).catch((e: unknown) => e));
    const placed = await telephony.placeCall(request('+15005550008', '/media/throttled'));
    const again = await telephony.placeCall(request('+15005550008', '/media/never')).catch((e: unknown) => e);
    const serverError = await telephony.placeCall(request('+15005550009', '/media/never')).catch((e: unknown) => e);
    // Assert
    for (const refusal of refusals) expect(refusal).toMatchObject({ name: 'PlaceCallError', placed: 'no', statusCode: 429 });
    expect(placed.callSid).toMatch(/^CA/);
    expect(await legAt('/media/throttled')).toBeDefined();
    expect(again).toBeInstanceOf(PlaceCallError);
    expect(serverError).toMatchObject({ name: 'PlaceCallError', placed: 'unknown', statusCode: 500 });
  });

  it('transfers a live call: the stream stops and the <Dial> leg runs', async () => {
    // Arrange
    carrier.registerScenario('+15550100124', scenario('quiet', [step.silence()]));
    const { callSid } = await telephony.placeCall(request('+15550100124', '/media/transfer'));
    const leg = await legAt('/media/transfer');
    // Act
    await telephony.transfer(callSid, '+15550100999', '+15550100001');
    const ended = await carrier.whenEnded(callSid);
    // Assert
    expect(ended.dialed).toMatchObject({ number: '+15550100999', callerId: '+15550100001' });
    expect(ended).toMatchObject({ status: 'completed', endedBy: 'twiml' });
    await until(() => leg.events.some((e) => e.type === 'closed'));
    expect(leg.events.slice(-2).map((e) => e.type)).toEqual(['stop', 'closed']);
  });

  it('startInboundCall posts a signed voice webhook and runs the TwiML it answers', async () => {
    // Arrange
    voiceTwiml = `<Response><Say>Hi</Say><Connect><Stream url="ws://127.0.0.1:${port()}/media/in"><Parameter name="direction" value="inbound"/></Stream></Connect></Response>`;
    const caller = scenario('caller', [step.say('I need help with my order.', { durationMs: 200 }), step.pause(100), step.hangup()]);
    // Act
    const { callSid } = carrier.startInboundCall({
      from: '+14155550100',
      to: '+15550100001',
      voiceUrl: `${origin}/voice`,
      scenario: caller,
      statusCallbackUrl: `${origin}/status`,
    });
    const leg = await legAt('/media/in');
    const ended = await carrier.whenEnded(callSid);
    // Assert
    expect(statusesOf(callSid, '/voice')).toEqual([
      {
        path: '/voice',
        signed: true,
        params: expect.objectContaining({ CallStatus: 'ringing', Direction: 'inbound', From: '+14155550100', To: '+15550100001' }),
      },
    ]);
    expect(leg.signed).toBe(true);
    expect(leg.events[0]).toMatchObject({ type: 'start', callSid, customParameters: { direction: 'inbound' } });
    const loud = leg.events.filter((e) => e.type === 'media' && mulawRms(e.payload) >= 500);
    expect(loud.length).toBeGreaterThanOrEqual(10);
    expect(ended).toMatchObject({ direction: 'inbound', status: 'completed', endedBy: 'callee', said: ['Hi'] });
  });

  it('ends a call whose TwiML is not valid XML and records why', async () => {
    // Arrange
    const auth = `Basic ${Buffer.from(`${carrier.accountSid}:${carrier.authToken}`).toString('base64')}`;
    const form = new URLSearchParams({ To: '+15550100126', From: '+15550100001', Twiml: '<Response><Say>hi</Response>' });
    // Act
    const created = await fetch(`${carrier.baseUrl}/2010-04-01/Accounts/${carrier.accountSid}/Calls.json`, {
      method: 'POST',
      headers: { authorization: auth },
      body: form,
    });
    const { sid } = (await created.json()) as { sid: string };
    const ended = await carrier.whenEnded(sid);
    // Assert
    expect(created.status).toBe(201);
    expect(ended).toMatchObject({ status: 'completed', endedBy: 'twiml' });
    expect(ended.twimlErrors).toEqual(['invalid TwiML: unexpected </Response>']);
  });

  it('answers a bad REST login with a Twilio-shaped 401', async () => {
    // Arrange
    const intruder = new TwilioTelephony({ accountSid: carrier.accountSid, authToken: 'wrong', baseUrl: carrier.baseUrl });
    // Act
    const error = await intruder.placeCall(request('+15550100125', '/media/x')).catch((e: unknown) => e);
    const raw = await fetch(`${carrier.baseUrl}/2010-04-01/Accounts/${carrier.accountSid}/Calls.json`, { method: 'POST' });
    // Assert
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ statusCode: 401, retryable: false });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toContain('Basic');
    expect(await raw.json()).toEqual({
      code: 20003,
      message: 'Authenticate',
      more_info: 'https://www.twilio.com/docs/errors/20003',
      status: 401,
    });
  });
});
