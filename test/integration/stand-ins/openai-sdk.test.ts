import OpenAI, { toFile } from 'openai';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_OPENAI_API_KEY } from '../../../media-service/src/sandbox/openai-auth';
import { OpenAiSandboxServer } from '../../../media-service/src/sandbox/openai-server';
import { DEFAULT_SANDBOX_TRANSCRIPT } from '../../../media-service/src/sandbox/openai-transcriptions';

/**
 * The sandbox OpenAI answers the official `openai` SDK as OpenAI does: `models.list`,
 * `audio.transcriptions.create` (multipart), and the one key the local stack uses: any other key,
 * or none, is OpenAI's 401 on every route.
 */

let openai: OpenAiSandboxServer;

beforeAll(async () => {
  openai = await OpenAiSandboxServer.start({ ttftMs: 0, tokenIntervalMs: 0 });
});

afterAll(async () => {
  await openai?.close();
});

const client = (apiKey = SANDBOX_OPENAI_API_KEY) => new OpenAI({ apiKey, baseURL: openai.baseUrl, maxRetries: 0 });

/** A WAV file of `seconds` of 8 kHz μ-law silence. */
function wav(seconds: number): Buffer {
  const data = Buffer.alloc(seconds * 8000, 0xff);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(7, 20); // μ-law
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

describe('models', () => {
  it('models.list pages through OpenAI’s model objects', async () => {
    const models = [];
    for await (const model of client().models.list()) models.push(model);
    expect(models.map((model) => model.id)).toEqual(expect.arrayContaining(['gpt-4.1-mini', 'gpt-realtime', 'whisper-1']));
    expect(models[0]).toEqual({ id: expect.any(String), object: 'model', created: expect.any(Number), owned_by: expect.any(String) });
  });

  it('models.retrieve of an unknown model is a 404 NotFoundError with code model_not_found', async () => {
    const error = await client()
      .models.retrieve('gpt-nonexistent')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'model_not_found', type: 'invalid_request_error' });
  });
});

describe('audio.transcriptions', () => {
  it('transcribes an uploaded file: the queued transcript, as json and as text', async () => {
    // Arrange
    openai.queueTranscript('I would like to book a table for two.');
    // Act
    const json = await client().audio.transcriptions.create({
      file: await toFile(wav(2), 'caller.wav'),
      model: 'gpt-4o-transcribe',
    });
    const text = await client().audio.transcriptions.create({
      file: await toFile(wav(1), 'caller.wav'),
      model: 'whisper-1',
      response_format: 'text',
    });
    // Assert
    expect(json.text).toBe('I would like to book a table for two.');
    expect(text).toBe(`${DEFAULT_SANDBOX_TRANSCRIPT}\n`);
  });

  it('verbose_json (whisper-1) gives the duration read from the file', async () => {
    const verbose = await client().audio.transcriptions.create({
      file: await toFile(wav(3), 'caller.wav'),
      model: 'whisper-1',
      response_format: 'verbose_json',
    });
    expect(verbose).toMatchObject({ duration: 3, text: DEFAULT_SANDBOX_TRANSCRIPT });
  });

  it.each([
    ['a model that does not transcribe', { model: 'gpt-4.1-mini', name: 'a.wav', format: 'json' }, 'model'],
    ['a file type OpenAI does not take', { model: 'whisper-1', name: 'notes.txt', format: 'json' }, 'file'],
    ['verbose_json from a model without it', { model: 'gpt-4o-transcribe', name: 'a.wav', format: 'verbose_json' }, 'response_format'],
  ])('refuses %s: 400 BadRequestError naming the parameter', async (_, input, param) => {
    const error = await client()
      .audio.transcriptions.create({
        file: await toFile(wav(1), input.name),
        model: input.model,
        response_format: input.format as 'json',
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param, type: 'invalid_request_error' });
  });
});

describe('API keys', () => {
  it.each([
    [
      'chat.completions.create',
      (c: OpenAI) => c.chat.completions.create({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'hi' }] }),
    ],
    ['embeddings.create', (c: OpenAI) => c.embeddings.create({ model: 'text-embedding-3-small', input: 'hi' })],
    ['models.list', (c: OpenAI) => c.models.list()],
    [
      'audio.transcriptions.create',
      async (c: OpenAI) => c.audio.transcriptions.create({ file: await toFile(wav(1), 'a.wav'), model: 'whisper-1' }),
    ],
  ])('%s with a wrong key: 401 AuthenticationError, invalid_api_key, the key masked', async (_, call) => {
    const error = await Promise.resolve(call(client('sk-wrong-key-0123456789'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key', type: 'invalid_request_error' });
    expect((error as Error).message).toContain('Incorrect API key provided: sk-w');
    expect((error as Error).message).not.toContain('sk-wrong-key-0123456789');
  });

  it('no key at all: 401, OpenAI’s “You didn’t provide an API key”', async () => {
    const response = await fetch(`${openai.baseUrl}/models`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: { message: expect.stringMatching(/^You didn't provide an API key/), type: 'invalid_request_error', param: null, code: null },
    });
  });

  it('the realtime upgrade refuses a wrong key with the same 401', async () => {
    const url = `${openai.baseUrl.replace('http:', 'ws:')}/realtime?model=gpt-realtime`;
    const socket = new WebSocket(url, { headers: { authorization: 'Bearer sk-wrong' } });
    const status = await new Promise<number | undefined>((resolve) => {
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode));
      socket.on('open', () => resolve(undefined));
      socket.on('error', () => undefined);
    });
    socket.terminate();
    expect(status).toBe(401);
  });

  it('the local stack’s key works', async () => {
    await expect(client(SANDBOX_OPENAI_API_KEY).models.list()).resolves.toBeDefined();
  });
});
