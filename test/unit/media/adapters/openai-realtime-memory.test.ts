import { describe, expect, it } from 'vitest';
import {
  MEMORY_MAX_CHARS,
  MEMORY_MAX_ITEMS,
  RealtimeMemory,
  mergeSession,
} from '../../../../media-service/src/adapters/openai-realtime-memory';

/** What a live session remembers for a socket that replaces a dropped one (docs/design.md "Provider faults"). */

const FIRST_UPDATE = {
  type: 'session.update',
  session: {
    type: 'realtime',
    instructions: 'You are a receptionist.',
    audio: {
      input: { format: { type: 'audio/pcmu' }, turn_detection: { type: 'server_vad', create_response: true, interrupt_response: true } },
      output: { format: { type: 'audio/pcmu' }, voice: 'marin' },
    },
    tools: [],
  },
};

const stopped = (item: string) => ({ type: 'input_audio_buffer.speech_stopped' as const, item_id: item, audio_end_ms: 1000 });
const transcribed = (item: string, transcript: string) => ({
  type: 'conversation.item.input_audio_transcription.completed' as const,
  item_id: item,
  transcript,
});
const created = (id: string, tag?: string) => ({
  type: 'response.created' as const,
  response: { id, ...(tag !== undefined && { metadata: { tag } }) },
});
const spoken = (response: string, item: string, transcript: string) => ({
  type: 'response.output_audio_transcript.done' as const,
  response_id: response,
  item_id: item,
  transcript,
});
const audio = (response: string, item: string, bytes: number) => ({
  type: 'response.output_audio.delta' as const,
  response_id: response,
  item_id: item,
  delta: Buffer.alloc(bytes).toString('base64'),
});
const done = (id: string) => ({ type: 'response.done' as const, response: { id, status: 'completed' } });

function greeted(): RealtimeMemory {
  const memory = new RealtimeMemory();
  memory.client(FIRST_UPDATE);
  memory.client({ type: 'response.create', response: { instructions: 'Say hello.', metadata: { tag: 'greeting' } } });
  memory.server(created('r1', 'greeting'));
  memory.server(spoken('r1', 'a1', 'Hello, Acme.'));
  memory.server(done('r1'));
  return memory;
}

describe('RealtimeMemory', () => {
  it('restores the session as last set (partial updates merged), then the conversation in order under its ids', () => {
    // Arrange
    const memory = greeted();
    memory.client({ type: 'session.update', session: { type: 'realtime', instructions: 'Step two.', tools: [{ name: 'next_step' }] } });
    memory.client({
      type: 'session.update',
      session: {
        type: 'realtime',
        audio: { input: { turn_detection: { type: 'server_vad', create_response: true, interrupt_response: false } } },
      },
    });
    memory.server(stopped('u1'));
    memory.server(created('r2'));
    memory.server(transcribed('u1', ' I need a cleaning. '));
    memory.server({ type: 'response.function_call_arguments.done', response_id: 'r2', call_id: 'c1', name: 'check', arguments: '{}' });
    memory.server(done('r2'));
    memory.client({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: 'c1', output: 'free' } });
    memory.server(stopped('u2')); // never transcribed: its audio is replayed instead

    // Act
    const restore = memory.restore();

    // Assert
    expect(restore.setup).toEqual([
      {
        type: 'session.update',
        session: {
          type: 'realtime',
          instructions: 'Step two.',
          tools: [{ name: 'next_step' }],
          audio: {
            input: {
              format: { type: 'audio/pcmu' },
              turn_detection: { type: 'server_vad', create_response: true, interrupt_response: false },
            },
            output: { format: { type: 'audio/pcmu' }, voice: 'marin' },
          },
        },
      },
      {
        type: 'conversation.item.create',
        item: { id: 'a1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello, Acme.' }] },
      },
      {
        type: 'conversation.item.create',
        item: { id: 'u1', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'I need a cleaning.' }] },
      },
      { type: 'conversation.item.create', item: { type: 'function_call', call_id: 'c1', name: 'check', arguments: '{}' } },
      { type: 'conversation.item.create', item: { type: 'function_call_output', call_id: 'c1', output: 'free' } },
    ]);
    expect(restore.creates).toEqual([]);
    expect(restore.resumes).toBeUndefined();
  });

  it('asks the response under way again with what asked for it, and leaves what it said so far out', () => {
    // Arrange
    const memory = greeted();
    const idle = { type: 'response.create', response: { instructions: 'Say: are you there?', metadata: { tag: 'idle' } } };
    memory.client(idle);
    memory.server(created('r2', 'idle'));
    memory.server(spoken('r2', 'a2', 'Are you'));

    // Act
    const restore = memory.restore();

    // Assert
    expect(restore.resumes).toBe('r2');
    expect(restore.creates).toEqual([idle]);
    expect(JSON.stringify(restore.setup)).not.toContain('Are you');
    expect(memory.active).toBeUndefined();
  });

  it("gives a transcribed caller turn nobody answered the server's own response, once", () => {
    // Arrange
    const memory = greeted();
    memory.server(stopped('u1'));
    memory.server(transcribed('u1', 'Hello?'));

    // Act
    const first = memory.restore();
    const second = memory.restore();

    // Assert
    expect(first.creates).toEqual([{ type: 'response.create' }]);
    expect(second.creates).toEqual([]);
  });

  it('owes no response to a turn that was answered, nor when the session starts none on its own', () => {
    // Arrange
    const answered = greeted();
    answered.server(stopped('u1'));
    answered.server(created('r2'));
    answered.server(transcribed('u1', 'Hello?'));
    answered.server(done('r2'));
    const manual = new RealtimeMemory();
    manual.client(mergeUpdate({ audio: { input: { turn_detection: { type: 'server_vad', create_response: false } } } }));
    manual.server(stopped('u1'));
    manual.server(transcribed('u1', 'Hello?'));

    // Act
    const restores = [answered.restore(), manual.restore()];

    // Assert
    expect(restores.map((restore) => restore.creates)).toEqual([[], []]);
  });

  it('asks again our requests not yet created, in order; a refused one is forgotten', () => {
    // Arrange
    const memory = greeted();
    memory.client({ type: 'response.create', response: { metadata: { tag: 'reply' } } });
    memory.client({ type: 'response.create', response: { metadata: { tag: 'goodbye' } } });
    memory.server({ type: 'refused', code: 'conversation_already_has_active_response' });

    // Act
    const restore = memory.restore();

    // Assert
    expect(restore.creates).toEqual([{ type: 'response.create', response: { metadata: { tag: 'reply' } } }]);
  });

  it('keeps of a truncated assistant item the words the caller heard (their share of its audio)', () => {
    // Arrange
    const memory = new RealtimeMemory();
    memory.server(created('r1'));
    memory.server(audio('r1', 'a1', 8000));
    memory.server(spoken('r1', 'a1', 'one two three four'));
    memory.server(done('r1'));

    // Act
    memory.client({ type: 'conversation.item.truncate', item_id: 'a1', content_index: 0, audio_end_ms: 500 });

    // Assert
    expect(memory.restore().setup[1]).toMatchObject({ item: { content: [{ text: 'one two' }] } });
  });

  it('re-creates at most the newest items within the bounds, never an output whose call was left out', () => {
    // Arrange
    const memory = new RealtimeMemory();
    memory.client({ type: 'conversation.item.create', item: { type: 'function_call', call_id: 'old', name: 'x', arguments: '{}' } });
    memory.client({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: 'old', output: 'y' } });
    for (let i = 0; i < MEMORY_MAX_ITEMS - 1; i++) memory.client(userText(`line ${i}`));
    const long = new RealtimeMemory();
    for (let i = 0; i < 10; i++) long.client(userText('w'.repeat(MEMORY_MAX_CHARS / 4)));

    // Act
    const items = memory.restore().setup.slice(1);
    const longItems = long.restore().setup.slice(1);

    // Assert
    expect(items).toHaveLength(MEMORY_MAX_ITEMS - 1);
    expect(items[0]).toEqual({ type: 'conversation.item.create', item: userText('line 0').item });
    expect(longItems).toHaveLength(4);
  });
});

function userText(text: string) {
  return { type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } };
}

function mergeUpdate(session: Record<string, unknown>) {
  return { type: 'session.update', session: mergeSession({ type: 'realtime' }, session) };
}
