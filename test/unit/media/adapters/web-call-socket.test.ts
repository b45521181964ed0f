import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { WebCallSocket, type WebCallSocketOptions } from '../../../../media-service/src/adapters/web-call-socket';
import type { FeedClock } from '../../../../media-service/src/adapters/web-caller-feed';
import { decodeMulaw, encodeMulaw } from '../../../../media-service/src/audio/mulaw';
import type { CallTransportEvent } from '../../../../media-service/src/ports/call-transport';
import { captureLogger } from '../../../support/capture-logger';

/** A hand-driven clock: `advance` moves time and runs the ticker as often as it is due. */
class ManualClock implements FeedClock {
  at = 0;
  #tick: (() => void) | undefined;
  now = () => this.at;
  setInterval(callback: () => void): unknown {
    this.#tick = callback;
    return 1;
  }
  clearInterval(): void {
    this.#tick = undefined;
  }
  advance(ms: number): void {
    for (let t = 0; t < ms; t += 20) {
      this.at += 20;
      this.#tick?.();
    }
  }
}

interface Pair {
  server: WebCallSocket;
  client: WebSocket;
  events: CallTransportEvent[];
  /** JSON messages the client received. */
  received: { type: string; [field: string]: unknown }[];
  binary: Buffer[];
  starts: string[];
  said: string[];
  /** What the server logged. */
  logged: () => string[];
  clock: ManualClock;
  closed: Promise<number>;
  /** Resolves once the server side has seen `n` events in all. */
  events_(n: number): Promise<void>;
  /** Resolves once the client has `n` JSON messages. */
  messages(n: number): Promise<void>;
}

const servers: WebSocketServer[] = [];
const clients: WebSocket[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.terminate();
  for (const wss of servers.splice(0)) {
    for (const ws of wss.clients) ws.terminate();
    await new Promise((resolve) => wss.close(resolve));
  }
});

const until = (check: () => boolean) =>
  new Promise<void>((resolve) => {
    const poll = () => (check() ? resolve() : setImmediate(poll));
    poll();
  });

/** A WebCallSocket on a loopback `ws` server, and the browser's side of it. */
async function pair(options: Pick<WebCallSocketOptions, 'maxBadMessages' | 'onSay'> = {}): Promise<Pair> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', maxPayload: 128 * 1024 });
  servers.push(wss);
  await new Promise((resolve) => wss.once('listening', resolve));
  const clock = new ManualClock();
  const { log, messages: logged } = captureLogger();
  const starts: string[] = [];
  const said: string[] = [];
  const events: CallTransportEvent[] = [];
  const serverSide = new Promise<WebCallSocket>((resolve) =>
    wss.once('connection', (ws) => {
      const socket = new WebCallSocket(ws, {
        clock,
        log,
        onStart: (token) => starts.push(token),
        onSay: (text) => void said.push(text),
        ...options,
      });
      socket.on((event) => events.push(event));
      resolve(socket);
    }),
  );
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  clients.push(client);
  const received: Pair['received'] = [];
  const binary: Buffer[] = [];
  client.on('message', (data, isBinary) => (isBinary ? binary.push(data as Buffer) : received.push(JSON.parse(data.toString()))));
  const closed = new Promise<number>((resolve) => client.on('close', (code) => resolve(code)));
  await new Promise((resolve) => client.once('open', resolve));
  return {
    server: await serverSide,
    client,
    events,
    received,
    binary,
    starts,
    said,
    logged,
    clock,
    closed,
    events_: (n) => until(() => events.length >= n),
    messages: (n) => until(() => received.length >= n),
  };
}

/** `ms` of a 1 kHz tone as 16 kHz PCM16LE bytes. */
function tone16k(ms: number): Buffer {
  const samples = Int16Array.from({ length: ms * 16 }, (_, n) => Math.round(8000 * Math.sin((2 * Math.PI * 1000 * n) / 16_000)));
  return Buffer.from(samples.buffer);
}

describe('WebCallSocket', () => {
  it('hands `start` to onStart, then on accept tells the browser and raises start', async () => {
    // Arrange
    const p = await pair();
    // Act
    p.client.send(JSON.stringify({ type: 'start', token: 'wc_1.2.x' }));
    await until(() => p.starts.length === 1);
    const start = p.server.accept(7, 'WCabc');
    await p.messages(1);
    // Assert
    expect(p.starts).toEqual(['wc_1.2.x']);
    expect(p.received[0]).toEqual({ type: 'started', call_id: 7, sample_rate: 16_000, encoding: 'pcm_s16le' });
    expect(p.events[0]).toEqual(start);
    expect(start).toMatchObject({ type: 'start', callSid: 'WCabc', streamSid: 'WCabc', mediaFormat: { sampleRate: 8000 } });
  });

  it('converts microphone audio to 8 kHz μ-law (20 ms in, 160 bytes out) and keeps its level', async () => {
    const p = await pair();
    p.server.accept(1, 'WC1');
    // Act
    for (let i = 0; i < 5; i++) p.client.send(tone16k(20));
    await p.events_(6);
    // Assert
    const media = p.events.filter((e) => e.type === 'media');
    expect(media.map((e) => e.payload.length)).toEqual([160, 160, 160, 160, 160]);
    expect(media.map((e) => e.timestampMs)).toEqual([0, 20, 40, 60, 80]);
    const pcm = decodeMulaw(media[4]!.payload);
    expect(Math.max(...pcm)).toBeGreaterThan(7000);
  });

  it('sends engine audio as 16 kHz PCM16LE, twice the samples, and marks and clear as JSON', async () => {
    const p = await pair();
    p.server.accept(1, 'WC1');
    await p.messages(1);
    // Act
    p.server.sendAudio(encodeMulaw(new Int16Array(160).fill(4000)));
    p.server.sendMark('1:160');
    p.server.sendMark('1:end');
    p.server.clear();
    await p.messages(4);
    await until(() => p.binary.length === 1);
    // Assert
    expect(p.binary[0]!.length).toBe(640);
    expect(new Int16Array(p.binary[0]!.buffer, p.binary[0]!.byteOffset, 320).at(-1)).toBeGreaterThan(3800);
    expect(p.received.slice(1)).toEqual([{ type: 'mark', name: '1:160' }, { type: 'mark', name: '1:end' }, { type: 'clear' }]);
  });

  it('reports mark echoes, with afterClear for those pending at the clear', async () => {
    const p = await pair();
    p.server.accept(1, 'WC1');
    p.server.sendMark('a');
    p.client.send(JSON.stringify({ type: 'mark', name: 'a' }));
    await p.events_(2);
    p.server.sendMark('b');
    p.server.clear();
    // Act
    p.client.send(JSON.stringify({ type: 'mark', name: 'b' }));
    await p.events_(3);
    // Assert
    expect(p.events.filter((e) => e.type === 'mark')).toEqual([
      { type: 'mark', name: 'a', afterClear: false },
      { type: 'mark', name: 'b', afterClear: true },
    ]);
    expect(p.server.pendingMarks).toEqual([]);
  });

  it('turns dtmf into one event a key, passes say on, and hangup into stop then closed', async () => {
    const p = await pair();
    p.server.accept(1, 'WC1');
    // Act
    p.client.send(JSON.stringify({ type: 'dtmf', digits: '12#' }));
    p.client.send(JSON.stringify({ type: 'say', text: '  Hello there  ' }));
    p.client.send(JSON.stringify({ type: 'hangup' }));
    await p.events_(5);
    p.client.close(1000);
    await p.events_(6);
    // Assert
    expect(p.said).toEqual(['Hello there']);
    expect(p.events.slice(1).map((e) => (e.type === 'dtmf' ? e.digit : e.type))).toEqual(['1', '2', '#', 'stop', 'closed']);
  });

  it('ends the call: ended with the reason, then close 1000', async () => {
    const p = await pair();
    p.server.accept(1, 'WC1');
    // Act
    p.server.end('assistant_ended');
    // Assert
    expect(await p.closed).toBe(1000);
    expect(p.received.at(-1)).toEqual({ type: 'ended', reason: 'assistant_ended' });
  });

  it.each([
    ['not JSON', 'hello', /JSON object/],
    ['an unknown type', JSON.stringify({ type: 'dance' }), /Unknown message type/],
    ['an empty say', JSON.stringify({ type: 'say', text: '   ' }), /Invalid say/],
    ['a long say', JSON.stringify({ type: 'say', text: 'a'.repeat(501) }), /Invalid say/],
    ['bad digits', JSON.stringify({ type: 'dtmf', digits: '12a' }), /Invalid dtmf/],
    ['a say with a control character', JSON.stringify({ type: 'say', text: 'hi\u001b[2Jthere' }), /control characters/],
    ['a say with a bidi override', JSON.stringify({ type: 'say', text: 'hi \u202e there' }), /control characters/],
    ['an unknown mark', JSON.stringify({ type: 'mark', name: 'never-sent' }), /not sent/],
    ['a second start', JSON.stringify({ type: 'start', token: 'x' }), /already started/],
    ['odd audio', Buffer.alloc(3), /even number/],
    ['oversized audio', Buffer.alloc(64 * 1024 + 2), /at most 65536/],
  ])('answers %s with error bad_message and drops it', async (_, message, why) => {
    const p = await pair();
    p.server.accept(1, 'WC1');
    // Act
    p.client.send(message);
    await p.messages(2);
    // Assert
    expect(p.received[1]).toMatchObject({ type: 'error', code: 'bad_message', message: expect.stringMatching(why) });
    expect(p.events.filter((e) => e.type !== 'start')).toEqual([]);
    expect(p.client.readyState).toBe(WebSocket.OPEN);
  });

  it('refuses anything but start before accept', async () => {
    const p = await pair();
    p.client.send(JSON.stringify({ type: 'say', text: 'hi' }));
    p.client.send(tone16k(20));
    await p.messages(2);
    expect(p.received.map((m) => m.message)).toEqual(['Send start with the token first.', 'Send start with the token first.']);
    expect(p.said).toEqual([]);
  });

  it('refuses audio more than 2 s ahead of real time, unconverted, and closes a stream that keeps at it', async () => {
    const p = await pair({ maxBadMessages: 3 });
    p.server.accept(1, 'WC1');
    // Act: 3 s of audio at once, with the clock standing still
    for (let i = 0; i < 150; i++) p.client.send(tone16k(20));
    // Assert: 2 s (and one frame) taken, the rest refused, then the socket closed
    expect(await p.closed).toBe(1008);
    expect(p.events.filter((e) => e.type === 'media')).toHaveLength(101);
    expect(p.received.find((m) => m.type === 'error')).toMatchObject({ message: 'Audio is arriving faster than real time.' });
  });

  it('closes a flood of bad messages with 1008', async () => {
    const p = await pair({ maxBadMessages: 3 });
    p.server.accept(1, 'WC1');
    // Act
    for (let i = 0; i < 10; i++) p.client.send('junk');
    // Assert
    expect(await p.closed).toBe(1008);
    expect(p.received.at(-1)).toMatchObject({ type: 'error', code: 'bad_message', message: 'Too many bad messages.' });
  });

  it('cuts a flood off at the bound: terminated, logged once, nothing after it read', async () => {
    const p = await pair({ maxBadMessages: 3 });
    p.server.accept(1, 'WC1');
    // Act: the client never answers a close; it just keeps sending
    for (let i = 0; i < 200; i++) p.client.send('junk');
    await p.closed;
    // Assert
    expect(p.logged().filter((m) => m === 'web.call.flood')).toHaveLength(1);
    expect(p.logged().filter((m) => m === 'web.call.bad_message')).toHaveLength(3);
    expect(p.server.open).toBe(false);
  });

  it('cuts a flood off before start the same way', async () => {
    const p = await pair({ maxBadMessages: 3 });
    // Act
    for (let i = 0; i < 200; i++) p.client.send(Buffer.alloc(1));
    await p.closed;
    // Assert
    expect(p.logged().filter((m) => m === 'web.call.flood')).toHaveLength(1);
    expect(p.logged().filter((m) => m === 'web.call.bad_message')).toHaveLength(3);
  });

  it('takes one start per socket: a second one, while the first is checked, is a bad message', async () => {
    const p = await pair();
    // Act: two starts before the first is accepted, then one after
    p.client.send(JSON.stringify({ type: 'start', token: 'wc_1.2.a' }));
    p.client.send(JSON.stringify({ type: 'start', token: 'wc_3.2.b' }));
    await p.messages(1);
    p.server.accept(1, 'WC1');
    p.client.send(JSON.stringify({ type: 'start', token: 'wc_4.2.c' }));
    await p.messages(3);
    // Assert
    expect(p.starts).toEqual(['wc_1.2.a']);
    expect(p.received.filter((m) => m.type === 'error').map((m) => m.message)).toEqual([
      'The call has already started.',
      'The call has already started.',
    ]);
  });

  it('takes at most 10 dtmf messages a second; more is a bad message', async () => {
    const p = await pair();
    p.server.accept(1, 'WC1');
    // Act: 12 in one instant, then a second later one more
    for (let i = 0; i < 12; i++) p.client.send(JSON.stringify({ type: 'dtmf', digits: '1' }));
    await p.messages(3);
    p.clock.advance(1000);
    p.client.send(JSON.stringify({ type: 'dtmf', digits: '2' }));
    await until(() => p.events.some((e) => e.type === 'dtmf' && e.digit === '2'));
    // Assert
    const digits = p.events.flatMap((e) => (e.type === 'dtmf' ? [e.digit] : []));
    expect(digits).toEqual([...'1111111111', '2']);
    expect(p.received.filter((m) => m.type === 'error').map((m) => m.message)).toEqual([
      'Keys may be sent at most 10 times a second.',
      'Keys may be sent at most 10 times a second.',
    ]);
  });

  it('lets at most 3 typed lines wait to be said; more is refused until one is queued', async () => {
    const resolvers: (() => void)[] = [];
    const said: string[] = [];
    const p = await pair({
      onSay: (text) => {
        said.push(text);
        return new Promise<void>((resolve) => resolvers.push(resolve));
      },
    });
    p.server.accept(1, 'WC1');
    // Act: five lines while none has its audio yet
    for (const text of ['one', 'two', 'three', 'four', 'five']) p.client.send(JSON.stringify({ type: 'say', text }));
    await p.messages(3);
    resolvers[0]!();
    await Promise.resolve();
    p.client.send(JSON.stringify({ type: 'say', text: 'six' }));
    await until(() => said.length === 4);
    // Assert
    expect(said).toEqual(['one', 'two', 'three', 'six']);
    expect(p.received.filter((m) => m.type === 'error').map((m) => m.message)).toEqual([
      'Wait for the assistant: earlier lines are still waiting to be said.',
      'Wait for the assistant: earlier lines are still waiting to be said.',
    ]);
  });

  it('refuses typed speech while 30 s of it is queued to play', async () => {
    const p = await pair({ onSay: (text) => void p.said.push(text) });
    p.server.accept(1, 'WC1');
    // Act: 30 s of typed speech queued, then another line
    p.server.inject(new Uint8Array(30 * 8000).fill(0x10));
    p.client.send(JSON.stringify({ type: 'say', text: 'more' }));
    await p.messages(2);
    p.clock.advance(1000);
    p.client.send(JSON.stringify({ type: 'say', text: 'later' }));
    await until(() => p.said.length === 1);
    // Assert: refused at 30 s queued, taken once a second of it has played
    expect(p.received[1]).toMatchObject({ type: 'error', code: 'bad_message', message: expect.stringMatching(/Wait for the assistant/) });
    expect(p.said).toEqual(['later']);
  });

  it('keeps the caller audio continuous: silence when the browser sends none, typed speech in place of the microphone', async () => {
    const p = await pair();
    p.server.accept(1, 'WC1');
    // Act: 200 ms with no microphone
    p.clock.advance(200);
    const silent = p.events.filter((e) => e.type === 'media').length;
    // Act: 100 ms of injected speech, while the microphone sends a tone (dropped meanwhile)
    p.server.inject(new Uint8Array(800).fill(0x10));
    p.client.send(tone16k(20));
    // A key press after it: once its event is in, the microphone frame before it has been read (ws keeps order).
    p.client.send(JSON.stringify({ type: 'dtmf', digits: '5' }));
    await until(() => p.events.some((e) => e.type === 'dtmf'));
    p.clock.advance(100);
    // Assert: each 20 ms slot filled once, from the clock: silence, then the injected frames
    const media = p.events.flatMap((e) => (e.type === 'media' ? [e] : []));
    expect(silent).toBeGreaterThanOrEqual(6);
    expect(media.slice(silent).map((e) => e.payload[0])).toEqual([0x10, 0x10, 0x10, 0x10, 0x10]);
    expect(media.map((e) => e.timestampMs)).toEqual(media.map((_, i) => i * 20));
  });
});
