import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { TwilioMediaStream } from '../../../media-service/src/adapters/twilio-media-stream';
import type { CallTransportEvent } from '../../../media-service/src/ports/call-transport';
import { captureLogger } from '../../support/capture-logger';

/**
 * The adapter on a real loopback socket. The test plays Twilio: a `ws` client sends the documented
 * Twilio → server messages and records what the adapter sends back.
 */

let server: WebSocketServer;
let url: string;
const accepted: { ws: WebSocket; raw: number }[] = [];

beforeAll(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (ws) => {
    const entry = { ws, raw: 0 };
    ws.on('message', () => void entry.raw++);
    accepted.push(entry);
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/media`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Resolves once `predicate` holds (polled every 5 ms); a missing condition fails the test at its timeout. */
async function until(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Connects a fake Twilio and wraps the accepted socket in the adapter (not yet subscribed). */
async function connect() {
  const before = accepted.length;
  const twilio = new WebSocket(url);
  const fromServer: Record<string, unknown>[] = [];
  twilio.on('message', (data) => void fromServer.push(JSON.parse(data.toString()) as Record<string, unknown>));
  await new Promise<void>((resolve) => twilio.once('open', () => resolve()));
  await until(() => accepted.length > before);
  const entry = accepted.at(-1)!;
  const { log, lines: logs } = captureLogger();
  const stream = new TwilioMediaStream(entry.ws, { log });
  const events: CallTransportEvent[] = [];
  const subscribe = () => stream.on((event) => void events.push(event));
  return { twilio, fromServer, entry, stream, logs, events, subscribe };
}

const START = {
  event: 'start',
  sequenceNumber: '1',
  streamSid: 'MZ1',
  start: {
    accountSid: 'AC1',
    streamSid: 'MZ1',
    callSid: 'CA1',
    tracks: ['inbound'],
    customParameters: { token: 't0k' },
    mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
  },
};
const media = (seq: number, timestamp: number, bytes: Uint8Array) => ({
  event: 'media',
  sequenceNumber: String(seq),
  streamSid: 'MZ1',
  media: { track: 'inbound', chunk: String(seq - 1), timestamp: String(timestamp), payload: Buffer.from(bytes).toString('base64') },
});
const echo = (seq: number, name: string) => ({ event: 'mark', sequenceNumber: String(seq), streamSid: 'MZ1', mark: { name } });
const send = (ws: WebSocket, message: unknown) => ws.send(JSON.stringify(message));

describe('TwilioMediaStream', () => {
  it('replays events that arrived before the first listener, in order', async () => {
    // Arrange
    const { twilio, entry, events, subscribe } = await connect();
    send(twilio, { event: 'connected', protocol: 'Call', version: '1.0.0' });
    send(twilio, START);
    send(twilio, media(2, 0, new Uint8Array(160).fill(0x7f)));
    send(twilio, { event: 'dtmf', sequenceNumber: '3', streamSid: 'MZ1', dtmf: { track: 'inbound_track', digit: '5' } });
    await until(() => entry.raw === 4);
    // Act
    subscribe();
    // Assert
    expect(events.map((event) => event.type)).toEqual(['start', 'media', 'dtmf']);
    expect(events[0]).toMatchObject({
      type: 'start',
      streamSid: 'MZ1',
      callSid: 'CA1',
      customParameters: { token: 't0k' },
      tracks: ['inbound'],
    });
    expect(events[1]).toMatchObject({ type: 'media', timestampMs: 0 });
    expect([...(events[1] as { payload: Uint8Array }).payload]).toEqual(new Array(160).fill(0x7f));
    expect(events[2]).toEqual({ type: 'dtmf', digit: '5' });
    twilio.close();
  });

  it('drops malformed JSON, binary frames and unknown events with a log, and keeps going', async () => {
    // Arrange
    const { twilio, entry, events, logs, subscribe } = await connect();
    subscribe();
    // Act
    twilio.send('{not json');
    twilio.send(Buffer.from([1, 2, 3]));
    send(twilio, { event: 'unknown-thing', sequenceNumber: '1' });
    send(twilio, { event: 'media', sequenceNumber: '2', streamSid: 'MZ1', media: { payload: 42 } });
    send(twilio, START);
    await until(() => entry.raw === 5);
    // Assert
    expect(events.map((event) => event.type)).toEqual(['start']);
    expect(logs.map((log) => log.message)).toEqual([
      'twilio.stream.dropped',
      'twilio.stream.dropped',
      'twilio.stream.dropped',
      'twilio.stream.dropped',
    ]);
    expect(logs[1]!.fields).toMatchObject({ reason: 'binary frame' });
    twilio.close();
  });

  it('sends media, mark and clear on the wire; marks pending at clear() come back with afterClear', async () => {
    // Arrange
    const { twilio, entry, stream, fromServer, events, subscribe } = await connect();
    subscribe();
    send(twilio, START);
    await until(() => stream.streamSid === 'MZ1');
    stream.sendAudio(new Uint8Array(160).fill(0xff));
    stream.sendMark('m1');
    stream.sendMark('m2');
    // Act
    stream.clear();
    stream.sendMark('m3');
    await until(() => fromServer.length === 5);
    send(twilio, echo(2, 'm1'));
    send(twilio, echo(3, 'm2'));
    send(twilio, echo(4, 'm3'));
    await until(() => entry.raw === 4);
    // Assert
    expect(fromServer.map((message) => message.event)).toEqual(['media', 'mark', 'mark', 'clear', 'mark']);
    expect(fromServer[0]).toEqual({ event: 'media', streamSid: 'MZ1', media: { payload: Buffer.alloc(160, 0xff).toString('base64') } });
    expect(events.slice(1)).toEqual([
      { type: 'mark', name: 'm1', afterClear: true },
      { type: 'mark', name: 'm2', afterClear: true },
      { type: 'mark', name: 'm3', afterClear: false },
    ]);
    expect(stream.pendingMarks).toEqual([]);
    twilio.close();
  });

  it('logs and drops sends before start, and reports stop then closed', async () => {
    // Arrange
    const { twilio, stream, fromServer, events, logs, subscribe } = await connect();
    subscribe();
    // Act
    stream.sendAudio(new Uint8Array(160));
    stream.sendMark('early');
    send(twilio, START);
    send(twilio, { event: 'stop', sequenceNumber: '2', streamSid: 'MZ1', stop: { accountSid: 'AC1', callSid: 'CA1' } });
    twilio.close(1000, 'bye');
    await until(() => events.some((event) => event.type === 'closed'));
    stream.sendMark('late');
    stream.close();
    // Assert
    expect(fromServer).toEqual([]);
    expect(stream.pendingMarks).toEqual([]);
    expect(logs.map((log) => log.message)).toEqual([
      'twilio.stream.send_before_start',
      'twilio.stream.send_before_start',
      'twilio.stream.send_after_close',
    ]);
    expect(events.map((event) => event.type)).toEqual(['start', 'stop', 'closed']);
    expect(events.at(-1)).toEqual({ type: 'closed', code: 1000, reason: 'bye' });
  });

  it('keeps delivering to the others when a listener throws', async () => {
    // Arrange
    const { twilio, entry, stream, logs } = await connect();
    const seen: string[] = [];
    stream.on(() => {
      throw new Error('listener bug');
    });
    stream.on((event) => void seen.push(event.type));
    // Act
    send(twilio, START);
    await until(() => entry.raw === 1);
    // Assert
    expect(seen).toEqual(['start']);
    expect(logs.map((log) => log.message)).toEqual(['twilio.stream.listener_failed']);
    twilio.close();
  });
});
