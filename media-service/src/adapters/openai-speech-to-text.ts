import * as v from 'valibot';
import WebSocket, { type RawData } from 'ws';
import { OPENAI_STT_MODELS_WITH_KEYWORDS } from '../../../shared/domain/speech-catalog';
import { ProviderError } from '../../../shared/errors';
import { createLogger, type Logger } from '../../../shared/log';
import type { SpeechToText, SttEvent, SttListener, SttOpenOptions, SttStream } from '../ports/speech-to-text';
import { EventFanout } from './event-fanout';
import { TranscriptionTurns } from './openai-transcription-turns';
import { connectionError, toBytes } from './ws-frames';

/**
 * OpenAI realtime transcription (GA, `wss://api.openai.com/v1/realtime?intent=transcription`,
 * docs/protocols.md "OpenAI realtime transcription") behind the speech-to-text port, over `ws`
 * directly: the SDK's `OpenAIRealtimeWS` forces `wss:`, which the loopback sandbox does not serve
 * (the same choice as the live-mode adapter). μ-law goes in untouched (`audio/pcmu`).
 *
 * Turns come from OpenAI's server VAD (`openai-transcription-turns.ts`); `eot_threshold` maps to
 * its `silence_duration_ms` (0.5 → 300 ms, 0.7 → 500 ms, the API default, 0.9 → 700 ms). Key
 * terms go as `keywords` where the model takes them, else as a prompt. `close()` commits a turn
 * the caller has not finished, so their last words are transcribed before the socket closes.
 */
export interface OpenAiSpeechToTextOptions {
  apiKey: string;
  /** `https://api.openai.com/v1` by default; `http(s)://` becomes `ws(s)://` (the sandbox's `http://127.0.0.1:PORT/v1`). */
  baseUrl?: string;
  /** Handshake and `session.updated` timeout (default 5000 ms). */
  connectTimeoutMs?: number;
  /** Adds `tag=<call SID>` to the URL so the sandbox knows the call; never set against the real API. */
  sendTag?: boolean;
  /** Audio per append (default 80 ms = 640 bytes: fewer, larger JSON frames). */
  chunkMs?: number;
  /** How long `close()` waits for the last transcripts before closing anyway (default 2000 ms). */
  closeTimeoutMs?: number;
  log?: Logger;
}

/** Server VAD silence for a Flux-style end-of-turn threshold (0.5–0.9). */
export function silenceDurationMs(eotThreshold: number): number {
  return Math.round(300 + (Math.min(0.9, Math.max(0.5, eotThreshold)) - 0.5) * 1000);
}

/** The GA `session.update` of a transcription session for one call. */
export function transcriptionSessionUpdate(o: SttOpenOptions): Record<string, unknown> {
  const language = o.language.split(/[-_]/)[0]!.toLowerCase();
  const terms = o.keyterms.slice(0, 50);
  const hints = OPENAI_STT_MODELS_WITH_KEYWORDS.includes(o.model)
    ? terms.length > 0 && { keywords: terms }
    : terms.length > 0 && { prompt: `Expect these terms: ${terms.join(', ')}.` };
  return {
    type: 'session.update',
    session: {
      type: 'transcription',
      audio: {
        input: {
          format: { type: 'audio/pcmu' },
          transcription: { model: o.model, ...(/^[a-z]{2}$/.test(language) && { language }), ...hints },
          turn_detection: {
            type: 'server_vad',
            threshold: 0.5,
            prefix_padding_ms: 300,
            silence_duration_ms: silenceDurationMs(o.eotThreshold),
          },
          noise_reduction: { type: 'near_field' },
        },
      },
    },
  };
}

const ServerEventSchema = v.variant('type', [
  v.looseObject({ type: v.literal('session.updated') }),
  v.looseObject({ type: v.literal('input_audio_buffer.speech_started'), item_id: v.string(), audio_start_ms: v.number() }),
  v.looseObject({ type: v.literal('input_audio_buffer.speech_stopped'), item_id: v.string(), audio_end_ms: v.number() }),
  v.looseObject({
    type: v.literal('conversation.item.input_audio_transcription.delta'),
    item_id: v.string(),
    delta: v.optional(v.string()),
  }),
  v.looseObject({ type: v.literal('conversation.item.input_audio_transcription.completed'), item_id: v.string(), transcript: v.string() }),
  v.looseObject({ type: v.literal('conversation.item.input_audio_transcription.failed'), item_id: v.string() }),
  v.looseObject({
    type: v.literal('error'),
    error: v.looseObject({ message: v.string(), type: v.optional(v.string()), code: v.optional(v.nullable(v.string())) }),
  }),
]);
type ServerEvent = v.InferOutput<typeof ServerEventSchema>;

/** Received and not acted on (logging each would drown the log). */
const IGNORED = new Set([
  'session.created',
  'input_audio_buffer.committed',
  'input_audio_buffer.cleared',
  'input_audio_buffer.timeout_triggered',
  'conversation.item.added',
  'conversation.item.done',
  'conversation.item.created',
  'conversation.item.input_audio_transcription.segment',
  'rate_limits.updated',
]);

/** The OpenAI transcription adapter; one instance serves many calls. */
export class OpenAiSpeechToText implements SpeechToText {
  readonly #options: OpenAiSpeechToTextOptions;

  constructor(options: OpenAiSpeechToTextOptions) {
    if (options.apiKey === '') throw new Error('OpenAiSpeechToText needs an API key.');
    this.#options = options;
  }

  /** Connects and configures the session; resolves on `session.updated`, rejects with a `ProviderError` otherwise. */
  async open(o: SttOpenOptions): Promise<SttStream> {
    o.signal.throwIfAborted();
    const base = (this.#options.baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '').replace(/^http/, 'ws');
    const query = new URLSearchParams({ intent: 'transcription', ...(this.#options.sendTag && { tag: o.tag }) });
    const timeoutMs = this.#options.connectTimeoutMs ?? 5000;
    const socket = new WebSocket(`${base}/realtime?${query}`, {
      headers: { Authorization: `Bearer ${this.#options.apiKey}` },
      handshakeTimeout: timeoutMs,
      perMessageDeflate: false,
    });
    const stream = new TranscriptionStream(socket, this.#options, o.signal);
    socket.once('open', () => socket.send(JSON.stringify(transcriptionSessionUpdate(o))));
    await stream.ready(timeoutMs);
    return stream;
  }
}

class TranscriptionStream implements SttStream {
  readonly #socket: WebSocket;
  readonly #signal: AbortSignal;
  readonly #log: Logger;
  readonly #events: EventFanout<SttEvent>;
  readonly #turns = new TranscriptionTurns();
  readonly #chunk: Uint8Array;
  readonly #closeTimeoutMs: number;
  #filled = 0;
  #state: 'opening' | 'open' | 'closing' | 'closed' = 'opening';
  #settle: { resolve: () => void; reject: (error: unknown) => void } | undefined;

  constructor(socket: WebSocket, options: OpenAiSpeechToTextOptions, signal: AbortSignal) {
    this.#socket = socket;
    this.#signal = signal;
    this.#log = options.log ?? createLogger({ service: 'media' });
    this.#events = new EventFanout(this.#log, 'stt.listener.failed');
    this.#chunk = new Uint8Array(Math.max(1, Math.round((options.chunkMs ?? 80) * 8)));
    this.#closeTimeoutMs = options.closeTimeoutMs ?? 2000;
    socket.on('message', (data) => this.#onMessage(data));
    socket.on('error', (error) => this.#fail(connectionError('openai', 'Realtime transcription', error)));
    socket.on('close', (code) => this.#onClose(code));
  }

  /** Waits for `session.updated` (the provider accepted the configuration). */
  ready(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => this.#fail(new ProviderError('openai', `No session.updated within ${timeoutMs} ms.`)), timeoutMs);
      const onAbort = () => this.#fail(new ProviderError('openai', 'Aborted while connecting.'));
      this.#signal.addEventListener('abort', onAbort, { once: true });
      this.#settle = {
        resolve: () => {
          clearTimeout(timer);
          this.#signal.removeEventListener('abort', onAbort);
          this.#signal.addEventListener('abort', () => this.#shutdown(), { once: true });
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          this.#signal.removeEventListener('abort', onAbort);
          reject(this.#signal.aborted ? this.#signal.reason : error);
        },
      };
    });
  }

  on(listener: SttListener): () => void {
    return this.#events.on(listener);
  }

  send(mulaw: Uint8Array): void {
    if (this.#state !== 'open') return;
    for (let offset = 0; offset < mulaw.length;) {
      const take = Math.min(this.#chunk.length - this.#filled, mulaw.length - offset);
      this.#chunk.set(mulaw.subarray(offset, offset + take), this.#filled);
      this.#filled += take;
      offset += take;
      if (this.#filled === this.#chunk.length) this.#append();
    }
  }

  /** Commits an unfinished turn, waits (bounded) for the last transcripts, then closes; `closed` follows. */
  close(): void {
    if (this.#state !== 'open') return this.#state === 'opening' ? this.#shutdown() : undefined;
    this.#state = 'closing';
    if (this.#filled > 0) this.#append(true);
    if (this.#turns.speaking) this.#sendEvent({ type: 'input_audio_buffer.commit' });
    if (!this.#turns.pending) return this.#shutdown();
    setTimeout(() => this.#shutdown(), this.#closeTimeoutMs).unref();
  }

  #append(force = false): void {
    if (this.#state !== 'open' && !force) return;
    const audio = this.#chunk.slice(0, this.#filled);
    this.#filled = 0;
    this.#sendEvent({ type: 'input_audio_buffer.append', audio: Buffer.from(audio).toString('base64') });
  }

  #sendEvent(event: Record<string, unknown>): void {
    try {
      this.#socket.send(JSON.stringify(event));
    } catch (error) {
      this.#fail(new ProviderError('openai', 'Realtime transcription socket is not open.', undefined, { cause: error }));
    }
  }

  #onMessage(data: RawData): void {
    let raw: unknown;
    try {
      raw = JSON.parse(toBytes(data).toString('utf8'));
    } catch {
      raw = undefined;
    }
    const parsed = v.safeParse(ServerEventSchema, raw);
    if (parsed.success) return this.#dispatch(parsed.output);
    const type = (raw as { type?: unknown } | undefined)?.type;
    if (typeof type !== 'string' || !IGNORED.has(type)) this.#log.warn('transcription.event.dropped', { type });
  }

  #dispatch(event: ServerEvent): void {
    if (event.type === 'session.updated') {
      if (this.#state !== 'opening') return;
      this.#state = 'open';
      return this.#settle?.resolve();
    }
    if (event.type === 'error') {
      const code = event.error.code ?? event.error.type ?? '';
      // A commit racing the server's own VAD commit finds the buffer empty: nothing was lost.
      if (code === 'input_audio_buffer_commit_empty') return;
      return this.#fail(new ProviderError('openai', `Realtime transcription error ${code}: ${event.error.message}`));
    }
    if (event.type === 'conversation.item.input_audio_transcription.failed')
      this.#log.warn('transcription.item.failed', { item: event.item_id });
    for (const out of this.#turns.push(event)) this.#events.emit(out);
    if (this.#state === 'closing' && !this.#turns.pending) this.#shutdown();
  }

  #onClose(code: number): void {
    if (this.#state === 'closed') return;
    if (this.#state === 'opening')
      return this.#settle?.reject(new ProviderError('openai', `Realtime transcription closed (code ${code}).`));
    if (this.#state === 'open' && !this.#signal.aborted) {
      this.#events.emit({
        type: 'error',
        error: new ProviderError('openai', `Realtime transcription closed unexpectedly (code ${code}).`, undefined, { retryable: true }),
      });
    }
    this.#state = 'closed';
    this.#events.emit({ type: 'closed' });
  }

  #fail(error: ProviderError): void {
    if (this.#state === 'closed') return;
    if (this.#state === 'opening') {
      this.#state = 'closed';
      this.#socket.terminate();
      return this.#settle?.reject(error);
    }
    this.#events.emit({ type: 'error', error });
    this.#shutdown();
  }

  #shutdown(): void {
    if (this.#state === 'closed') return;
    const wasOpening = this.#state === 'opening';
    this.#state = 'closed';
    this.#socket.close(1000);
    setTimeout(() => this.#socket.terminate(), 1000).unref();
    if (wasOpening) this.#settle?.reject(new ProviderError('openai', 'Realtime transcription closed while connecting.'));
    else this.#events.emit({ type: 'closed' });
  }
}
