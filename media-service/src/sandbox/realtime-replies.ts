import { setTimeout as delay } from 'node:timers/promises';
import { synthesizeSpeechLike, textSeed, MULAW_BYTES_PER_MS } from './mulaw-signal';
import { approxTokens, type ChatRequest } from './openai-wire';
import type { SandboxLlmReply, SandboxLlmScript } from './sandbox-llm-script';
import type { TranscriptBoard } from './transcript-board';

/**
 * The sandbox Realtime model: keeps the conversation (user words, assistant transcripts cut by
 * truncation, function calls and outputs), chooses each reply with the shared
 * {@link SandboxLlmScript} (so `end_call`/`transfer` behave as in standard mode), and streams it as
 * GA response events: speech-like μ-law whose length follows the text (as the Aura stand-in does),
 * transcript deltas, function-call arguments, `response.done` with usage.
 */

/** Timing knobs of the sandbox voice. */
export interface RealtimeTuning {
  /** Audio per character (~65 ms ≈ 150 words a minute). */
  msPerChar: number;
  /** Delay before a response's first audio. */
  firstAudioDelayMs: number;
  /** Bytes per `response.output_audio.delta` (800 = 100 ms). */
  chunkBytes: number;
  /** Pause between deltas; 0 streams faster than real time, as the real service does. */
  chunkIntervalMs: number;
}

/** Defaults for `npm run dev`. */
export const DEFAULT_REALTIME_TUNING: RealtimeTuning = { msPerChar: 65, firstAudioDelayMs: 200, chunkBytes: 800, chunkIntervalMs: 0 };

/** `instructions` of this form are said verbatim: the sandbox's stand-in for a model obeying "say exactly". */
const VERBATIM = /^Say exactly[^"]*"([\s\S]*)"\s*$/;

interface Item {
  id: string;
  role: 'user' | 'assistant' | 'function_call' | 'function_call_output';
  text: string;
  callId?: string;
  name?: string;
  generatedBytes: number;
}

interface Active {
  id: string;
  metadata: Record<string, string> | undefined;
  stop: AbortController;
  reason?: string;
  /** A server failure injected by a test: the response stops after this much audio (ms) and ends `failed`. */
  failAfterMs?: number;
}

/** A server failure to inject into the next response whose metadata `tag` matches (a test's fault, as the LLM stand-in's `failNext`). */
export interface RealtimeFault {
  tag: string;
  /** Audio streamed before the response fails. */
  afterMs: number;
}

/** What {@link RealtimeReplies} needs from its connection. */
export interface RealtimeRepliesDeps {
  script: SandboxLlmScript;
  board: () => TranscriptBoard | undefined;
  tuning: () => RealtimeTuning;
  send: (event: Record<string, unknown>) => void;
  session: () => Record<string, unknown>;
  newId: (prefix: string) => string;
  /** The fault injected for a response tagged `tag`, once (undefined: none). */
  takeFault?: (tag: string | undefined) => RealtimeFault | undefined;
}

/** One connection's conversation and response generator. */
export class RealtimeReplies {
  readonly #d: RealtimeRepliesDeps;
  readonly #items: Item[] = [];
  #active: Active | undefined;
  #pending: { instructions?: string; metadata?: Record<string, string> }[] = [];
  #closed = false;

  constructor(deps: RealtimeRepliesDeps) {
    this.#d = deps;
  }

  get board(): TranscriptBoard | undefined {
    return this.#d.board();
  }

  get lastItemId(): string | undefined {
    return this.#items.at(-1)?.id;
  }

  addUser(id: string, text: string): void {
    this.#items.push({ id, role: 'user', text, generatedBytes: 0 });
  }

  /**
   * `conversation.item.create`: function calls (a client's own), their outputs, and messages (a
   * caller's typed words, or a conversation re-created on a new socket) join the conversation,
   * under the client's `id` when it gives one, as the real API does.
   */
  addItem(item: Record<string, unknown>): void {
    const id = typeof item.id === 'string' && item.id !== '' ? item.id : this.#d.newId('item');
    const callId = String(item.call_id ?? '');
    if (item.type === 'function_call_output')
      this.#items.push({ id, role: 'function_call_output', text: String(item.output ?? ''), callId, generatedBytes: 0 });
    else if (item.type === 'function_call')
      this.#items.push({
        id,
        role: 'function_call',
        text: String(item.arguments ?? ''),
        callId,
        name: String(item.name ?? ''),
        generatedBytes: 0,
      });
    else
      this.#items.push({ id, role: item.role === 'assistant' ? 'assistant' : 'user', text: messageText(item.content), generatedBytes: 0 });
    this.#d.send({ type: 'conversation.item.added', previous_item_id: null, item: { ...item, id } });
  }

  /** Audio ms generated for an assistant item (undefined when there is no such item). */
  generatedMs(itemId: string): number | undefined {
    const item = this.#items.find((candidate) => candidate.id === itemId && candidate.role === 'assistant');
    return item ? Math.floor(item.generatedBytes / MULAW_BYTES_PER_MS) : undefined;
  }

  /** Keeps the words of `itemId` the caller heard (a fraction of its audio). */
  truncate(itemId: string, fraction: number): void {
    const item = this.#items.find((candidate) => candidate.id === itemId)!;
    const words = item.text.split(/\s+/).filter((word) => word !== '');
    item.text = words.slice(0, Math.floor(words.length * Math.min(1, fraction))).join(' ');
  }

  /**
   * Starts a response; while one is active a client's `response.create` is refused (returns the
   * active id, as the real API does) and server VAD's own is queued behind it.
   */
  create(params: { instructions?: string; metadata?: Record<string, string> }, queue = false): string | undefined {
    if (!this.#active) return void this.#respond(params);
    if (queue) this.#pending.push(params);
    return queue ? undefined : this.#active.id;
  }

  /** Stops the active response; false when none is active. */
  cancel(reason: 'client_cancelled' | 'turn_detected'): boolean {
    if (!this.#active) return false;
    this.#active.reason = reason;
    this.#active.stop.abort();
    return true;
  }

  close(): void {
    this.#closed = true;
    this.#pending = [];
    this.#active?.stop.abort();
  }

  async #respond(params: { instructions?: string; metadata?: Record<string, string> }): Promise<void> {
    const fault = this.#d.takeFault?.(params.metadata?.tag);
    const active: Active = {
      id: this.#d.newId('resp'),
      metadata: params.metadata,
      stop: new AbortController(),
      ...(fault && { failAfterMs: fault.afterMs }),
    };
    this.#active = active;
    this.#d.send({
      type: 'response.created',
      response: { object: 'realtime.response', id: active.id, status: 'in_progress', output: [], metadata: active.metadata ?? null },
    });
    const reply = this.#choose(params.instructions);
    const output: Record<string, unknown>[] = [];
    try {
      await delay(this.#d.tuning().firstAudioDelayMs, undefined, { signal: active.stop.signal });
      if (reply.text) output.push(await this.#speak(active, reply.text, output.length));
      for (const call of reply.toolCalls ?? []) if (!active.stop.signal.aborted) output.push(this.#call(active, call, output.length));
    } catch {
      // Cancelled while waiting: response.done below says so.
    }
    this.#finish(active, reply, output, params.instructions ?? '');
  }

  #choose(instructions: string | undefined): SandboxLlmReply {
    const verbatim = instructions === undefined ? null : VERBATIM.exec(instructions);
    if (verbatim) return { text: verbatim[1]! };
    const session = this.#d.session() as {
      instructions?: string;
      tools?: { name: string; description?: string; parameters?: Record<string, unknown> }[];
    };
    const messages = this.#items.map((item) => {
      if (item.role === 'function_call')
        return {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: item.callId!, type: 'function', function: { name: item.name!, arguments: item.text } }],
        };
      if (item.role === 'function_call_output') return { role: 'tool', tool_call_id: item.callId!, content: item.text };
      return { role: item.role, content: item.text };
    });
    const tools = (session.tools ?? []).map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
    const request = {
      model: 'gpt-realtime',
      messages: [{ role: 'system', content: instructions ?? session.instructions ?? '' }, ...messages],
      tools,
    };
    return this.#d.script.reply(request as ChatRequest);
  }

  async #speak(active: Active, text: string, outputIndex: number): Promise<Record<string, unknown>> {
    const tuning = this.#d.tuning();
    const item: Item = { id: this.#d.newId('item'), role: 'assistant', text: '', generatedBytes: 0 };
    this.#items.push(item);
    const ids = { response_id: active.id, item_id: item.id, output_index: outputIndex, content_index: 0 };
    this.#d.send({
      type: 'response.output_item.added',
      response_id: active.id,
      output_index: outputIndex,
      item: { id: item.id, type: 'message', role: 'assistant', status: 'in_progress', content: [] },
    });
    const audio = synthesizeSpeechLike(text.trim().length * tuning.msPerChar, textSeed(text));
    const words = text.trim().split(/\s+/);
    let shown = 0;
    const failAt = active.failAfterMs === undefined ? Infinity : active.failAfterMs * MULAW_BYTES_PER_MS;
    for (
      let offset = 0;
      offset < Math.min(audio.length, failAt) && !active.stop.signal.aborted && !this.#closed;
      offset += tuning.chunkBytes
    ) {
      const chunk = audio.subarray(offset, offset + tuning.chunkBytes);
      const reveal = Math.ceil(((offset + chunk.length) / audio.length) * words.length);
      if (reveal > shown) {
        this.#d.send({
          type: 'response.output_audio_transcript.delta',
          ...ids,
          delta: `${shown > 0 ? ' ' : ''}${words.slice(shown, reveal).join(' ')}`,
        });
        shown = reveal;
      }
      this.#d.send({ type: 'response.output_audio.delta', ...ids, delta: Buffer.from(chunk).toString('base64') });
      item.generatedBytes += chunk.length;
      if (tuning.chunkIntervalMs > 0) await delay(tuning.chunkIntervalMs).catch(() => undefined);
    }
    item.text = words.slice(0, shown).join(' ');
    this.#d.send({ type: 'response.output_audio.done', ...ids });
    this.#d.send({ type: 'response.output_audio_transcript.done', ...ids, transcript: item.text });
    const done = {
      id: item.id,
      type: 'message',
      role: 'assistant',
      status: active.stop.signal.aborted || active.failAfterMs !== undefined ? 'incomplete' : 'completed',
      content: [{ type: 'output_audio', transcript: item.text }],
    };
    this.#d.send({ type: 'response.output_item.done', response_id: active.id, output_index: outputIndex, item: done });
    return done;
  }

  #call(active: Active, call: { id?: string; name: string; arguments: string }, outputIndex: number): Record<string, unknown> {
    const callId = call.id ?? this.#d.newId('call');
    const item: Item = {
      id: this.#d.newId('item'),
      role: 'function_call',
      text: call.arguments,
      callId,
      name: call.name,
      generatedBytes: 0,
    };
    this.#items.push(item);
    const done = { id: item.id, type: 'function_call', status: 'completed', call_id: callId, name: call.name, arguments: call.arguments };
    this.#d.send({
      type: 'response.output_item.added',
      response_id: active.id,
      output_index: outputIndex,
      item: { ...done, status: 'in_progress', arguments: '' },
    });
    this.#d.send({
      type: 'response.function_call_arguments.delta',
      response_id: active.id,
      item_id: item.id,
      output_index: outputIndex,
      call_id: callId,
      delta: call.arguments,
    });
    this.#d.send({
      type: 'response.function_call_arguments.done',
      response_id: active.id,
      item_id: item.id,
      output_index: outputIndex,
      call_id: callId,
      name: call.name,
      arguments: call.arguments,
    });
    this.#d.send({ type: 'response.output_item.done', response_id: active.id, output_index: outputIndex, item: done });
    return done;
  }

  #finish(active: Active, reply: SandboxLlmReply, output: Record<string, unknown>[], instructions: string): void {
    const cancelled = active.stop.signal.aborted;
    const failed = !cancelled && active.failAfterMs !== undefined;
    const input = approxTokens(instructions + this.#items.map((item) => item.text).join(' '));
    const generated = approxTokens((reply.text ?? '') + (reply.toolCalls ?? []).map((call) => call.arguments).join(''));
    this.#d.send({
      type: 'response.done',
      response: {
        object: 'realtime.response',
        id: active.id,
        status: cancelled ? 'cancelled' : failed ? 'failed' : 'completed',
        status_details: cancelled
          ? { type: 'cancelled', reason: active.reason ?? 'client_cancelled' }
          : failed
            ? {
                type: 'failed',
                error: { type: 'server_error', code: 'server_error', message: 'The server had an error while processing your request.' },
              }
            : null,
        output,
        metadata: active.metadata ?? null,
        usage: { total_tokens: input + generated, input_tokens: input, output_tokens: generated },
      },
    });
    this.#active = undefined;
    const next = this.#pending.shift();
    if (next && !this.#closed) void this.#respond(next);
  }
}

/** A message's words: its parts' `text` (or `transcript`) joined; other content as JSON. */
function messageText(content: unknown): string {
  if (!Array.isArray(content)) return JSON.stringify(content ?? '');
  return content.map((part: { text?: unknown; transcript?: unknown }) => String(part.text ?? part.transcript ?? '')).join(' ');
}
