import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../../shared/errors';
import { ChatChunkReader } from '../../../../media-service/src/adapters/chat-chunk-reader';

/** A body that hands out `parts` one read at a time, and records whether it was read to its end or cancelled. */
function body(parts: (string | Uint8Array)[]) {
  const encoder = new TextEncoder();
  const state = { readToEnd: false, cancelled: false };
  let next = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < parts.length) {
        const part = parts[next++]!;
        controller.enqueue(typeof part === 'string' ? encoder.encode(part) : part);
      } else {
        state.readToEnd = true;
        controller.close();
      }
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

function chunk(content: string, extra: Record<string, unknown> = {}) {
  return {
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
    ...extra,
  };
}

const event = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;

async function readAll(parts: (string | Uint8Array)[]) {
  const { stream, state } = body(parts);
  const reader = new ChatChunkReader(stream, 'openai');
  const chunks: unknown[] = [];
  for (let next = await reader.next(); !next.done; next = await reader.next()) chunks.push(next.value);
  return { chunks, state };
}

const contents = (chunks: unknown[]) => chunks.map((c) => (c as ReturnType<typeof chunk>).choices[0]!.delta.content).join('|');

describe('ChatChunkReader', () => {
  it('reads data events up to [DONE], then reads the body to its end', async () => {
    // Act
    const { chunks, state } = await readAll([event(chunk('Hel')) + event(chunk('lo')), 'data: [DONE]\n\n']);
    // Assert
    expect(contents(chunks)).toBe('Hel|lo');
    expect(state.readToEnd).toBe(true);
  });

  it('gives the same chunks however the bytes are split, through multi-byte characters and CRLF pairs', async () => {
    // Arrange
    const wire = new TextEncoder().encode(
      `data: ${JSON.stringify(chunk('Grüße 👋'))}\r\n\r\ndata: ${JSON.stringify(chunk('ok'))}\r\n\r\ndata: [DONE]\r\n\r\n`,
    );
    // Act: every split point of the stream into two reads, and one byte per read
    const whole = contents((await readAll([wire])).chunks);
    const splits = await Promise.all(Array.from({ length: wire.length - 1 }, (_, i) => readAll([wire.slice(0, i + 1), wire.slice(i + 1)])));
    const bytes = await readAll(Array.from(wire, (b) => Uint8Array.of(b)));
    // Assert
    expect(whole).toBe('Grüße 👋|ok');
    for (const split of splits) expect(contents(split.chunks)).toBe(whole);
    expect(contents(bytes.chunks)).toBe(whole);
  });

  it('accepts CR line ends, skips comments and unknown fields, joins multi-line data, and keeps a last event that has no blank line', async () => {
    // Arrange
    const json = JSON.stringify(chunk('a'));
    const split = `${json.slice(0, 10)}\ndata:${json.slice(10)}`;
    // Act
    const { chunks } = await readAll([
      `: keep-alive\r\rid: 7\rretry: 100\rdata: ${JSON.stringify(chunk('x'))}\r\r`,
      `data: ${split}\n\n`,
      `data:${JSON.stringify(chunk('z'))}`,
    ]);
    // Assert: the middle event parses only when its two data lines are joined into one
    expect(contents(chunks.slice(0, 1))).toBe('x');
    expect(chunks).toHaveLength(3);
    expect(contents(chunks.slice(2))).toBe('z');
  });

  it('ignores events after [DONE]', async () => {
    // Act
    const { chunks } = await readAll([event(chunk('a')), 'data: [DONE]\n\n', event(chunk('late'))]);
    // Assert
    expect(contents(chunks)).toBe('a');
  });

  it.each([
    ['a streamed error object', event({ error: { message: 'The server is overloaded', type: 'server_error' } }), /overloaded/],
    ['an `event: error`', `event: error\ndata: ${JSON.stringify({ message: 'boom' })}\n\n`, /boom/],
    ['an event that is not JSON', 'data: {"choices": [\n\n', /not JSON/],
    ['JSON that is not a chunk', 'data: null\n\n', /not a chat completion chunk/],
  ])('turns %s into a retryable ProviderError after the chunks before it', async (_case, bad, message) => {
    // Arrange
    const { stream } = body([event(chunk('ok')), bad]);
    const reader = new ChatChunkReader(stream, 'custom_llm');
    // Act
    const first = await reader.next();
    const error = await reader.next().catch((e: unknown) => e);
    // Assert
    expect(contents([first.value])).toBe('ok');
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: 'custom_llm', retryable: true, statusCode: undefined });
    expect((error as Error).message).toMatch(message);
  });

  it('return() cancels the body and ends the iteration', async () => {
    // Arrange
    const { stream, state } = body([event(chunk('a')), event(chunk('b'))]);
    const reader = new ChatChunkReader(stream, 'openai');
    await reader.next();
    // Act
    const returned = await reader.return();
    // Assert
    expect(returned.done).toBe(true);
    expect(state.cancelled).toBe(true);
    expect((await reader.next()).done).toBe(true);
  });
});
