import { DeepgramClient, Deepgram, DeepgramError } from '@deepgram/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeepgramSandboxServer } from '../../../media-service/src/sandbox/deepgram-server';
import { TranscriptBoard } from '../../../media-service/src/sandbox/transcript-board';

/**
 * The Deepgram stand-in answers Aura over REST (`speak.v1.audio.generate`, POST /v1/speak) as
 * the official `@deepgram/sdk` calls it: the utterance as audio bytes (WAV by default, raw with
 * `container: 'none'`), and Deepgram's 400 / 401 for what it refuses.
 */

let deepgram: DeepgramSandboxServer;

beforeAll(async () => {
  deepgram = await DeepgramSandboxServer.start({ board: new TranscriptBoard(), apiKey: 'dg-right' });
});

afterAll(async () => {
  await deepgram?.close();
});

/** REST and WebSocket bases split, as `environment` allows (docs/protocols.md "Pointing the SDKs"). */
const client = (apiKey = 'dg-right') =>
  new DeepgramClient({
    apiKey,
    environment: { base: deepgram.httpUrl, production: deepgram.baseUrl, agent: deepgram.baseUrl, agentRest: deepgram.httpUrl },
  });

const bytesOf = async (response: { arrayBuffer(): Promise<ArrayBuffer> }) => Buffer.from(await response.arrayBuffer());

describe('speak.v1.audio.generate against the sandbox Deepgram', () => {
  it('answers μ-law 8 kHz in a WAV container by default: a valid header, then audio that grows with the text', async () => {
    // Act
    const short = await client().speak.v1.audio.generate({ text: 'Hi.', model: 'aura-2-thalia-en', encoding: 'mulaw', sample_rate: 8000 });
    const long = await client().speak.v1.audio.generate({
      text: 'Your appointment is confirmed for Tuesday at three in the afternoon.',
      model: 'aura-2-thalia-en',
      encoding: 'mulaw',
      sample_rate: 8000,
    });
    // Assert
    const shortBytes = await bytesOf(short);
    const longBytes = await bytesOf(long);
    expect(shortBytes.toString('ascii', 0, 4)).toBe('RIFF');
    expect(shortBytes.toString('ascii', 8, 12)).toBe('WAVE');
    expect(shortBytes.readUInt16LE(20)).toBe(7); // μ-law
    expect(shortBytes.readUInt32LE(24)).toBe(8000);
    expect(shortBytes.readUInt32LE(40)).toBe(shortBytes.length - 44);
    expect(longBytes.length).toBeGreaterThan(shortBytes.length);
  });

  it('container none: raw μ-law with no header; linear16 at 16 kHz: two bytes a sample', async () => {
    const raw = await bytesOf(
      await client().speak.v1.audio.generate({
        text: 'Hello there.',
        model: 'aura-2-celeste-es',
        encoding: 'mulaw',
        sample_rate: 8000,
        container: 'none',
      }),
    );
    const pcm = await bytesOf(
      await client().speak.v1.audio.generate({
        text: 'Hello there.',
        model: 'aura-2-celeste-es',
        encoding: 'linear16',
        sample_rate: 16000,
      }),
    );
    expect(raw.toString('ascii', 0, 4)).not.toBe('RIFF');
    expect(raw.length % 160).toBe(0); // whole 20 ms frames
    expect(pcm.readUInt16LE(20)).toBe(1); // PCM
    expect(pcm.readUInt32LE(24)).toBe(16000);
    expect(pcm.length - 44).toBe(raw.length * 4);
  });

  it.each([
    ['a voice that is not Aura-2', { model: 'aura-2-nobody-en' as Deepgram.speak.v1.AudioGenerateRequestModel, encoding: 'mulaw' }],
    ['empty text', { text: ' ', encoding: 'mulaw' }],
    ['a compressed encoding the sandbox cannot make', { encoding: 'mp3' }],
  ])('refuses %s: BadRequestError 400 with Deepgram’s {err_code, err_msg, request_id}', async (_, extra) => {
    const error = await client()
      .speak.v1.audio.generate({ text: 'Hello.', model: 'aura-2-thalia-en', ...extra } as Deepgram.speak.v1.SpeakV1Request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Deepgram.BadRequestError);
    expect(error).toMatchObject({
      statusCode: 400,
      body: { err_code: expect.any(String), err_msg: expect.any(String), request_id: expect.any(String) },
    });
  });

  it('a wrong key is a 401 DeepgramError', async () => {
    const error = await client('dg-wrong')
      .speak.v1.audio.generate({ text: 'Hello.', model: 'aura-2-thalia-en', encoding: 'mulaw' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeepgramError);
    expect(error).toMatchObject({ statusCode: 401 });
  });
});
