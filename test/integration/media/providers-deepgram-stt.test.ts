import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { ProviderError } from '../../../shared/errors';
import { DeepgramSpeechToText } from '../../../media-service/src/adapters/deepgram-speech-to-text';
import type { SttEvent, SttOpenOptions, SttStream } from '../../../media-service/src/ports/speech-to-text';
import { DeepgramSandboxServer } from '../../../media-service/src/sandbox/deepgram-server';
import { TranscriptBoard } from '../../../media-service/src/sandbox/transcript-board';

/**
 * The real Flux adapter (through the real @deepgram/sdk) against the sandbox Flux server on
 * loopback. Audio is synthesised here: loud pseudo-random μ-law for speech, 0xFF for silence.
 * The sandbox runs on audio time, so the events depend only on the bytes sent.
 */

/** Loud μ-law noise: bytes 0x10–0x2F (either sign) decode to ±2000…8000, far above silence. */
function speech(ms: number, seed = 7): Uint8Array {
  const out = new Uint8Array(ms * 8);
  let x = seed;
  for (let i = 0; i < out.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out[i] = (x & 0x10000 ? 0x80 : 0) | (0x10 + (x % 0x20));
  }
  return out;
}

function silence(ms: number): Uint8Array {
  return new Uint8Array(ms * 8).fill(0xff);
}

/** Sends audio as 20 ms telephony frames, like the transport does. */
function play(stream: SttStream, ...parts: Uint8Array[]): void {
  for (const part of parts) for (let i = 0; i < part.length; i += 160) stream.send(part.subarray(i, i + 160));
}

function collect(stream: SttStream): { events: SttEvent[]; until: (type: SttEvent['type']) => Promise<SttEvent> } {
  const events: SttEvent[] = [];
  const waiters: { type: SttEvent['type']; resolve: (e: SttEvent) => void }[] = [];
  stream.on((event) => {
    events.push(event);
    for (const w of waiters.filter((w) => w.type === event.type)) w.resolve(event);
  });
  const until = (type: SttEvent['type']) =>
    new Promise<SttEvent>((resolve, reject) => {
      const seen = events.find((e) => e.type === type);
      if (seen) return resolve(seen);
      waiters.push({ type, resolve });
      setTimeout(() => reject(new Error(`no ${type} within 5 s; saw ${events.map((e) => e.type).join(',')}`)), 5000).unref();
    });
  return { events, until };
}

let board: TranscriptBoard;
let deepgram: DeepgramSandboxServer;

beforeAll(async () => {
  board = new TranscriptBoard();
  deepgram = await DeepgramSandboxServer.start({ board });
});

afterAll(async () => {
  await deepgram.close();
});

function options(tag: string, extra: Partial<SttOpenOptions> = {}): SttOpenOptions {
  return { model: 'flux-general-en', language: 'en', keyterms: [], eotThreshold: 0.7, tag, signal: new AbortController().signal, ...extra };
}

describe('DeepgramSpeechToText against the sandbox Flux', () => {
  it('turns one spoken segment into StartOfTurn, growing Updates and EndOfTurn with the board text', async () => {
    // Arrange
    board.push('CA-basic', 'I would like to book a cleaning next Tuesday');
    const stt = new DeepgramSpeechToText({ apiKey: 'dg-key', baseUrl: deepgram.baseUrl });
    const stream = await stt.open(options('CA-basic', { keyterms: ['Acme Dental', 'cleaning'] }));
    const { events, until } = collect(stream);
    // Act
    play(stream, silence(200), speech(1500), silence(640));
    const end = await until('end_of_turn');
    stream.close();
    await until('closed');
    // Assert
    expect(events[0]).toEqual({ type: 'start_of_turn', turnIndex: 0 });
    expect(end).toEqual({
      type: 'end_of_turn',
      turnIndex: 0,
      transcript: 'I would like to book a cleaning next Tuesday',
      endOfSpeechMs: 1700,
    });
    const updates = events.filter((e) => e.type === 'update').map((e) => (e as { transcript: string }).transcript);
    expect(updates.length).toBeGreaterThanOrEqual(4);
    for (const text of updates) expect('I would like to book a cleaning next Tuesday'.startsWith(text)).toBe(true);
    expect(events.some((e) => e.type === 'eager_end_of_turn' || e.type === 'error')).toBe(false);
    const record = deepgram.fluxConnections.at(-1)!;
    expect(record.authorization).toBe('Token dg-key');
    expect(record.query).toMatchObject({
      model: 'flux-general-en',
      encoding: 'mulaw',
      sampleRate: 8000,
      eotThreshold: 0.7,
      tag: 'CA-basic',
    });
    expect(record.query.keyterms).toEqual(['Acme Dental', 'cleaning']);
    expect(record.received).toContainEqual({ type: 'CloseStream' });
  });

  it('runs flux-general-multi with the language as language_hint, and reports the language on each turn', async () => {
    // Arrange
    board.push('CA-multi', 'Quiero reservar una limpieza el martes');
    const stt = new DeepgramSpeechToText({ apiKey: 'dg-key', baseUrl: deepgram.baseUrl });
    const stream = await stt.open(options('CA-multi', { model: 'flux-general-multi', language: 'es' }));
    const { until } = collect(stream);

    // Act
    play(stream, silence(200), speech(1500), silence(640));
    const end = await until('end_of_turn');
    stream.close();
    await until('closed');

    // Assert
    expect(end).toMatchObject({ type: 'end_of_turn', transcript: 'Quiero reservar una limpieza el martes' });
    const record = deepgram.fluxConnections.at(-1)!;
    expect(record.query).toMatchObject({ model: 'flux-general-multi', languageHints: ['es'], tag: 'CA-multi' });
    expect(record.sent.find((m) => m.event === 'EndOfTurn')).toMatchObject({ languages: ['es'], languages_hinted: ['es'] });
    expect(board.language('CA-multi')).toBe('es');
  });

  it('with eager EOT: EagerEndOfTurn on a pause, TurnResumed when speech returns, EndOfTurn equal to the last eager', async () => {
    // Arrange
    board.push('CA-eager', 'I need to move my appointment');
    board.push('CA-eager', 'to Friday afternoon');
    const stt = new DeepgramSpeechToText({ apiKey: 'dg-key', baseUrl: deepgram.baseUrl });
    const stream = await stt.open(options('CA-eager', { eagerEotThreshold: 0.5 }));
    const { events, until } = collect(stream);
    // Act
    play(stream, speech(1000), silence(300), speech(800), silence(640));
    await until('end_of_turn');
    stream.close();
    // Assert
    const turnEvents = events.filter((e) => e.type !== 'update' && e.type !== 'closed');
    expect(turnEvents).toEqual([
      { type: 'start_of_turn', turnIndex: 0 },
      { type: 'eager_end_of_turn', turnIndex: 0, transcript: 'I need to move my appointment' },
      { type: 'turn_resumed', turnIndex: 0 },
      { type: 'eager_end_of_turn', turnIndex: 0, transcript: 'I need to move my appointment to Friday afternoon' },
      { type: 'end_of_turn', turnIndex: 0, transcript: 'I need to move my appointment to Friday afternoon', endOfSpeechMs: 2100 },
    ]);
    expect(deepgram.fluxConnections.at(-1)!.query.eagerEotThreshold).toBe(0.5);
  });

  it('counts turns: the second utterance is turn 1 with the next board text', async () => {
    // Arrange
    board.push('CA-two', 'Hello there');
    board.push('CA-two', 'Yes please');
    const stream = await new DeepgramSpeechToText({ apiKey: 'k', baseUrl: deepgram.baseUrl }).open(options('CA-two'));
    const { events } = collect(stream);
    // Act
    play(stream, speech(600), silence(1000), speech(500), silence(640));
    await vi.waitFor(() => expect(events.filter((e) => e.type === 'end_of_turn')).toHaveLength(2));
    // Assert
    const ends = events.filter((e) => e.type === 'end_of_turn');
    expect(ends).toMatchObject([
      { turnIndex: 0, transcript: 'Hello there' },
      { turnIndex: 1, transcript: 'Yes please' },
    ]);
    stream.close();
  });

  it('fails the stream when the server goes silent while audio flows (watchdog, injected clock)', async () => {
    // Arrange
    const silent = await DeepgramSandboxServer.start({ board });
    silent.setFluxFault('silent');
    let now = 0;
    const stt = new DeepgramSpeechToText({ apiKey: 'k', baseUrl: silent.baseUrl, watchdogMs: 1000, now: () => now });
    const stream = await stt.open(options('CA-silent'));
    const { events, until } = collect(stream);
    // Act
    for (let i = 0; i < 60 && events.length === 0; i++) {
      now += 20;
      stream.send(speech(20));
    }
    await until('closed');
    await silent.close();
    // Assert
    expect(events.map((e) => e.type)).toEqual(['error', 'closed']);
    const error = (events[0] as { error: ProviderError }).error;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.retryable).toBe(true);
    expect(now).toBe(1020);
  });

  it('watchdog: a turn left open by a stalled server fails; long caller silence with no turn does not', async () => {
    // Arrange
    const stalled = await DeepgramSandboxServer.start({ board });
    stalled.setFluxFault('stall-after-start-of-turn');
    let now = 0;
    const stt = new DeepgramSpeechToText({ apiKey: 'k', baseUrl: stalled.baseUrl, watchdogMs: 1000, now: () => now });
    const stream = await stt.open(options('CA-stall'));
    const { events, until } = collect(stream);
    const frame = (audio: Uint8Array) => {
      now += 20;
      stream.send(audio);
    };
    // Act: 3 s of silence (Connected arrived, no turn open), then speech until Flux opens a turn and stalls
    await vi.waitFor(() => expect(stalled.fluxConnections[0]?.sent.length).toBe(1));
    for (let i = 0; i < 150; i++) frame(silence(20));
    const quietErrors = events.length;
    for (let i = 0; i < 10; i++) frame(speech(20, i + 1));
    await until('start_of_turn');
    const openedAt = now;
    for (let i = 0; i < 100 && !events.some((e) => e.type === 'error'); i++) frame(speech(20, i + 50));
    await until('closed');
    await stalled.close();
    // Assert
    expect(quietErrors).toBe(0);
    expect(events.map((e) => e.type)).toEqual(['start_of_turn', 'error', 'closed']);
    expect(now - openedAt).toBeGreaterThan(1000);
    expect(now - openedAt).toBeLessThanOrEqual(1040);
  });

  it('reports a Flux Error message as an error event, then closed', async () => {
    // Arrange
    const faulty = await DeepgramSandboxServer.start({ board });
    faulty.setFluxFault('error');
    // Act
    const stream = await new DeepgramSpeechToText({ apiKey: 'k', baseUrl: faulty.baseUrl }).open(options('CA-err'));
    const { events, until } = collect(stream);
    await until('closed');
    await faulty.close();
    // Assert
    expect(events.map((e) => e.type)).toEqual(['error', 'closed']);
    expect((events[0] as { error: ProviderError }).error.message).toContain('INTERNAL_SERVER_ERROR');
  });

  it('rejects open() with a non-retryable 401 ProviderError when the key is refused', async () => {
    // Arrange
    const strict = await DeepgramSandboxServer.start({ board, apiKey: 'the-right-key' });
    const stt = new DeepgramSpeechToText({ apiKey: 'a-wrong-key', baseUrl: strict.baseUrl });
    // Act
    const error = await stt.open(options('CA-auth')).catch((e: unknown) => e);
    await strict.close();
    // Assert
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: 'deepgram', statusCode: 401, retryable: false });
    expect(strict.fluxConnections).toHaveLength(0);
  });

  it('closes without an error event when the signal aborts', async () => {
    // Arrange
    const controller = new AbortController();
    const stream = await new DeepgramSpeechToText({ apiKey: 'k', baseUrl: deepgram.baseUrl }).open(
      options('CA-abort', { signal: controller.signal }),
    );
    const { events, until } = collect(stream);
    // Act
    controller.abort();
    await until('closed');
    // Assert
    expect(events.map((e) => e.type)).toEqual(['closed']);
  });
});

describe('sandbox Deepgram handshake', () => {
  /** The HTTP status a raw WebSocket handshake gets (101 when upgraded). */
  function handshake(path: string, headers: Record<string, string>): Promise<number> {
    return new Promise((resolve) => {
      const ws = new WebSocket(`${deepgram.baseUrl}${path}`, { headers });
      ws.on('open', () => {
        ws.close();
        resolve(101);
      });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => undefined);
    });
  }

  it.each<{ path: string; headers: Record<string, string>; status: number }>([
    { path: '/v2/listen?model=flux-general-en&encoding=mulaw&sample_rate=8000', headers: {}, status: 401 },
    { path: '/v2/listen?model=flux-general-en&encoding=mulaw&sample_rate=8000', headers: { Authorization: 'Token ' }, status: 401 },
    { path: '/v2/listen?model=flux-general-en&encoding=mulaw&sample_rate=8000', headers: { Authorization: 'Token any' }, status: 101 },
    { path: '/v2/listen?model=flux-general-en&encoding=linear16&sample_rate=16000', headers: { Authorization: 'Token any' }, status: 400 },
    { path: '/v2/listen?model=nova-3&encoding=mulaw&sample_rate=8000', headers: { Authorization: 'Token any' }, status: 400 },
    { path: '/v1/speak?model=aura-2-thalia-en&encoding=mulaw&sample_rate=8000', headers: { Authorization: 'Bearer jwt' }, status: 101 },
    { path: '/v1/speak?model=aura-2-thalia-en&encoding=mulaw&sample_rate=8000', headers: {}, status: 401 },
    { path: '/v1/speak?model=aura-2-celeste-es&encoding=mulaw&sample_rate=8000', headers: { Authorization: 'Token any' }, status: 101 },
    { path: '/v1/speak?model=aura-2-nobody-es&encoding=mulaw&sample_rate=8000', headers: { Authorization: 'Token any' }, status: 400 },
    {
      path: '/v2/listen?model=flux-general-multi&language_hint=es&encoding=mulaw&sample_rate=8000',
      headers: { Authorization: 'Token any' },
      status: 101,
    },
    {
      path: '/v2/listen?model=flux-general-en&language_hint=es&encoding=mulaw&sample_rate=8000',
      headers: { Authorization: 'Token any' },
      status: 400,
    },
    {
      path: '/v2/listen?model=flux-general-multi&language_hint=tlh&encoding=mulaw&sample_rate=8000',
      headers: { Authorization: 'Token any' },
      status: 400,
    },
    { path: '/v1/listen?model=nova-3', headers: { Authorization: 'Token any' }, status: 404 },
  ])('$path with $headers → $status', async ({ path, headers, status }) => {
    expect(await handshake(path, headers)).toBe(status);
  });
});
