import * as v from 'valibot';
import WebSocket, { type RawData } from 'ws';
import { ProviderError } from '../../../shared/errors';
import { createLogger, type Logger } from '../../../shared/log';
import type { SpeechToText, SttEvent, SttListener, SttOpenOptions, SttStream } from '../ports/speech-to-text';
import { EventFanout } from './event-fanout';
import { TranscriptionTurns } from './openai-transcription-turns';
import { transcriptionSessionUpdate } from './openai-transcription-session';

export { silenceDurationMs, transcriptionSessionUpdate } from './openai-transcription-session';
import { connectionError, toBytes } from './ws-frames';
import { AudioReplay } from './audio-replay';
import { reconnect, RECONNECT_HANDSHAKE_MS } from './reconnects';

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
 *
 * A socket that drops mid-call is replaced on the schedule of `reconnects.ts`, as Flux's is: the
 * new one gets the same `session.update` and the caller's audio from the end of the last turn
 * that ended (`audio-replay.ts`), and the call hears of it through `onFault`. Only when every
 * attempt fails is the drop an `error` event.
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
    const update = JSON.stringify(transcriptionSessionUpdate(o));
    const connect = (handshakeMs: number) => {
      const socket = new WebSocket(`${base}/realtime?${query}`, {
        headers: { Authorization: `Bearer ${this.#options.apiKey}` },
        handshakeTimeout: handshakeMs,
        perMessageDeflate: false,
      });
      socket.once('open', () => socket.send(update));
      return socket;
    };
    const stream = new TranscriptionStream(connect, this.#options, o);
    await stream.connect(this.#options.connectTimeoutMs ?? 5000);
    return stream;
  }
}

/** Makes one transcription socket with this handshake budget; it sends the session's `session.update` once open. */
type TranscriptionConnect = (handshakeMs: number) => WebSocket;

class TranscriptionStream implements SttStream {
  readonly #connect: TranscriptionConnect;
  readonly #signal: AbortSignal;
  /** Aborted once the stream is closed: stops a reconnect under way. */
  readonly #stop = new AbortController();
  readonly #onFault: SttOpenOptions['onFault'];
  readonly #log: Logger;
  readonly #events: EventFanout<SttEvent>;
  readonly #turns = new TranscriptionTurns();
  readonly #chunk: Uint8Array;
  readonly #closeTimeoutMs: number;
  /** The caller's audio after the last turn ended, replayed to a socket that replaces a dropped one. */
  readonly #replay = new AudioReplay();
  #socket: WebSocket | undefined;
  #filled = 0;
  #state: 'opening' | 'open' | 'reconnecting' | 'closing' | 'closed' = 'opening';
  /** Stream position (bytes) where the current socket's audio time 0 is. */
  #audioBase = 0;
  /** The current socket's wait for `session.updated` (its handshake). */
  #waiting: { resolve: () => void; reject: (error: ProviderError) => void } | undefined;

  constructor(connect: TranscriptionConnect, options: OpenAiSpeechToTextOptions, o: SttOpenOptions) {
    this.#connect = connect;
    this.#signal = o.signal;
    this.#onFault = o.onFault;
    this.#log = options.log ?? createLogger({ service: 'media' });
    this.#events = new EventFanout(this.#log, 'stt.listener.failed');
    this.#chunk = new Uint8Array(Math.max(1, Math.round((options.chunkMs ?? 80) * 8)));
    this.#closeTimeoutMs = options.closeTimeoutMs ?? 2000;
  }

  /** Opens the first socket; from then on, closes we did not ask for become reconnects. */
  async connect(timeoutMs: number): Promise<void> {
    try {
      await this.#open(timeoutMs);
    } catch (error) {
      this.#state = 'closed';
      throw this.#signal.aborted ? this.#signal.reason : error;
    }
    this.#state = 'open';
    this.#signal.addEventListener('abort', () => this.#shutdown(), { once: true });
  }

  /** A socket with this stream's listeners, resolved on `session.updated`; a failed handshake terminates it and rejects. */
  #open(timeoutMs: number, signal = this.#signal): Promise<void> {
    const socket = this.#connect(timeoutMs);
    this.#socket = socket;
    socket.on('message', (data) => socket === this.#socket && this.#onMessage(data));
    socket.on('error', (error) => socket === this.#socket && this.#onSocketError(error));
    socket.on('close', (code) => socket === this.#socket && this.#onClose(code));
    return new Promise<void>((resolve, reject) => {
      const settled = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.#waiting = undefined;
      };
      const fail = (error: ProviderError) => {
        settled();
        if (this.#socket === socket) this.#socket = undefined;
        socket.terminate();
        reject(error);
      };
      const timer = setTimeout(() => fail(new ProviderError('openai', `No session.updated within ${timeoutMs} ms.`)), timeoutMs);
      const onAbort = () => fail(new ProviderError('openai', 'Aborted while connecting.'));
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting = {
        resolve: () => {
          settled();
          resolve();
        },
        reject: fail,
      };
    });
  }

  on(listener: SttListener): () => void {
    return this.#events.on(listener);
  }

  send(mulaw: Uint8Array): void {
    if (this.#state === 'reconnecting') return this.#replay.push(mulaw);
    if (this.#state !== 'open') return;
    this.#replay.push(mulaw);
    this.#forward(mulaw);
  }

  /** Commits an unfinished turn, waits (bounded) for the last transcripts, then closes; `closed` follows. */
  close(): void {
    if (this.#state === 'opening' || this.#state === 'reconnecting') return this.#shutdown();
    if (this.#state !== 'open') return;
    this.#state = 'closing';
    if (this.#filled > 0) this.#append(true);
    if (this.#turns.speaking) this.#sendEvent({ type: 'input_audio_buffer.commit' });
    if (!this.#turns.pending) return this.#shutdown();
    setTimeout(() => this.#shutdown(), this.#closeTimeoutMs).unref();
  }

  /** Re-chunks audio into the socket's appends. */
  #forward(mulaw: Uint8Array): void {
    for (let offset = 0; offset < mulaw.length && this.#state === 'open';) {
      const take = Math.min(this.#chunk.length - this.#filled, mulaw.length - offset);
      this.#chunk.set(mulaw.subarray(offset, offset + take), this.#filled);
      this.#filled += take;
      offset += take;
      if (this.#filled === this.#chunk.length) this.#append();
    }
  }

  #append(force = false): void {
    if (this.#state !== 'open' && !force) return;
    const audio = this.#chunk.slice(0, this.#filled);
    this.#filled = 0;
    this.#sendEvent({ type: 'input_audio_buffer.append', audio: Buffer.from(audio).toString('base64') });
  }

  #sendEvent(event: Record<string, unknown>): void {
    try {
      this.#socket!.send(JSON.stringify(event));
    } catch (error) {
      // The socket dropped before its close event: the send is what tells (the audio is in the replay).
      if (this.#state === 'open' && !this.#signal.aborted) return void this.#reconnect('Realtime transcription socket is not open.');
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
    if (event.type === 'session.updated') return this.#waiting?.resolve();
    if (event.type === 'error') {
      const code = event.error.code ?? event.error.type ?? '';
      // A commit racing the server's own VAD commit finds the buffer empty: nothing was lost.
      if (code === 'input_audio_buffer_commit_empty') return;
      const error = new ProviderError('openai', `Realtime transcription error ${code}: ${event.error.message}`);
      return this.#waiting ? this.#waiting.reject(error) : this.#fail(error);
    }
    if (event.type === 'conversation.item.input_audio_transcription.failed')
      this.#log.warn('transcription.item.failed', { item: event.item_id });
    for (const out of this.#turns.push(event)) this.#emitTurn(out);
    if (this.#state === 'closing' && !this.#turns.pending) this.#shutdown();
  }

  /** Turn events carry stream audio times; an ended turn's audio is no longer needed for a replay. */
  #emitTurn(event: SttEvent): void {
    if (event.type !== 'end_of_turn' || event.endOfSpeechMs === undefined) return this.#events.emit(event);
    this.#replay.dropBefore(this.#audioBase + event.endOfSpeechMs * 8);
    this.#events.emit({ ...event, endOfSpeechMs: event.endOfSpeechMs + Math.round(this.#audioBase / 8) });
  }

  #onSocketError(error: Error): void {
    const failure = connectionError('openai', 'Realtime transcription', error);
    if (this.#waiting) return this.#waiting.reject(failure);
    if (this.#state === 'open' && !this.#signal.aborted)
      return void this.#reconnect(`Realtime transcription socket error: ${error.message}`);
    this.#fail(failure);
  }

  #onClose(code: number): void {
    if (this.#waiting) return this.#waiting.reject(new ProviderError('openai', `Realtime transcription closed (code ${code}).`));
    if (this.#state === 'closed') return;
    if (this.#state === 'open' && !this.#signal.aborted)
      return void this.#reconnect(`Realtime transcription closed unexpectedly (code ${code}).`);
    this.#state = 'closed';
    this.#events.emit({ type: 'closed' });
  }

  /**
   * The socket dropped: a new one takes over (docs/design.md "Provider faults"), configured as the
   * first was and given the caller's audio from the end of the last turn that ended, including
   * what arrives meanwhile. Turns not ended start again from the replay, with the same indices;
   * audio times go on from the old socket's. Only when every attempt fails is the drop an error.
   */
  async #reconnect(why: string): Promise<void> {
    this.#state = 'reconnecting';
    const dropped = this.#socket;
    this.#socket = undefined;
    dropped?.terminate();
    this.#filled = 0;
    this.#turns.resume();
    const startedAt = performance.now();
    try {
      const stop = AbortSignal.any([this.#signal, this.#stop.signal]);
      await reconnect(() => this.#open(RECONNECT_HANDSHAKE_MS, stop), stop);
    } catch (error) {
      if (this.#signal.aborted || this.#state !== 'reconnecting') return this.#shutdown();
      const message = `${why} Reconnecting failed: ${error instanceof Error ? error.message : String(error)}`;
      return this.#fail(new ProviderError('openai', message, undefined, { retryable: true, cause: error }));
    }
    // Closed while reconnecting: the new socket is not wanted.
    if (this.#state !== 'reconnecting') return void (this.#socket as WebSocket | undefined)?.close(1000);
    const { at, bytes } = this.#replay.from(0);
    this.#audioBase = at;
    this.#state = 'open';
    this.#forward(bytes);
    const ms = Math.round(performance.now() - startedAt);
    this.#onFault?.('stt_reconnects', `${why} Reconnected in ${ms} ms, ${bytes.length} bytes replayed.`);
  }

  #fail(error: ProviderError): void {
    if (this.#state === 'closed') return;
    this.#events.emit({ type: 'error', error });
    this.#shutdown();
  }

  #shutdown(): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#stop.abort();
    const socket = this.#socket;
    if (socket) {
      socket.close(1000);
      setTimeout(() => socket.terminate(), 1000).unref();
    }
    this.#events.emit({ type: 'closed' });
  }
}
