import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TwilioTelephony } from '../../../media-service/src/adapters/twilio-telephony';
import { PlaceCallError } from '../../../media-service/src/ports/telephony';
import { ProviderError } from '../../../shared/errors';

/** A loopback server speaking the Twilio REST subset the adapter uses (documented wire contract). */
interface Seen {
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  form: URLSearchParams;
}

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
let nextStatus = 201;
let nextBody: string | undefined;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({
        path: request.url!,
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        form: new URLSearchParams(body),
      });
      const status = nextStatus;
      nextStatus = 201;
      response.writeHead(status, { 'content-type': 'application/json' });
      const answer =
        nextBody ??
        (status < 300
          ? JSON.stringify({ sid: 'CA0123456789abcdef0123456789abcdef', status: 'queued' })
          : JSON.stringify({ code: 20404, message: 'The requested resource was not found' }));
      nextBody = undefined;
      response.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const telephony = () => new TwilioTelephony({ accountSid: 'AC123', authToken: 'secret', baseUrl });

describe('TwilioTelephony (REST wire contract)', () => {
  it('creates a call with inline <Connect><Stream> TwiML, status callbacks, limits and async AMD', async () => {
    // Arrange
    seen.length = 0;
    // Act
    const result = await telephony().placeCall({
      to: '+14155550123',
      from: '+15550100001',
      streamUrl: 'wss://media.example.com/twilio/media',
      parameters: { callId: '42', token: 't' },
      statusCallbackUrl: 'https://media.example.com/twilio/status',
      machineDetection: true,
      amdCallbackUrl: 'https://media.example.com/twilio/amd',
      timeoutS: 30,
      timeLimitS: 600,
    });
    // Assert
    expect(result).toEqual({ callSid: 'CA0123456789abcdef0123456789abcdef' });
    const request = seen[0]!;
    expect(request.path).toBe('/2010-04-01/Accounts/AC123/Calls.json');
    expect(request.authorization).toBe(`Basic ${Buffer.from('AC123:secret').toString('base64')}`);
    expect(request.contentType).toBe('application/x-www-form-urlencoded');
    expect(request.form.get('Twiml')).toContain('<Stream url="wss://media.example.com/twilio/media"><Parameter name="callId" value="42"/>');
    expect(request.form.getAll('StatusCallbackEvent')).toEqual(['initiated', 'ringing', 'answered', 'completed']);
    expect(
      Object.fromEntries(
        ['To', 'From', 'Timeout', 'TimeLimit', 'MachineDetection', 'AsyncAmd', 'AsyncAmdStatusCallback'].map((k) => [
          k,
          request.form.get(k),
        ]),
      ),
    ).toEqual({
      To: '+14155550123',
      From: '+15550100001',
      Timeout: '30',
      TimeLimit: '600',
      MachineDetection: 'DetectMessageEnd',
      AsyncAmd: 'true',
      AsyncAmdStatusCallback: 'https://media.example.com/twilio/amd',
    });
  });

  it('hangs up with Status=completed and treats an already-gone call (404) as ended', async () => {
    // Arrange
    seen.length = 0;
    // Act
    await telephony().hangup('CA1');
    nextStatus = 404;
    await telephony().hangup('CA2');
    // Assert
    expect(seen.map((s) => [s.path, s.form.get('Status')])).toEqual([
      ['/2010-04-01/Accounts/AC123/Calls/CA1.json', 'completed'],
      ['/2010-04-01/Accounts/AC123/Calls/CA2.json', 'completed'],
    ]);
  });

  it('transfers with <Dial> TwiML', async () => {
    // Arrange
    seen.length = 0;
    // Act
    await telephony().transfer('CA9', '+15550100999', '+15550100001');
    // Assert
    expect(seen[0]!.form.get('Twiml')).toContain('<Dial callerId="+15550100001">+15550100999</Dial>');
  });

  it('maps refusals to ProviderError with status and retryability', async () => {
    // Arrange
    nextStatus = 400;
    // Act
    const error = await telephony()
      .transfer('CA9', '+1')
      .catch((e: unknown) => e);
    // Assert
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ statusCode: 400, retryable: false });
  });

  it('refuses TwiML over 4000 characters without calling Twilio', async () => {
    // Arrange
    seen.length = 0;
    const parameters = { token: 'x'.repeat(4000) };
    // Act
    const error = await telephony()
      .placeCall({ ...placeRequest, parameters })
      .catch((e: unknown) => e);
    // Assert
    expect(error).toMatchObject({ name: 'PlaceCallError', placed: 'no', statusCode: 400, retryable: false });
    expect(seen).toEqual([]);
  });

  it('maps an answer without a sid or without JSON to a retryable 502', async () => {
    // Arrange
    nextBody = '{"status":"queued"}';
    const noSid = await telephony()
      .placeCall(placeRequest)
      .catch((e: unknown) => e);
    nextBody = '<html>gateway</html>';
    // Act
    const notJson = await telephony()
      .placeCall(placeRequest)
      .catch((e: unknown) => e);
    // Assert
    expect(noSid).toMatchObject({ statusCode: 502, retryable: true });
    expect(notJson).toMatchObject({ statusCode: 502, retryable: true });
  });

  // Whether a failed create-call may have placed the call decides whether the dialler may try again.
  it.each([
    [429, 'no', true],
    [400, 'no', false],
    [500, 'unknown', true],
    [503, 'unknown', true],
  ] as const)('a create-call answered %i is a PlaceCallError with placed %s', async (status, placed, retryable) => {
    // Arrange
    nextStatus = status;
    // Act
    const error = await telephony()
      .placeCall(placeRequest)
      .catch((e: unknown) => e);
    // Assert
    expect(error).toBeInstanceOf(PlaceCallError);
    expect(error).toMatchObject({ statusCode: status, placed, retryable });
  });

  it('a create-call whose answer never came may have placed the call; one whose connection was refused did not', async () => {
    // Arrange
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const at = (server: Server | number, timeoutMs = 10_000) =>
      new TwilioTelephony({
        accountSid: 'AC123',
        authToken: 'secret',
        baseUrl: `http://127.0.0.1:${typeof server === 'number' ? server : (server.address() as AddressInfo).port}`,
        timeoutMs,
      });
    // Act
    const timedOut = await at(silent, 200)
      .placeCall(placeRequest)
      .catch((e: unknown) => e);
    const refused = await at(closedPort)
      .placeCall(placeRequest)
      .catch((e: unknown) => e);
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    // Assert
    expect(timedOut).toMatchObject({ name: 'PlaceCallError', placed: 'unknown', retryable: true, statusCode: undefined });
    expect(refused).toMatchObject({ name: 'PlaceCallError', placed: 'no', retryable: true, statusCode: undefined });
  });
});

const placeRequest = {
  to: '+14155550123',
  from: '+15550100001',
  streamUrl: 'wss://media.example.com/twilio/media',
  parameters: {},
  statusCallbackUrl: 'https://media.example.com/twilio/status',
  machineDetection: false,
  amdCallbackUrl: '',
  timeoutS: 30,
  timeLimitS: 600,
};
