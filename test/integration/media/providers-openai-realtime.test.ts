import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProviderError } from '../../../shared/errors';
import { verbatim } from '../../../media-service/src/call/live-conversation';
import { stepTool } from '../../../media-service/src/call/workflow/node-type';
import type { S2sOpenOptions } from '../../../media-service/src/ports/speech-to-speech';
import { synthesizeSpeechLike } from '../../../media-service/src/sandbox/mulaw-signal';
import { OpenAiSandboxServer } from '../../../media-service/src/sandbox/openai-server';
import { TranscriptBoard } from '../../../media-service/src/sandbox/transcript-board';
import { END_CALL, openRealtimeSession } from '../../support/realtime-session';

/** The real Realtime adapter against the sandbox `/v1/realtime` on loopback: the GA wire protocol. */

const board = new TranscriptBoard();
let openai: OpenAiSandboxServer;

beforeAll(async () => {
  openai = await OpenAiSandboxServer.start({ board, apiKey: 'sk-right', realtime: { msPerChar: 10, firstAudioDelayMs: 0 } });
});

afterAll(async () => {
  await openai.close();
});

function open(tag: string, overrides: Partial<S2sOpenOptions> = {}, apiKey = 'sk-right') {
  return openRealtimeSession({ baseUrl: openai.baseUrl, apiKey }, tag, overrides);
}

describe('OpenAiRealtime against the sandbox Realtime endpoint', () => {
  it('connects with a bearer key and configures a GA session: pcmu both ways, the voice, server VAD, transcription, tools', async () => {
    // Act
    const { session, until } = open('CA-wire-1');
    await until('ready');
    session.close();
    // Assert
    const connection = openai.realtime.connections.find((candidate) => candidate.tag === 'CA-wire-1')!;
    expect(connection).toMatchObject({ model: 'gpt-realtime', authorization: 'Bearer sk-right' });
    const update = connection.received[0] as { type: string; session: Record<string, unknown> };
    expect(update.type).toBe('session.update');
    expect(update.session).not.toHaveProperty('temperature');
    expect(update.session).toMatchObject({
      type: 'realtime',
      instructions: 'You are a receptionist.',
      output_modalities: ['audio'],
      tool_choice: 'auto',
      audio: {
        input: {
          format: { type: 'audio/pcmu' },
          transcription: { model: 'gpt-4o-mini-transcribe', language: 'en' },
          turn_detection: { type: 'server_vad', silence_duration_ms: 500, create_response: true, interrupt_response: true },
        },
        output: { format: { type: 'audio/pcmu' }, voice: 'marin', speed: 1 },
      },
      tools: [{ type: 'function', name: 'end_call', description: 'Hang up.', parameters: { type: 'object', properties: {} } }],
    });
  });

  it('a tagged response.create: created with its tag, μ-law deltas, transcript, response.done with usage', async () => {
    // Act
    const { session, events, until } = open('CA-wire-2');
    session.createResponse({ instructions: verbatim('Hello there, this is Acme.'), tag: 'greeting' });
    const done = await until('response_done');
    session.close();
    // Assert
    expect(events.find((event) => event.type === 'response_created')).toMatchObject({ tag: 'greeting', responseId: done.responseId });
    const audio = events.flatMap((event) => (event.type === 'audio' ? [event.mulaw.length] : [])).reduce((a, b) => a + b, 0);
    expect(audio).toBeGreaterThanOrEqual('Hello there, this is Acme.'.length * 10 * 8);
    expect(events.find((event) => event.type === 'transcript_done')).toMatchObject({ text: 'Hello there, this is Acme.' });
    expect(done).toMatchObject({ status: 'completed' });
    expect(done.usage.output).toBeGreaterThan(0);
  });

  it('the caller speaks: speech started/stopped, their words from the board, a reply with an end_call function call', async () => {
    // Arrange
    const { session, until } = open('CA-wire-3');
    board.push('CA-wire-3', 'Thanks, goodbye!');
    // Act
    session.appendAudio(synthesizeSpeechLike(800));
    session.appendAudio(new Uint8Array(8000).fill(0xff));
    const heard = await until('caller_transcript');
    const call = await until('function_call');
    session.close();
    // Assert
    expect(heard.text).toBe('Thanks, goodbye!');
    expect(call).toMatchObject({ name: 'end_call' });
  });

  it('a truncation past the audio generated is refused with the real error text; the session stays up', async () => {
    // Arrange
    const { session, until } = open('CA-wire-4');
    session.createResponse({ instructions: verbatim('Short.') });
    const audio = await until('audio');
    await until('response_done');
    // Act
    session.truncate(audio.itemId, 60_000);
    const refused = await until('error');
    session.truncate(audio.itemId, 10);
    session.createResponse({ instructions: verbatim('Still here.') });
    await until('transcript_done', (event) => event.text === 'Still here.');
    session.close();
    // Assert
    expect(refused.fatal).toBe(false);
    expect(refused.error.message).toMatch(/Audio content of \d+ms is already shorter than 60000ms/);
    const connection = openai.realtime.connections.find((candidate) => candidate.tag === 'CA-wire-4')!;
    expect(connection.truncations.map((t) => t.refused)).toEqual([true, false]);
  });

  it("steer: a partial session.update replaces instructions and tools; the sandbox model walks the step from the caller's words", async () => {
    // Arrange
    const { session, until } = open('CA-wire-6');
    await until('ready');
    const instructions = 'You are a receptionist.\n\nWorkflow step "reason". Ask "What brings you in today?" and listen.';
    const nextStep = stepTool([{ to: 'wrap_up', when: 'the caller mentions pain, teeth or a cleaning' }]);
    // Act
    session.steer({ instructions, tools: [END_CALL, nextStep] });
    session.createResponse({ tag: 'reply' });
    const opening = await until('transcript_done');
    board.push('CA-wire-6', 'My teeth hurt.');
    session.appendAudio(synthesizeSpeechLike(800));
    session.appendAudio(new Uint8Array(8000).fill(0xff));
    const call = await until('function_call');
    session.sendFunctionCall({ callId: 'call_engine_1', name: 'transfer', arguments: '{}' });
    const connection = openai.realtime.connections.find((candidate) => candidate.tag === 'CA-wire-6')!;
    await vi.waitFor(() => expect(connection.received.at(-1)).toMatchObject({ type: 'conversation.item.create' }));
    session.close();
    // Assert
    expect(opening.text).toBe('What brings you in today?');
    expect(call).toMatchObject({ name: 'next_step', arguments: '{"step":"wrap_up"}' });
    expect(connection.received[1]).toEqual({
      type: 'session.update',
      session: {
        type: 'realtime',
        instructions,
        tools: [END_CALL, nextStep].map((tool) => ({ type: 'function', ...tool })),
        tool_choice: 'auto',
      },
    });
    // Only what was sent changed: the voice and the turn detection stay.
    expect(connection.session).toMatchObject({
      instructions,
      audio: { input: { turn_detection: { create_response: true } }, output: { voice: 'marin' } },
    });
    expect(connection.received.at(-1)).toEqual({
      type: 'conversation.item.create',
      item: { type: 'function_call', call_id: 'call_engine_1', name: 'transfer', arguments: '{}' },
    });
  });

  it('a wrong key fails the handshake with a fatal, non-retryable 401', async () => {
    // Act
    const { until } = open('CA-wire-5', {}, 'sk-wrong');
    const failed = await until('error');
    await until('closed');
    // Assert
    expect(failed.fatal).toBe(true);
    expect(failed.error).toBeInstanceOf(ProviderError);
    expect(failed.error).toMatchObject({ statusCode: 401, retryable: false });
  });
});
