import * as v from 'valibot';
import WebSocket, { type RawData } from 'ws';
import { ProviderError } from '../../../shared/errors';
import type { LlmToolDefinition } from '../ports/language-model';
import type { S2sEvent, S2sListener, S2sOpenOptions, S2sSession, SpeechToSpeech } from '../ports/speech-to-speech';
import { EventFanout } from './event-fanout';
import { connectionError, toBytes } from './ws-frames';
import { createLogger, type Logger } from '../../../shared/log';

/**
 * OpenAI Realtime (GA) over `ws` directly (docs/protocols.md "OpenAI"): the SDK's `OpenAIRealtimeWS` forces
 * `wss:`, so it could never reach the loopback sandbox; with `ws` the base URL is configurable.
 * μ-law in and out (`audio/pcmu`), so Twilio payloads pass through untouched.
 *
 * Quirks: GA sessions take no `temperature` (sending one is an unknown-parameter error); the
 * provider keeps the conversation, so barge-in must `conversation.item.truncate` the item to what
 * was heard, never past the audio generated ("Audio content of X ms is already shorter than Y ms").
 */
export interface OpenAiRealtimeOptions {
  apiKey: string;
  /** `https://api.openai.com/v1` by default; `http(s)://` becomes `ws(s)://` (the sandbox's `http://127.0.0.1:PORT/v1`). */
  baseUrl?: string;
  /** Default `gpt-realtime`. */
  model?: string;
  /** Caller-side transcription model; default `gpt-4o-mini-transcribe`. */
  transcriptionModel?: string;
  /** Handshake timeout (default 5000 ms). */
  connectTimeoutMs?: number;
  /** Adds `tag=<call SID>` to the URL so the sandbox knows the call; never set against the real API. */
  sendTag?: boolean;
  /** Receives dropped unknown events. */
  log?: Logger;
}

/** Server VAD defaults of the API (threshold 0.5, 300 ms prefix, 500 ms of silence ends a turn). */
export const LIVE_VAD = { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 500 } as const;

const Usage = v.optional(v.looseObject({ input_tokens: v.optional(v.number(), 0), output_tokens: v.optional(v.number(), 0) }), {});
const Item = { item_id: v.string(), response_id: v.string() };

const ServerEventSchema = v.variant('type', [
  v.looseObject({ type: v.literal('session.updated') }),
  v.looseObject({ type: v.literal('input_audio_buffer.speech_started'), item_id: v.string(), audio_start_ms: v.number() }),
  v.looseObject({ type: v.literal('input_audio_buffer.speech_stopped'), item_id: v.string(), audio_end_ms: v.number() }),
  v.looseObject({ type: v.literal('conversation.item.input_audio_transcription.completed'), item_id: v.string(), transcript: v.string() }),
  v.looseObject({
    type: v.literal('response.created'),
    response: v.looseObject({ id: v.string(), metadata: v.optional(v.nullable(v.record(v.string(), v.string()))) }),
  }),
  v.looseObject({ type: v.literal('response.output_audio.delta'), ...Item, delta: v.string() }),
  v.looseObject({ type: v.literal('response.output_audio_transcript.delta'), ...Item, delta: v.string() }),
  v.looseObject({ type: v.literal('response.output_audio_transcript.done'), ...Item, transcript: v.string() }),
  v.looseObject({
    type: v.literal('response.function_call_arguments.done'),
    response_id: v.string(),
    call_id: v.string(),
    name: v.string(),
    arguments: v.string(),
  }),
  v.looseObject({
    type: v.literal('response.done'),
    response: v.looseObject({ id: v.string(), status: v.optional(v.string(), 'completed'), usage: v.optional(v.nullable(Usage)) }),
  }),
  v.looseObject({
    type: v.literal('error'),
    error: v.looseObject({ message: v.string(), type: v.optional(v.string()), code: v.optional(v.nullable(v.string())) }),
  }),
]);

/** Events we receive and need not act on (logging each would drown the log). */
const IGNORED = new Set([
  'session.created',
  'input_audio_buffer.committed',
  'input_audio_buffer.cleared',
  'input_audio_buffer.timeout_triggered',
  'conversation.item.added',
  'conversation.item.done',
  'conversation.item.created',
  'conversation.item.truncated',
  'conversation.item.input_audio_transcription.delta',
  'response.output_item.added',
  'response.output_item.done',
  'response.content_part.added',
  'response.content_part.done',
  'response.output_audio.done',
  'response.output_text.delta',
  'response.output_text.done',
  'response.function_call_arguments.delta',
  'rate_limits.updated',
]);

/** The Realtime adapter; one instance serves many calls. */
export class OpenAiRealtime implements SpeechToSpeech {
  readonly #options: OpenAiRealtimeOptions;

  constructor(options: OpenAiRealtimeOptions) {
    if (options.apiKey === '') throw new Error('OpenAiRealtime needs an API key.');
    this.#options = options;
  }

  /** Starts the handshake and returns at once; `session.update` goes first once the socket opens. */
  open(o: S2sOpenOptions): S2sSession {
    const model = this.#options.model ?? 'gpt-realtime';
    const base = (this.#options.baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '').replace(/^http/, 'ws');
    const query = new URLSearchParams({ model, ...(this.#options.sendTag && o.tag !== undefined && { tag: o.tag }) });
    const socket = new WebSocket(`${base}/realtime?${query}`, {
      headers: { Authorization: `Bearer ${this.#options.apiKey}` },
      handshakeTimeout: this.#options.connectTimeoutMs ?? 5000,
      perMessageDeflate: false,
    });
    const session = new RealtimeSession(socket, this.#options.log ?? createLogger({ service: 'media' }), o.signal);
    session.send(sessionUpdate(o, model, this.#options.transcriptionModel ?? 'gpt-4o-mini-transcribe'));
    return session;
  }
}

/** Server voice detection; `interrupt` lets the caller's speech cancel the response in progress. */
function turnDetection(interrupt: boolean): Record<string, unknown> {
  return { ...LIVE_VAD, create_response: true, interrupt_response: interrupt };
}

/** The GA `session.update` for a phone call (docs/protocols.md "OpenAI"). */
export function sessionUpdate(o: S2sOpenOptions, model: string, transcriptionModel: string): Record<string, unknown> {
  const language = o.language.split('-')[0]!.toLowerCase();
  return {
    type: 'session.update',
    session: {
      type: 'realtime',
      model,
      instructions: o.instructions,
      output_modalities: ['audio'],
      audio: {
        input: {
          format: { type: 'audio/pcmu' },
          transcription: { model: transcriptionModel, ...(/^[a-z]{2}$/.test(language) && { language }) },
          turn_detection: turnDetection(o.interruptResponse),
        },
        output: { format: { type: 'audio/pcmu' }, voice: o.voice, speed: o.speed },
      },
      tools: realtimeTools(o.tools),
      tool_choice: 'auto',
    },
  };
}

/** Tools as a GA session takes them: flat `{type: "function", name, description, parameters}`, unlike chat's nested `function`. */
function realtimeTools(tools: readonly LlmToolDefinition[]): Record<string, unknown>[] {
  return tools.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters }));
}

class RealtimeSession implements S2sSession {
  readonly #socket: WebSocket;
  readonly #log: NonNullable<OpenAiRealtimeOptions['log']>;
  readonly #events: EventFanout<S2sEvent>;
  #outbox: string[] = [];
  #state: 'connecting' | 'open' | 'closing' | 'closed' = 'connecting';
  #ready = false;

  constructor(socket: WebSocket, log: NonNullable<OpenAiRealtimeOptions['log']>, signal: AbortSignal) {
    this.#socket = socket;
    this.#log = log;
    this.#events = new EventFanout(log, 'realtime.listener.failed');
    socket.on('open', () => this.#onOpen());
    socket.on('message', (data) => this.#onMessage(data));
    socket.on('error', (error) => this.#fail(connectionError('openai', 'Realtime', error)));
    socket.on('close', (code) => this.#onClose(code));
    if (signal.aborted) this.close();
    else signal.addEventListener('abort', () => this.close(), { once: true });
  }

  on(listener: S2sListener): () => void {
    return this.#events.on(listener);
  }

  appendAudio(mulaw: Uint8Array): void {
    this.send({
      type: 'input_audio_buffer.append',
      audio: Buffer.from(mulaw.buffer, mulaw.byteOffset, mulaw.byteLength).toString('base64'),
    });
  }

  createResponse(options: { instructions?: string; tag?: string } = {}): void {
    const response = {
      ...(options.instructions !== undefined && { instructions: options.instructions }),
      ...(options.tag !== undefined && { metadata: { tag: options.tag } }),
    };
    this.send({ type: 'response.create', ...(Object.keys(response).length > 0 && { response }) });
  }

  cancelResponse(): void {
    this.send({ type: 'response.cancel' });
  }

  setInterruptResponse(interrupt: boolean): void {
    this.send({ type: 'session.update', session: { type: 'realtime', audio: { input: { turn_detection: turnDetection(interrupt) } } } });
  }

  /** A partial `session.update`: only the keys sent change (audio and turn detection stay). */
  steer(steering: { instructions: string; tools: readonly LlmToolDefinition[] }): void {
    this.send({
      type: 'session.update',
      session: { type: 'realtime', instructions: steering.instructions, tools: realtimeTools(steering.tools), tool_choice: 'auto' },
    });
  }

  truncate(itemId: string, audioEndMs: number): void {
    this.send({ type: 'conversation.item.truncate', item_id: itemId, content_index: 0, audio_end_ms: Math.max(0, Math.floor(audioEndMs)) });
  }

  sendUserText(text: string): void {
    this.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } });
  }

  sendFunctionCall(call: { callId: string; name: string; arguments: string }): void {
    this.send({
      type: 'conversation.item.create',
      item: { type: 'function_call', call_id: call.callId, name: call.name, arguments: call.arguments },
    });
  }

  sendFunctionOutput(callId: string, output: string, respond: boolean): void {
    this.send({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: callId, output } });
    if (respond) this.createResponse();
  }

  close(): void {
    if (this.#state === 'closing' || this.#state === 'closed') return;
    this.#state = 'closing';
    this.#socket.close(1000);
    setTimeout(() => this.#socket.terminate(), 2000).unref();
  }

  /** Sends (or buffers until open) one client event. */
  send(message: Record<string, unknown>): void {
    if (this.#state === 'closing' || this.#state === 'closed') return;
    const text = JSON.stringify(message);
    if (this.#state === 'connecting') this.#outbox.push(text);
    else this.#socket.send(text);
  }

  #onOpen(): void {
    if (this.#state !== 'connecting') return;
    this.#state = 'open';
    for (const text of this.#outbox) this.#socket.send(text);
    this.#outbox = [];
  }

  #onMessage(data: RawData): void {
    if (this.#state !== 'open') return;
    let raw: unknown;
    try {
      raw = JSON.parse(toBytes(data).toString('utf8'));
    } catch {
      raw = undefined;
    }
    const parsed = v.safeParse(ServerEventSchema, raw);
    if (parsed.success) return this.#dispatch(parsed.output);
    const type = (raw as { type?: unknown } | undefined)?.type;
    if (typeof type !== 'string' || !IGNORED.has(type))
      this.#log.warn('realtime.event.dropped', { type, issue: parsed.issues[0]?.message });
  }

  #dispatch(m: v.InferOutput<typeof ServerEventSchema>): void {
    switch (m.type) {
      case 'session.updated':
        if (this.#ready) return;
        this.#ready = true;
        return this.#emit({ type: 'ready' });
      case 'input_audio_buffer.speech_started':
        return this.#emit({ type: 'speech_started', itemId: m.item_id, audioStartMs: m.audio_start_ms });
      case 'input_audio_buffer.speech_stopped':
        return this.#emit({ type: 'speech_stopped', itemId: m.item_id, audioEndMs: m.audio_end_ms });
      case 'conversation.item.input_audio_transcription.completed':
        return this.#emit({ type: 'caller_transcript', itemId: m.item_id, text: m.transcript });
      case 'response.created':
        return this.#emit({
          type: 'response_created',
          responseId: m.response.id,
          ...(m.response.metadata?.tag !== undefined && { tag: m.response.metadata.tag }),
        });
      case 'response.output_audio.delta':
        return this.#emit({ type: 'audio', responseId: m.response_id, itemId: m.item_id, mulaw: Buffer.from(m.delta, 'base64') });
      case 'response.output_audio_transcript.delta':
        return this.#emit({ type: 'transcript_delta', responseId: m.response_id, itemId: m.item_id, text: m.delta });
      case 'response.output_audio_transcript.done':
        return this.#emit({ type: 'transcript_done', responseId: m.response_id, itemId: m.item_id, text: m.transcript });
      case 'response.function_call_arguments.done':
        return this.#emit({ type: 'function_call', responseId: m.response_id, callId: m.call_id, name: m.name, arguments: m.arguments });
      case 'response.done': {
        const usage = m.response.usage ?? { input_tokens: 0, output_tokens: 0 };
        return this.#emit({
          type: 'response_done',
          responseId: m.response.id,
          status: m.response.status,
          usage: { input: usage.input_tokens, output: usage.output_tokens },
        });
      }
      case 'error': {
        const error = new ProviderError('openai', `Realtime error ${m.error.code ?? m.error.type ?? ''}: ${m.error.message}`, undefined, {
          retryable: false,
        });
        return this.#emit({ type: 'error', error, fatal: false });
      }
    }
  }

  #onClose(code: number): void {
    if (this.#state === 'closed') return;
    if (this.#state === 'open') {
      const error = new ProviderError('openai', `Realtime closed the session unexpectedly (code ${code}).`, undefined, { retryable: true });
      this.#emit({ type: 'error', error, fatal: true });
    }
    this.#state = 'closed';
    this.#emit({ type: 'closed' });
  }

  #fail(error: ProviderError): void {
    if (this.#state === 'closing' || this.#state === 'closed') return;
    this.#emit({ type: 'error', error, fatal: true });
    this.#state = 'closing';
    this.#socket.terminate();
  }

  #emit(event: S2sEvent): void {
    this.#events.emit(event);
  }
}
