import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OpenAiRealtime } from '../../../media-service/src/adapters/openai-realtime';
import { verbatim } from '../../../media-service/src/call/live-conversation';
import type { S2sOpenOptions } from '../../../media-service/src/ports/speech-to-speech';
import { synthesizeSpeechLike } from '../../../media-service/src/sandbox/mulaw-signal';
import { OpenAiSandboxServer } from '../../../media-service/src/sandbox/openai-server';
import { TranscriptBoard } from '../../../media-service/src/sandbox/transcript-board';
import { silentLogger } from '../../../shared/log';
import { END_CALL, openRealtimeSession, watchSession } from '../../support/realtime-session';

/**
 * The live session's socket drops mid-call (docs/design.md "Provider faults"): the real Realtime
 * adapter against the sandbox `/v1/realtime` on loopback, dropped either by the stand-in (a fault
 * number's `stt-drop`) or by a TCP hop between them that the test cuts and holds, as a network
 * would.
 */

const board = new TranscriptBoard();
let openai: OpenAiSandboxServer;
let hop: NetworkHop;

beforeAll(async () => {
  // Audio streams a 100 ms chunk every 20 ms, so a reply is still under way when the test cuts it.
  openai = await OpenAiSandboxServer.start({
    board,
    apiKey: 'sk-right',
    realtime: { msPerChar: 10, firstAudioDelayMs: 0, chunkIntervalMs: 20 },
  });
  hop = await NetworkHop.start(Number(new URL(openai.baseUrl).port));
});

afterAll(async () => {
  await hop.close();
  await openai.close();
});

const GREETING = 'Hello, this is Acme Dental. We are open every weekday from nine in the morning to five in the evening.';

/**
 * A loopback TCP hop between the adapter and the sandbox: `cut()` destroys every connection
 * through it (the client sees its socket close with no close frame) and holds new ones until
 * `release()`, as a network that drops and comes back.
 */
class NetworkHop {
  readonly #server: Server;
  readonly #target: number;
  readonly #sockets = new Set<Socket>();
  #held: (() => void)[] = [];
  #holding = false;
  /** Connections accepted so far. */
  accepted = 0;

  private constructor(target: number) {
    this.#target = target;
    this.#server = createServer((client) => this.#accept(client));
  }

  static async start(target: number): Promise<NetworkHop> {
    const hop = new NetworkHop(target);
    await new Promise<void>((resolve) => hop.#server.listen(0, '127.0.0.1', resolve));
    return hop;
  }

  get baseUrl(): string {
    const address = this.#server.address() as { port: number };
    return `http://127.0.0.1:${address.port}/v1`;
  }

  cut(): void {
    this.#holding = true;
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
  }

  release(): void {
    this.#holding = false;
    for (const forward of this.#held.splice(0)) forward();
  }

  async close(): Promise<void> {
    this.cut();
    this.#held = [];
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(client: Socket): void {
    this.accepted++;
    this.#sockets.add(client);
    const forward = () => {
      const upstream = connect(this.#target, '127.0.0.1');
      this.#sockets.add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream).pipe(client);
    };
    if (this.#holding) this.#held.push(forward);
    else forward();
  }
}

function open(tag: string, overrides: Partial<S2sOpenOptions> = {}, baseUrl = openai.baseUrl) {
  return openRealtimeSession({ baseUrl }, tag, overrides);
}

const connectionsOf = (tag: string) => openai.realtime.connections.filter((connection) => connection.tag === tag);

describe('OpenAiRealtime: a dropped socket', () => {
  it('a dropped socket is replaced: the session as last set, the conversation, the reply under way asked again under its id', async () => {
    // Arrange
    board.setFault('CA-wire-drop', 'stt-drop');
    const faults: string[] = [];
    const { session, events, until } = open('CA-wire-drop', { onFault: (kind, detail) => faults.push(`${kind}: ${detail}`) });
    session.steer({ instructions: 'You are a receptionist. Be brief.', tools: [END_CALL] });
    session.setInterruptResponse(false);
    session.createResponse({ instructions: verbatim('Hello, this is Acme.'), tag: 'greeting' });
    const greeting = await until('transcript_done');
    await until('response_done');
    board.push('CA-wire-drop', 'I would like a cleaning.');

    // Act: the stand-in drops the socket once the reply to the caller's turn has started.
    session.appendAudio(synthesizeSpeechLike(800));
    session.appendAudio(new Uint8Array(8000).fill(0xff));
    const heard = await until('caller_transcript');
    const reply = await until('response_created', (event) => event.tag === undefined);
    const done = await until('response_done', (event) => event.responseId === reply.responseId);
    board.push('CA-wire-drop', 'Tuesday works.');
    session.appendAudio(synthesizeSpeechLike(900, 3));
    session.appendAudio(new Uint8Array(8000).fill(0xff));
    const later = await until('caller_transcript', (event) => event.text === 'Tuesday works.');
    await until('response_done', (event) => event.responseId !== reply.responseId && event.responseId !== done.responseId);
    session.close();
    await until('closed');

    // Assert
    const [dropped, replaced] = openai.realtime.connections.filter((connection) => connection.tag === 'CA-wire-drop');
    expect(dropped!.dropped).toBe(true);
    expect(heard.text).toBe('I would like a cleaning.');
    expect(later.itemId).not.toBe(heard.itemId);
    // The session as last set, then the conversation so far under the ids the call knows, then the reply asked again.
    expect(replaced!.received.slice(0, 4)).toEqual([
      {
        type: 'session.update',
        session: expect.objectContaining({
          instructions: 'You are a receptionist. Be brief.',
          audio: expect.objectContaining({
            input: expect.objectContaining({
              turn_detection: expect.objectContaining({ create_response: true, interrupt_response: false }),
            }),
            output: expect.objectContaining({ voice: 'marin' }),
          }),
        }),
      },
      {
        type: 'conversation.item.create',
        item: { id: greeting.itemId, type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello, this is Acme.' }] },
      },
      {
        type: 'conversation.item.create',
        item: { id: heard.itemId, type: 'message', role: 'user', content: [{ type: 'input_text', text: 'I would like a cleaning.' }] },
      },
      { type: 'response.create' },
    ]);
    // One reply the call saw start, go on and end whole: no second response_created for it, no error.
    expect(done).toMatchObject({ status: 'completed' });
    expect(events.filter((event) => event.type === 'response_created')).toHaveLength(3);
    expect(events.some((event) => event.type === 'transcript_done' && event.responseId === reply.responseId && event.text !== '')).toBe(
      true,
    );
    expect(events.filter((event) => event.type === 'error')).toEqual([]);
    expect(faults).toEqual([
      expect.stringMatching(/^stt_reconnects: Realtime closed the session unexpectedly \(code 1006\)\. Reconnected in \d+ ms: 2 items/),
    ]);
    const ms = Number(/Reconnected in (\d+) ms/.exec(faults[0]!)![1]);
    console.log(`openai realtime reconnect: ${ms} ms (${faults[0]})`);
    expect(ms).toBeLessThan(1000);
  });

  it('a drop no reconnect mends is a fatal error, then closed, after the whole schedule', async () => {
    // Arrange
    const lonely = await OpenAiSandboxServer.start({ board, apiKey: 'sk-right' });
    const faults: string[] = [];
    const realtime = new OpenAiRealtime({ apiKey: 'sk-right', baseUrl: lonely.baseUrl, log: silentLogger });
    const session = realtime.open({
      instructions: 'You are a receptionist.',
      voice: 'marin',
      tools: [],
      language: 'en',
      speed: 1,
      interruptResponse: true,
      signal: new AbortController().signal,
      onFault: (kind) => faults.push(kind),
    });
    const { events, until } = watchSession(session);
    await until('ready');
    const started = performance.now();

    // Act: the provider goes away, and its port refuses every new connection.
    await lonely.close();
    const failed = await until('error');
    await until('closed');
    const tookMs = performance.now() - started;

    // Assert
    expect(failed.fatal).toBe(true);
    expect(failed.error).toMatchObject({ retryable: true });
    expect(failed.error.message).toMatch(/closed the session unexpectedly.*Reconnecting failed/);
    expect(faults).toEqual([]);
    expect(events.map((event) => event.type)).toEqual(['ready', 'error', 'closed']);
    expect(tookMs).toBeGreaterThanOrEqual(650);
  });

  it('a reply of ours cut off mid-audio is asked again with the same request and goes on under its id', async () => {
    // Arrange
    const faults: string[] = [];
    const { session, events, until } = open('CA-hop-resume', { onFault: (_, detail) => faults.push(detail) }, hop.baseUrl);
    session.createResponse({ instructions: verbatim(GREETING), tag: 'greeting' });
    const created = await until('response_created');
    await until('audio');

    // Act: the network drops with the greeting's audio under way, and comes back once the adapter tries again.
    const accepted = hop.accepted;
    hop.cut();
    await vi.waitFor(() => expect(hop.accepted).toBeGreaterThan(accepted));
    hop.release();
    const done = await until('response_done');
    session.close();

    // Assert: one response from start to end, the greeting asked again whole.
    expect(done).toMatchObject({ responseId: created.responseId, status: 'completed' });
    expect(events.filter((event) => event.type === 'response_created')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'error')).toEqual([]);
    const said = events.filter((event) => event.type === 'transcript_done');
    expect(said.at(-1)).toMatchObject({ responseId: created.responseId, text: GREETING });
    const [, replaced] = connectionsOf('CA-hop-resume');
    expect(replaced!.received).toContainEqual({
      type: 'response.create',
      response: { instructions: verbatim(GREETING), metadata: { tag: 'greeting' } },
    });
    expect(faults).toEqual([expect.stringMatching(/^Realtime closed the session unexpectedly \(code 1006\)\. Reconnected in \d+ ms/)]);
  });

  it('a cut (barge-in) while no socket is up ends the reply under way at once, and it is not asked again', async () => {
    // Arrange
    const faults: string[] = [];
    const { session, events, until } = open('CA-hop-cancel', { onFault: (kind) => faults.push(kind) }, hop.baseUrl);
    session.createResponse({ instructions: verbatim(GREETING), tag: 'greeting' });
    const created = await until('response_created');
    await until('audio');
    const accepted = hop.accepted;
    hop.cut();
    await vi.waitFor(() => expect(hop.accepted).toBeGreaterThan(accepted));

    // Act: the caller cuts in while the new socket is still held.
    session.cancelResponse();
    const cancelled = events.find((event) => event.type === 'response_done');
    hop.release();
    await vi.waitFor(() => expect(faults).toEqual(['stt_reconnects']));
    session.createResponse({ instructions: verbatim('Still here.'), tag: 'reply' });
    await until('transcript_done', (event) => event.text === 'Still here.');
    session.close();

    // Assert
    expect(cancelled).toMatchObject({ responseId: created.responseId, status: 'cancelled' });
    const replaced = connectionsOf('CA-hop-cancel').at(-1)!;
    expect(replaced.received.filter((event) => event.type === 'response.create')).toEqual([
      { type: 'response.create', response: { instructions: verbatim('Still here.'), metadata: { tag: 'reply' } } },
    ]);
  });
});
