import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../shared/errors';
import { DeepgramTextToSpeech } from '../../../media-service/src/adapters/deepgram-text-to-speech';
import type { TtsEvent, TtsStream } from '../../../media-service/src/ports/text-to-speech';
import { auraAudioBytes } from '../../../media-service/src/sandbox/aura-session';
import { DeepgramSandboxServer } from '../../../media-service/src/sandbox/deepgram-server';
import { mulawRms } from '../../../media-service/src/sandbox/mulaw-signal';
import { TranscriptBoard } from '../../../media-service/src/sandbox/transcript-board';

/** The real Aura adapter against the sandbox Aura on loopback. */

let deepgram: DeepgramSandboxServer;

beforeAll(async () => {
  deepgram = await DeepgramSandboxServer.start({ board: new TranscriptBoard(), aura: { firstByteDelayMs: 40 } });
});

afterAll(async () => {
  await deepgram.close();
});

function watch(stream: TtsStream) {
  const events: TtsEvent[] = [];
  const waiters: { type: TtsEvent['type']; resolve: () => void }[] = [];
  stream.on((event) => {
    events.push(event);
    for (const w of waiters.filter((w) => w.type === event.type)) w.resolve();
  });
  const until = (type: TtsEvent['type'], count = 1) =>
    new Promise<void>((resolve, reject) => {
      const check = () => events.filter((e) => e.type === type).length >= count;
      if (check()) return resolve();
      waiters.push({ type, resolve: () => check() && resolve() });
      setTimeout(() => reject(new Error(`no ${type} x${count}; saw ${events.map((e) => e.type).join(',')}`)), 5000).unref();
    });
  const audio = () => Buffer.concat(events.flatMap((e) => (e.type === 'audio' ? [e.mulaw] : [])));
  return { events, until, audio };
}

function tts() {
  return new DeepgramTextToSpeech({ apiKey: 'dg-key', baseUrl: deepgram.baseUrl });
}

describe('DeepgramTextToSpeech against the sandbox Aura', () => {
  it('returns speech-like μ-law whose length follows the text, then flushed', async () => {
    // Arrange
    const text = 'Thanks for calling Acme Dental, how can I help?';
    const stream = tts().open({ voice: '', speed: 1, signal: new AbortController().signal });
    const { events, until, audio } = watch(stream);
    // Act
    stream.speak(text);
    stream.flush();
    await until('flushed');
    stream.close();
    await until('closed');
    // Assert
    expect(audio().length).toBe(auraAudioBytes(text, 1));
    expect(mulawRms(audio())).toBeGreaterThan(1000);
    expect(events.findLastIndex((e) => e.type === 'audio')).toBeLessThan(events.findIndex((e) => e.type === 'flushed'));
    const first = events.find((e) => e.type === 'audio') as { firstByteMs?: number };
    expect(first.firstByteMs).toBeGreaterThanOrEqual(35);
    const record = deepgram.auraConnections.at(-1)!;
    expect(record.query).toEqual({ model: 'aura-2-thalia-en', encoding: 'mulaw', sampleRate: 8000, speed: 1 });
    expect(record.authorization).toBe('Token dg-key');
    expect(record.received).toEqual([{ type: 'Speak', text }, { type: 'Flush' }, { type: 'Close' }]);
  });

  it('sends the voice as the model and scales the audio length by speed', async () => {
    // Arrange
    const text = 'Your appointment is confirmed for Tuesday at ten.';
    const slow = tts().open({ voice: 'aura-2-orion-en', speed: 0.8, signal: new AbortController().signal });
    const fast = tts().open({ voice: 'aura-2-orion-en', speed: 1.2, signal: new AbortController().signal });
    const s = watch(slow);
    const f = watch(fast);
    // Act
    for (const stream of [slow, fast]) {
      stream.speak(text);
      stream.flush();
    }
    await Promise.all([s.until('flushed'), f.until('flushed')]);
    slow.close();
    fast.close();
    // Assert
    expect(s.audio().length).toBe(auraAudioBytes(text, 0.8));
    expect(f.audio().length).toBe(auraAudioBytes(text, 1.2));
    expect(s.audio().length / f.audio().length).toBeCloseTo(1.5, 1);
    expect(deepgram.auraConnections.map((c) => c.query.model)).toContain('aura-2-orion-en');
  });

  it('reports a first-byte time per segment: after each flushed the next speak starts a new measurement', async () => {
    // Arrange
    const stream = tts().open({ voice: '', speed: 1, signal: new AbortController().signal });
    const { events, until } = watch(stream);
    // Act
    stream.speak('First sentence.');
    stream.flush();
    await until('flushed');
    stream.speak('Second sentence, ');
    stream.speak('in two parts.');
    stream.flush();
    await until('flushed', 2);
    stream.close();
    // Assert
    const timed = events.filter((e) => e.type === 'audio' && e.firstByteMs !== undefined);
    expect(timed).toHaveLength(2);
  });

  it('clear() before the first byte drops the pending text; later speech is unaffected', async () => {
    // Arrange
    deepgram.setAuraTuning({ firstByteDelayMs: 150 });
    const stream = tts().open({ voice: '', speed: 1, signal: new AbortController().signal });
    const { events, until, audio } = watch(stream);
    // Act
    stream.speak('This long answer will be interrupted by the caller before any audio is heard.');
    stream.flush();
    await new Promise((r) => setTimeout(r, 30));
    stream.clear();
    await until('cleared');
    stream.speak('Sure.');
    stream.flush();
    await until('flushed');
    stream.close();
    deepgram.setAuraTuning({ firstByteDelayMs: 40 });
    // Assert
    expect(events.map((e) => e.type).filter((t) => t !== 'audio')).toEqual(['cleared', 'flushed']);
    expect(audio().length).toBe(auraAudioBytes('Sure.', 1));
  });

  it('clear() mid-stream drops audio still in flight until Cleared', async () => {
    // Arrange
    deepgram.setAuraTuning({ chunkIntervalMs: 20, chunkBytes: 320 });
    const text = 'A long reply that streams slowly so that the caller can barge in halfway through it.';
    const stream = tts().open({ voice: '', speed: 1, signal: new AbortController().signal });
    const { events, until, audio } = watch(stream);
    // Act
    stream.speak(text);
    stream.flush();
    await until('audio', 3);
    stream.clear();
    const atClear = audio().length;
    await until('cleared');
    await new Promise((r) => setTimeout(r, 80));
    stream.close();
    deepgram.setAuraTuning({ chunkIntervalMs: 0, chunkBytes: 1600 });
    // Assert
    expect(audio().length).toBe(atClear);
    expect(atClear).toBeLessThan(auraAudioBytes(text, 1));
    expect(events.some((e) => e.type === 'flushed')).toBe(false);
  });

  it('reports a refused key as a non-retryable 401 error, then closed', async () => {
    // Arrange
    const strict = await DeepgramSandboxServer.start({ board: new TranscriptBoard(), apiKey: 'right' });
    const stream = new DeepgramTextToSpeech({ apiKey: 'wrong', baseUrl: strict.baseUrl }).open({
      voice: '',
      speed: 1,
      signal: new AbortController().signal,
    });
    const { events, until } = watch(stream);
    // Act
    stream.speak('Hello?');
    await until('closed');
    await strict.close();
    // Assert
    expect(events.map((e) => e.type)).toEqual(['error', 'closed']);
    const error = (events[0] as { error: ProviderError }).error;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ statusCode: 401, retryable: false });
  });

  it('closes quietly when the signal aborts', async () => {
    // Arrange
    const controller = new AbortController();
    const stream = tts().open({ voice: '', speed: 1, signal: controller.signal });
    const { events, until } = watch(stream);
    stream.speak('Hello there.');
    // Act
    controller.abort();
    await until('closed');
    // Assert
    expect(events.map((e) => e.type)).toEqual(['closed']);
  });
});
