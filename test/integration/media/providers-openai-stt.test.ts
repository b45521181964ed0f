import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../shared/errors';
import { OpenAiSpeechToText } from '../../../media-service/src/adapters/openai-speech-to-text';
import type { SttEvent, SttOpenOptions, SttStream } from '../../../media-service/src/ports/speech-to-text';
import { OpenAiSandboxServer } from '../../../media-service/src/sandbox/openai-server';
import { TranscriptBoard } from '../../../media-service/src/sandbox/transcript-board';
import { SANDBOX_OPENAI_API_KEY } from '../../../media-service/src/sandbox/openai-auth';

/**
 * The real OpenAI transcription adapter (`ws`, GA `?intent=transcription`) against the sandbox
 * OpenAI on loopback. Audio is synthesised: loud pseudo-random μ-law for speech, 0xFF for silence;
 * the sandbox runs on audio time, so the events depend only on the bytes sent.
 */

function speech(ms: number, seed = 7): Uint8Array {
  const out = new Uint8Array(ms * 8);
  let x = seed;
  for (let i = 0; i < out.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out[i] = (x & 0x10000 ? 0x80 : 0) | (0x10 + (x % 0x20));
  }
  return out;
}

const silence = (ms: number) => new Uint8Array(ms * 8).fill(0xff);

function play(stream: SttStream, ...parts: Uint8Array[]): void {
  for (const part of parts) for (let i = 0; i < part.length; i += 160) stream.send(part.subarray(i, i + 160));
}

function collect(stream: SttStream) {
  const events: SttEvent[] = [];
  const waiters: { test: (e: SttEvent) => boolean; resolve: (e: SttEvent) => void }[] = [];
  stream.on((event) => {
    events.push(event);
    for (const w of waiters.filter((w) => w.test(event))) w.resolve(event);
  });
  const until = (type: SttEvent['type'], count = 1) =>
    new Promise<SttEvent>((resolve, reject) => {
      const test = (e: SttEvent) => e.type === type && events.filter((x) => x.type === type).length >= count;
      const seen = events.filter((e) => e.type === type)[count - 1];
      if (seen) return resolve(seen);
      waiters.push({ test, resolve });
      setTimeout(() => reject(new Error(`no ${type} #${count} within 5 s; saw ${events.map((e) => e.type).join(',')}`)), 5000).unref();
    });
  return { events, until };
}

let board: TranscriptBoard;
let openai: OpenAiSandboxServer;

beforeAll(async () => {
  board = new TranscriptBoard();
  openai = await OpenAiSandboxServer.start({ board });
});

afterAll(async () => {
  await openai.close();
});

function options(tag: string, extra: Partial<SttOpenOptions> = {}): SttOpenOptions {
  return { model: 'gpt-transcribe', language: 'en', keyterms: [], eotThreshold: 0.7, tag, signal: new AbortController().signal, ...extra };
}

const adapter = (apiKey = SANDBOX_OPENAI_API_KEY) => new OpenAiSpeechToText({ apiKey, baseUrl: openai.baseUrl, sendTag: true });

describe('OpenAiSpeechToText against the sandbox OpenAI', () => {
  it('maps server VAD and transcription onto start of turn, growing interim text and end of turn', async () => {
    // Arrange
    board.push('CA-oa-basic', 'Quiero reservar una limpieza');
    const stream = await adapter().open(options('CA-oa-basic', { language: 'es-MX', keyterms: ['Acme Dental'] }));
    const { events, until } = collect(stream);

    // Act
    play(stream, silence(200), speech(1500), silence(800));
    const end = await until('end_of_turn');
    stream.close();
    await until('closed');

    // Assert
    expect(events[0]).toEqual({ type: 'start_of_turn', turnIndex: 0 });
    expect(end).toEqual({ type: 'end_of_turn', turnIndex: 0, transcript: 'Quiero reservar una limpieza', endOfSpeechMs: 1700 });
    const updates = events.filter((e) => e.type === 'update').map((e) => (e as { transcript: string }).transcript);
    expect(updates).toEqual(['Quiero', 'Quiero reservar', 'Quiero reservar una', 'Quiero reservar una limpieza']);
    expect(events.some((e) => e.type === 'eager_end_of_turn' || e.type === 'turn_resumed' || e.type === 'error')).toBe(false);
    const record = openai.realtime.transcriptions.at(-1)!;
    expect(record.authorization).toBe(`Bearer ${SANDBOX_OPENAI_API_KEY}`);
    expect(record.received[0]).toEqual({
      type: 'session.update',
      session: {
        type: 'transcription',
        audio: {
          input: {
            format: { type: 'audio/pcmu' },
            transcription: { model: 'gpt-transcribe', language: 'es', keywords: ['Acme Dental'] },
            turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 500 },
            noise_reduction: { type: 'near_field' },
          },
        },
      },
    });
    expect(record.sent.map((m) => m.type)).toEqual(
      expect.arrayContaining(['session.created', 'session.updated', 'input_audio_buffer.speech_started', 'input_audio_buffer.committed']),
    );
    expect(board.language('CA-oa-basic')).toBe('es');
  });

  it('numbers consecutive utterances as consecutive turns', async () => {
    // Arrange
    board.push('CA-oa-two', 'Hello there');
    board.push('CA-oa-two', 'Tuesday works');
    const stream = await adapter().open(options('CA-oa-two', { model: 'gpt-4o-transcribe', keyterms: ['Acme'] }));
    const { until } = collect(stream);

    // Act
    play(stream, speech(800), silence(800), speech(800, 3), silence(800));
    const second = await until('end_of_turn', 2);
    stream.close();

    // Assert
    expect(second).toMatchObject({ turnIndex: 1, transcript: 'Tuesday works' });
    const update = openai.realtime.transcriptions.at(-1)!.received[0] as { session: { audio: { input: { transcription: unknown } } } };
    expect(update.session.audio.input.transcription).toEqual({
      model: 'gpt-4o-transcribe',
      language: 'en',
      prompt: 'Expect these terms: Acme.',
    });
  });

  it('close() mid-utterance commits it, so the last words end the turn before `closed`', async () => {
    // Arrange
    board.push('CA-oa-hangup', 'Thanks bye');
    const stream = await adapter().open(options('CA-oa-hangup'));
    const { events, until } = collect(stream);

    // Act
    play(stream, speech(600));
    await until('start_of_turn');
    stream.close();
    await until('closed');

    // Assert
    expect(events.filter((e) => e.type === 'end_of_turn')).toEqual([
      { type: 'end_of_turn', turnIndex: 0, transcript: 'Thanks bye', endOfSpeechMs: 600 },
    ]);
    expect(openai.realtime.transcriptions.at(-1)!.received).toContainEqual({ type: 'input_audio_buffer.commit' });
  });

  it('rejects with a ProviderError (401) when the key is refused', async () => {
    // Arrange
    const strict = await OpenAiSandboxServer.start({ board, apiKey: 'sk-right' });
    const wrong = new OpenAiSpeechToText({ apiKey: 'sk-wrong', baseUrl: strict.baseUrl });

    // Act
    const error = await wrong.open(options('CA-oa-401')).catch((e: unknown) => e);
    await strict.close();

    // Assert
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: 'openai', statusCode: 401 });
  });

  it('rejects when the provider refuses the session (a model it does not know)', async () => {
    // Act
    const error = await adapter()
      .open(options('CA-oa-model', { model: 'flux-general-en' }))
      .catch((e: unknown) => e);

    // Assert
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toMatch(/invalid_value.*session\.audio\.input\.transcription\.model/);
  });

  it('a dropped socket is replaced: the same session again, the audio since the last turn replayed, no words lost', async () => {
    // Arrange
    board.setFault('CA-oa-drop', 'stt-drop');
    board.push('CA-oa-drop', 'I need a cleaning');
    board.push('CA-oa-drop', 'Tuesday morning works');
    const faults: string[] = [];
    const stream = await adapter().open(options('CA-oa-drop', { onFault: (kind, detail) => faults.push(`${kind}: ${detail}`) }));
    const { events, until } = collect(stream);

    // Act: the stand-in drops the socket right after the first transcript; the caller goes straight on.
    play(stream, speech(800), silence(800));
    await until('end_of_turn');
    play(stream, speech(900, 3), silence(800));
    const second = await until('end_of_turn', 2);
    stream.close();
    await until('closed');

    // Assert
    const [dropped, replaced] = openai.realtime.transcriptions.filter((record) => record.tag === 'CA-oa-drop');
    expect(dropped!.dropped).toBe(true);
    expect(replaced!.received[0]).toEqual(dropped!.received[0]);
    expect(second).toMatchObject({ type: 'end_of_turn', turnIndex: 1, transcript: 'Tuesday morning works' });
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
    expect(faults).toEqual([
      expect.stringMatching(/^stt_reconnects: Realtime transcription closed unexpectedly \(code 1006\)\. Reconnected in \d+ ms/),
    ]);
    const ms = Number(/Reconnected in (\d+) ms/.exec(faults[0]!)![1]);
    console.log(`openai transcription reconnect: ${ms} ms (${faults[0]})`);
    expect(ms).toBeLessThan(1000);
    // The second utterance went whole to the new socket (the first turn's audio did not), and its time goes on from the old socket's.
    expect(replaced!.audioBytes).toBeGreaterThanOrEqual((900 + 800) * 8);
    expect(replaced!.audioBytes).toBeLessThan((800 + 900 + 800 + 800) * 8);
    expect((second as { endOfSpeechMs: number }).endOfSpeechMs).toBeGreaterThan(1600);
  });

  it('reports the drop as an error, then closed, only when every reconnect attempt fails', async () => {
    // Arrange
    const lonely = await OpenAiSandboxServer.start({ board });
    const faults: string[] = [];
    const stream = await new OpenAiSpeechToText({ apiKey: SANDBOX_OPENAI_API_KEY, baseUrl: lonely.baseUrl, sendTag: true }).open(
      options('CA-oa-gone', { onFault: (kind) => faults.push(kind) }),
    );
    const { events, until } = collect(stream);
    const started = performance.now();

    // Act: the provider goes away, and its port refuses every new connection.
    await lonely.close();
    const error = await until('error');
    await until('closed');
    const tookMs = performance.now() - started;

    // Assert
    expect((error as { error: ProviderError }).error).toBeInstanceOf(ProviderError);
    expect((error as { error: ProviderError }).error.message).toMatch(/closed unexpectedly.*Reconnecting failed/);
    expect(faults).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['error', 'closed']);
    // Three attempts: at once, after 200 ms and after 500 ms more.
    expect(tookMs).toBeGreaterThanOrEqual(650);
  });
});
