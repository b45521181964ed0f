import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ProviderError } from '../../../shared/errors';

/**
 * Reads a chat-completions SSE body (docs/protocols.md "OpenAI": `data: {json}` events, then `data: [DONE]`)
 * into chunks, as one plain iterator over the body's reader.
 *
 * The SDK's own stream passes every token through five async generators (bytes → SSE chunks →
 * lines → events → chunks → normalised chunks) before ours; on the media thread that is most of a
 * turn's LLM cost. Here a read yields all the events it completed at once, and the iterator only
 * awaits when it has nothing buffered. The SDK still builds, sends and checks the request (status
 * errors are its `APIError`s); this reads the body it hands back with `.asResponse()`.
 *
 * SSE per the WHATWG rules that matter here: lines end in LF, CRLF or CR; `data:` lines of one event
 * join with LF; one leading space after the colon is dropped; comments and unknown fields are
 * ignored; a blank line ends an event. A streamed `{"error": …}` or an `event: error` becomes a
 * `ProviderError`, as does JSON that does not parse. After `[DONE]` the body is still read to its
 * end, so the connection goes back to the pool.
 */
export class ChatChunkReader implements AsyncIterator<ChatCompletionChunk> {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #provider: string;
  readonly #decoder = new TextDecoder();
  /** Decoded text not yet split into whole lines. */
  #pending = '';
  #data: string[] = [];
  #event = '';
  #ready: ChatCompletionChunk[] = [];
  #head = 0;
  #sawDone = false;
  #ended = false;
  /** A trailing CR might be the first half of CRLF: the next LF then ends no new line. */
  #skipLf = false;

  constructor(body: ReadableStream<Uint8Array>, provider: string) {
    this.#reader = body.getReader();
    this.#provider = provider;
  }

  async next(): Promise<IteratorResult<ChatCompletionChunk, undefined>> {
    for (;;) {
      if (this.#head < this.#ready.length) return { done: false, value: this.#ready[this.#head++]! };
      if (this.#ended) return { done: true, value: undefined };
      this.#ready = [];
      this.#head = 0;
      const { done, value } = await this.#reader.read();
      if (done) {
        this.#feed(this.#decoder.decode(), true);
        this.#ended = true;
      } else {
        this.#feed(this.#decoder.decode(value, { stream: true }), false);
      }
    }
  }

  /** Leaving early: releases the body (the request's abort, if any, is the caller's). */
  async return(): Promise<IteratorResult<ChatCompletionChunk, undefined>> {
    this.#ended = true;
    await this.#reader.cancel().catch(() => undefined);
    return { done: true, value: undefined };
  }

  #feed(text: string, last: boolean): void {
    let input = this.#pending + text;
    if (this.#skipLf && input.startsWith('\n')) input = input.slice(1);
    this.#skipLf = false;
    let start = 0;
    for (let i = 0; i < input.length; i++) {
      const c = input.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.#line(input.slice(start, i));
      if (c === 13) {
        if (i + 1 < input.length) {
          if (input.charCodeAt(i + 1) === 10) i++;
        } else {
          this.#skipLf = true;
        }
      }
      start = i + 1;
    }
    this.#pending = input.slice(start);
    if (last) {
      if (this.#pending !== '') this.#line(this.#pending);
      this.#pending = '';
      this.#line(''); // a last event without its blank line still counts
    }
  }

  #line(line: string): void {
    if (line === '') return this.#dispatch();
    if (line.charCodeAt(0) === 58) return; // ':' comment
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
  }

  #dispatch(): void {
    const event = this.#event;
    this.#event = '';
    if (this.#data.length === 0) return;
    const data = this.#data.length === 1 ? this.#data[0]! : this.#data.join('\n');
    this.#data = [];
    if (this.#sawDone) return;
    if (data === '[DONE]') {
      this.#sawDone = true;
      return;
    }
    let parsed: (ChatCompletionChunk & { error?: unknown }) | undefined;
    try {
      parsed = JSON.parse(data) as ChatCompletionChunk & { error?: unknown };
    } catch {
      throw new ProviderError(this.#provider, 'The LLM stream sent an event that is not JSON.', undefined, { retryable: true });
    }
    if (event === 'error' || parsed?.error) {
      throw new ProviderError(this.#provider, `The LLM stream reported an error: ${errorText(parsed?.error ?? parsed)}`, undefined, {
        retryable: true,
      });
    }
    if (typeof parsed !== 'object' || parsed === null || !Array.isArray(parsed.choices)) {
      throw new ProviderError(this.#provider, 'The LLM stream sent an event that is not a chat completion chunk.', undefined, {
        retryable: true,
      });
    }
    this.#ready.push(parsed);
  }
}

function errorText(error: unknown): string {
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') return error.message;
  return JSON.stringify(error)?.slice(0, 300) ?? String(error);
}
