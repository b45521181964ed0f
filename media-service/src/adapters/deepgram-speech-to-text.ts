import { DeepgramClient } from '@deepgram/sdk';
import * as v from 'valibot';
import { ProviderError } from '../../../shared/errors';
import type { SpeechToText, SttEvent, SttListener, SttOpenOptions, SttStream } from '../ports/speech-to-text';
import { EventFanout } from './event-fanout';
import { connectionError } from './ws-frames';
import { createLogger, type Logger } from '../../../shared/log';

/**
 * Deepgram Flux (`/v2/listen`, docs/protocols.md "Deepgram") through `@deepgram/sdk` v5, with the SDK's
 * silent reconnects OFF (`reconnectAttempts: 0`: a reconnect mid-call would lose turn state) and
 * failure surfaced as one `error` event instead.
 *
 * Quirks handled here:
 * - Flux has no KeepAlive; the stream must never starve, so callers send silence when muted.
 * - A Flux socket can stay open yet stop emitting mid-turn (pipecat #5735): a watchdog fails the
 *   stream when no message arrives for `watchdogMs` while audio flows and a turn is open (or
 *   before `Connected`). During caller silence Flux legitimately sends nothing, so only those
 *   states are watched.
 * - 20 ms telephony frames are re-chunked to the 80 ms (640-byte) chunks Deepgram recommends.
 * - The SDK reports a close *before* the error that caused it, so any close we did not ask for
 *   is itself an error.
 */
export interface DeepgramSpeechToTextOptions {
  apiKey: string;
  /** WebSocket base, e.g. the sandbox's `ws://127.0.0.1:PORT`; defaults to `wss://api.deepgram.com`. */
  baseUrl?: string;
  /** Silence from the server tolerated while audio flows in a watched state (default 6000 ms > Flux's 5000 ms `eot_timeout_ms`). */
  watchdogMs?: number;
  /** Audio per WebSocket frame (default 80 ms = 640 bytes, Deepgram's recommendation). */
  chunkMs?: number;
  /** Handshake timeout (default 5000 ms). */
  connectTimeoutMs?: number;
  /** Monotonic clock in ms (injected by tests). */
  now?: () => number;
  /** Receives dropped unknown messages and listener failures. */
  log?: Logger;
}

type FluxSocket = Awaited<ReturnType<DeepgramClient['listen']['v2']['connect']>>;

const WordSchema = v.looseObject({ word: v.string(), start: v.optional(v.number()), end: v.optional(v.number()) });
const MessageSchema = v.variant('type', [
  v.looseObject({ type: v.literal('Connected'), request_id: v.string(), sequence_id: v.number() }),
  v.looseObject({
    type: v.literal('TurnInfo'),
    sequence_id: v.number(),
    event: v.picklist(['StartOfTurn', 'Update', 'EagerEndOfTurn', 'TurnResumed', 'EndOfTurn']),
    turn_index: v.number(),
    audio_window_start: v.number(),
    audio_window_end: v.number(),
    transcript: v.string(),
    words: v.optional(v.array(WordSchema), []),
  }),
  v.looseObject({ type: v.literal('ConfigureSuccess') }),
  v.looseObject({ type: v.literal('ConfigureFailure') }),
  v.looseObject({ type: v.literal('Error'), code: v.optional(v.string(), 'UNKNOWN'), description: v.optional(v.string(), '') }),
]);
type TurnInfo = Extract<v.InferOutput<typeof MessageSchema>, { type: 'TurnInfo' }>;

/** The Flux adapter; one instance serves many calls. */
export class DeepgramSpeechToText implements SpeechToText {
  readonly #client: DeepgramClient;
  readonly #options: DeepgramSpeechToTextOptions;

  constructor(options: DeepgramSpeechToTextOptions) {
    if (options.apiKey === '') throw new Error('DeepgramSpeechToText needs an API key.');
    this.#options = options;
    this.#client = new DeepgramClient({ apiKey: options.apiKey, ...(options.baseUrl && { baseUrl: options.baseUrl }) });
  }

  /** Connects with `encoding=mulaw&sample_rate=8000` and the turn thresholds; rejects with a `ProviderError` (401 etc.). */
  async open(o: SttOpenOptions): Promise<SttStream> {
    o.signal.throwIfAborted();
    const socket = await this.#client.listen.v2.connect({
      model: o.model,
      encoding: 'mulaw',
      sample_rate: 8000,
      eot_threshold: o.eotThreshold,
      ...(o.eagerEotThreshold !== undefined && { eager_eot_threshold: o.eagerEotThreshold }),
      ...(o.keyterms.length > 0 && { keyterm: [...o.keyterms] }),
      ...(o.model.endsWith('-multi') && o.language !== '' && { language_hint: o.language }),
      tag: o.tag,
      reconnectAttempts: 0,
      connectionTimeoutInSeconds: (this.#options.connectTimeoutMs ?? 5000) / 1000,
      abortSignal: o.signal,
    });
    const stream = new FluxStream(socket, this.#options, o.signal);
    socket.connect();
    await waitForOpen(socket, o.signal);
    stream.start();
    return stream;
  }
}

async function waitForOpen(socket: FluxSocket, signal: AbortSignal): Promise<void> {
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([socket.waitForOpen(), aborted]);
  } catch (error) {
    socket.close();
    if (signal.aborted) throw signal.reason;
    throw connectionError('deepgram', 'Flux', error);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}

class FluxStream implements SttStream {
  readonly #socket: FluxSocket;
  readonly #signal: AbortSignal;
  /** Holds events raised before anyone subscribed (e.g. an Error right after the handshake). */
  readonly #events: EventFanout<SttEvent>;
  readonly #now: () => number;
  readonly #watchdogMs: number;
  readonly #log: NonNullable<DeepgramSpeechToTextOptions['log']>;
  readonly #chunk: Uint8Array;
  #filled = 0;
  #state: 'opening' | 'open' | 'closing' | 'closed' = 'opening';
  #connected = false;
  #turnOpen = false;
  #lastMessageAt = 0;

  constructor(socket: FluxSocket, options: DeepgramSpeechToTextOptions, signal: AbortSignal) {
    this.#socket = socket;
    this.#signal = signal;
    this.#now = options.now ?? (() => performance.now());
    this.#watchdogMs = options.watchdogMs ?? 6000;
    this.#log = options.log ?? createLogger({ service: 'media' });
    this.#events = new EventFanout(this.#log, 'stt.listener.failed');
    this.#chunk = new Uint8Array(Math.max(1, Math.round((options.chunkMs ?? 80) * 8)));
    socket.on('message', (message) => this.#onMessage(message));
    socket.on('close', (event) => this.#onClose(event.code));
    socket.on('error', (error) =>
      this.#fail(new ProviderError('deepgram', `Flux socket error: ${error.message}`, undefined, { cause: error })),
    );
  }

  /** Called once the socket is open: from here on, closes become events. */
  start(): void {
    if (this.#state !== 'opening') return;
    this.#state = 'open';
    this.#lastMessageAt = this.#now();
    this.#signal.addEventListener('abort', () => this.#shutdown(), { once: true });
  }

  /** The first subscriber also receives, synchronously, any events raised before it subscribed. */
  on(listener: SttListener): () => void {
    return this.#events.on(listener);
  }

  send(mulaw: Uint8Array): void {
    if (this.#state !== 'open') return;
    if (this.#watchdogTripped()) {
      return this.#fail(
        new ProviderError('deepgram', `Flux sent nothing for ${this.#watchdogMs} ms while audio flowed.`, undefined, { retryable: true }),
      );
    }
    for (let offset = 0; offset < mulaw.length;) {
      const take = Math.min(this.#chunk.length - this.#filled, mulaw.length - offset);
      this.#chunk.set(mulaw.subarray(offset, offset + take), this.#filled);
      this.#filled += take;
      offset += take;
      if (this.#filled === this.#chunk.length) this.#sendChunk();
    }
  }

  close(): void {
    if (this.#state !== 'open') return;
    this.#state = 'closing';
    try {
      if (this.#filled > 0) this.#sendChunk();
      this.#socket.sendCloseStream({ type: 'CloseStream' });
    } catch {
      return this.#shutdown();
    }
    // Flux flushes its last TurnInfo and closes; do not wait forever if it does not.
    setTimeout(() => this.#shutdown(), 2000).unref();
  }

  #sendChunk(): void {
    const audio = this.#chunk.slice(0, this.#filled);
    this.#filled = 0;
    try {
      this.#socket.sendMedia(audio);
    } catch (error) {
      this.#fail(new ProviderError('deepgram', 'Flux socket is not open.', undefined, { cause: error }));
    }
  }

  #watchdogTripped(): boolean {
    const watched = !this.#connected || this.#turnOpen;
    return watched && this.#now() - this.#lastMessageAt > this.#watchdogMs;
  }

  #onMessage(raw: unknown): void {
    this.#lastMessageAt = this.#now();
    const parsed = v.safeParse(MessageSchema, raw);
    if (!parsed.success) return this.#log.warn('flux.message.dropped', { message: raw });
    const message = parsed.output;
    if (message.type === 'Connected') this.#connected = true;
    else if (message.type === 'TurnInfo') this.#onTurnInfo(message);
    else if (message.type === 'Error') {
      this.#fail(new ProviderError('deepgram', `Flux error ${message.code}: ${message.description}`, undefined, { retryable: true }));
    } else if (message.type === 'ConfigureFailure') this.#log.error('flux.configure.failed', { message: raw });
  }

  #onTurnInfo(m: TurnInfo): void {
    const turnIndex = m.turn_index;
    if (m.event === 'StartOfTurn') {
      this.#turnOpen = true;
      return this.#emit({ type: 'start_of_turn', turnIndex });
    }
    if (m.event === 'Update') return this.#emit({ type: 'update', turnIndex, transcript: m.transcript });
    if (m.event === 'EagerEndOfTurn') return this.#emit({ type: 'eager_end_of_turn', turnIndex, transcript: m.transcript });
    if (m.event === 'TurnResumed') return this.#emit({ type: 'turn_resumed', turnIndex });
    this.#turnOpen = false;
    this.#emit({ type: 'end_of_turn', turnIndex, transcript: m.transcript, endOfSpeechMs: endOfSpeechMs(m) });
  }

  #onClose(code: number): void {
    if (this.#state === 'opening' || this.#state === 'closed') return;
    if (this.#state === 'open' && !this.#signal.aborted) {
      const error = new ProviderError('deepgram', `Flux closed the stream unexpectedly (code ${code}).`, undefined, { retryable: true });
      this.#emit({ type: 'error', error });
    }
    this.#state = 'closed';
    this.#emit({ type: 'closed' });
  }

  #fail(error: ProviderError): void {
    if (this.#state === 'closed') return;
    this.#emit({ type: 'error', error });
    this.#shutdown();
  }

  #shutdown(): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#socket.close();
    this.#emit({ type: 'closed' });
  }

  #emit(event: SttEvent): void {
    this.#events.emit(event);
  }
}

/** Audio time of the last word's end (word timings when present, else the window end), in ms. */
function endOfSpeechMs(m: { audio_window_end: number; words: { end?: number }[] }): number {
  const lastEnd = m.words.at(-1)?.end;
  return Math.round((lastEnd ?? m.audio_window_end) * 1000);
}
