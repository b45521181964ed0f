import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { DeepgramTextToSpeech } from '../../../media-service/src/adapters/deepgram-text-to-speech';
import { OpenAiRealtime } from '../../../media-service/src/adapters/openai-realtime';
import { OpenAiSpeechToText } from '../../../media-service/src/adapters/openai-speech-to-text';

/**
 * The provider sockets we open ourselves offer no permessage-deflate: μ-law and PCM barely
 * compress, and a socket that negotiated it would cost a zlib context and a deflate per audio
 * frame (docs/performance.md "Issue 31: levers taken"). The server here would accept it.
 */

let server: WebSocketServer;
let base: string;
const upgrades: IncomingMessage[] = [];
let connected: (() => void) | undefined;

beforeAll(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: true });
  server.on('connection', (_socket, request) => {
    upgrades.push(request);
    connected?.();
  });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const client of server.clients) client.terminate();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Runs `open` and returns the upgrade request the server saw. */
async function upgradeOf(open: (signal: AbortSignal) => unknown): Promise<IncomingMessage> {
  const seen = new Promise<void>((resolve) => (connected = resolve));
  const controller = new AbortController();
  const opened = Promise.resolve(open(controller.signal)).catch(() => undefined);
  await seen;
  controller.abort();
  await opened;
  return upgrades.at(-1)!;
}

describe('provider WebSockets offer no permessage-deflate', () => {
  it('the Aura voice', async () => {
    const request = await upgradeOf((signal) =>
      new DeepgramTextToSpeech({ apiKey: 'k', baseUrl: `ws://${base}` }).open({ voice: '', speed: 1, signal }),
    );
    expect(request.url).toMatch(/^\/v1\/speak\?/);
    expect(request.headers['sec-websocket-extensions']).toBeUndefined();
  });

  it('the OpenAI Realtime session', async () => {
    const request = await upgradeOf((signal) =>
      new OpenAiRealtime({ apiKey: 'k', baseUrl: `http://${base}/v1` }).open({
        instructions: 'Be brief.',
        voice: 'marin',
        tools: [],
        language: 'en',
        speed: 1,
        interruptResponse: true,
        signal,
      }),
    );
    expect(request.url).toMatch(/^\/v1\/realtime\?model=/);
    expect(request.headers['sec-websocket-extensions']).toBeUndefined();
  });

  it('the OpenAI transcription session', async () => {
    const request = await upgradeOf((signal) =>
      new OpenAiSpeechToText({ apiKey: 'k', baseUrl: `http://${base}/v1`, connectTimeoutMs: 1000 }).open({
        model: 'gpt-4o-mini-transcribe',
        language: 'en',
        keyterms: [],
        eotThreshold: 0.7,
        tag: 'CA1',
        signal,
      }),
    );
    expect(request.url).toMatch(/^\/v1\/realtime\?intent=transcription/);
    expect(request.headers['sec-websocket-extensions']).toBeUndefined();
  });
});
