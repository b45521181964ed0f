import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { planReply, writeStream } from '../../../../media-service/src/sandbox/openai-reply';
import type { ChatRequest } from '../../../../media-service/src/sandbox/openai-wire';

/** What the sandbox calls on a response, recorded: each write with whether the response was corked. */
class RecordingResponse {
  readonly writes: { text: string; corked: boolean }[] = [];
  corks = 0;
  ended = false;
  writeHead() {
    return this;
  }
  flushHeaders() {}
  on() {
    return this;
  }
  cork() {
    this.corks++;
  }
  uncork() {
    this.corks--;
  }
  write(text: string) {
    this.writes.push({ text, corked: this.corks > 0 });
    return true;
  }
  end() {
    this.ended = true;
  }
}

/** Lets every pending promise continuation run, and nothing else: no timer or I/O callback can. */
async function drainMicrotasks(): Promise<void> {
  for (let i = 0; i < 100; i++) await Promise.resolve();
}

const request: ChatRequest = { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'What are your hours?' }], stream: true };

/** Streams `text` as the sandbox would, with this timing, into `res`. */
function streamReply(res: RecordingResponse, text: string, timing: { ttftMs: number; tokenIntervalMs: number }): Promise<boolean> {
  return writeStream(res as unknown as ServerResponse, {
    meta: { id: 'chatcmpl-1', created: 0, model: 'gpt-4.1-mini', serviceTier: 'default' },
    plan: planReply({ text }, request, 0),
    timing,
    promptTokens: 5,
    includeUsage: false,
    failure: undefined,
  });
}

describe('writeStream', () => {
  it('with zero time to first token and zero token interval, writes the whole reply without waiting on any timer, in one corked write', async () => {
    // Arrange
    const res = new RecordingResponse();
    let result: boolean | undefined;
    // Act
    void streamReply(res, 'We are open nine to five, Monday to Friday.', { ttftMs: 0, tokenIntervalMs: 0 }).then((done) => (result = done));
    await drainMicrotasks();
    // Assert
    expect(result).toBe(true);
    expect(res.ended).toBe(true);
    expect(res.corks).toBe(0);
    expect(res.writes.every((write) => write.corked)).toBe(true);
    const text = res.writes
      .map((write) => write.text)
      .filter((line) => line.includes('"content"'))
      .map(
        (line) =>
          (JSON.parse(line.slice('data: '.length)) as { choices: { delta: { content?: string } }[] }).choices[0]!.delta.content ?? '',
      )
      .join('');
    expect(text).toBe('We are open nine to five, Monday to Friday.');
    expect(res.writes.at(-1)!.text).toBe('data: [DONE]\n\n');
  });

  it('with a token interval, waits between tokens instead', async () => {
    // Arrange
    const res = new RecordingResponse();
    // Act
    const done = streamReply(res, 'Nine to five.', { ttftMs: 0, tokenIntervalMs: 1 });
    await drainMicrotasks();
    // Assert: the first token is out, the rest waits on the token timer.
    expect(res.ended).toBe(false);
    expect(res.writes.filter((write) => write.text.includes('"content":"'))).toHaveLength(2); // role chunk ("") and "Nine"
    await expect(done).resolves.toBe(true);
    expect(res.ended).toBe(true);
  });
});
