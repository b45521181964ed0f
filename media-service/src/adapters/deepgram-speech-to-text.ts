import { DeepgramClient } from '@deepgram/sdk';
import * as v from 'valibot';
import { ProviderError } from '../../../shared/errors';
import type { SpeechToText, SttEvent, SttListener, SttOpenOptions, SttStream } from '../ports/speech-to-text';
import { EventFanout } from './event-fanout';
import { connectionError } from './ws-frames';
import { AudioReplay } from './audio-replay';
import { reconnect, RECONNECT_HANDSHAKE_MS } from './reconnects';
import { createLogger, type Logger } from '../../../shared/log';

/**
 * Deepgram Flux (`/v2/listen`, docs/protocols.md "Deepgram") through `@deepgram/sdk` v5, with the SDK's
 * silent reconnects OFF (`reconnectAttempts: 0`: the SDK's reconnect would lose the caller's words
 * and restart turn indices). A socket that drops mid-call is replaced here instead
 * (`reconnects.ts`): the new socket is given the caller's audio from the end of the last finished
 * turn (`audio-replay.ts`), turn indices and audio times go on from the old socket's, and the
 * call hears of it through `onFault`. Only when every attempt fails is the drop an `error` event.
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
    const stream = new FluxStream((handshakeMs) => this.#connect(o, handshakeMs), this.#options, o);
    await stream.connect(this.#options.connectTimeoutMs ?? 5000);
    return stream;
  }

  /** One Flux socket for `o`, not yet connected (the stream attaches its listeners first). */
  async #connect(o: SttOpenOptions, handshakeMs: number): Promise<FluxSocket> {
    return this.#client.listen.v2.connect({
      model: o.model,
      encoding: 'mulaw',
      sample_rate: 8000,
      eot_threshold: o.eotThreshold,
      ...(o.eagerEotThreshold !== undefined && { eager_eot_threshold: o.eagerEotThreshold }),
      ...(o.keyterms.length > 0 && { keyterm: [...o.keyterms] }),
      ...(o.model.endsWith('-multi') && o.language !== '' && { language_hint: o.language }),
      tag: o.tag,
      reconnectAttempts: 0,
      connectionTimeoutInSeconds: handshakeMs / 1000,
      abortSignal: o.signal,
    });
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

/** Makes one Flux socket (not yet connected) with this handshake budget. */
type FluxConnect = (handshakeMs: number) => Promise<FluxSocket>;

class FluxStream implements SttStream {
  readonly #connect: FluxConnect;
  readonly #signal: AbortSignal;
  readonly #onFault: SttOpenOptions['onFault'];
  /** Holds events raised before anyone subscribed (e.g. an Error right after the handshake). */
  readonly #events: EventFanout<SttEvent>;
  readonly #now: () => number;
  readonly #watchdogMs: number;
  readonly #log: NonNullable<DeepgramSpeechToTextOptions['log']>;
  readonly #chunk: Uint8Array;
  /** The caller's audio after the last finished turn, replayed to a socket that replaces a dropped one. */
  readonly #replay = new AudioReplay();
  #socket: FluxSocket | undefined;
  #filled = 0;
  #state: 'opening' | 'open' | 'reconnecting' | 'closing' | 'closed' = 'opening';
  #connected = false;
  #turnOpen = false;
  #lastMessageAt = 0;
  /** Stream position (bytes) where the current socket's audio time 0 is. */
  #audioBase = 0;
  /** Added to the current socket's turn indices, so they go on from the dropped socket's. */
  #turnBase = 0;
  #lastTurnIndex = -1;

  constructor(connect: FluxConnect, options: DeepgramSpeechToTextOptions, o: SttOpenOptions) {
    this.#connect = connect;
    this.#signal = o.signal;
    this.#onFault = o.onFault;
    this.#now = options.now ?? (() => performance.now());
    this.#watchdogMs = options.watchdogMs ?? 6000;
    this.#log = options.log ?? createLogger({ service: 'media' });
    this.#events = new EventFanout(this.#log, 'stt.listener.failed');
    this.#chunk = new Uint8Array(Math.max(1, Math.round((options.chunkMs ?? 80) * 8)));
  }

  /** Opens the first socket; from then on, closes we did not ask for become reconnects. */
  async connect(handshakeMs: number): Promise<void> {
    await this.#open(handshakeMs);
    this.#state = 'open';
    this.#lastMessageAt = this.#now();
    this.#signal.addEventListener('abort', () => this.#shutdown(), { once: true });
  }

  /** A socket with this stream's listeners, connected; a failed handshake closes it and rejects. */
  async #open(handshakeMs: number): Promise<void> {
    const socket = await this.#connect(handshakeMs);
    socket.on('message', (message) => socket === this.#socket && this.#onMessage(message));
    socket.on('close', (event) => socket === this.#socket && this.#onClose(event.code));
    socket.on('error', (error) => socket === this.#socket && this.#onSocketError(error));
    this.#socket = socket;
    socket.connect();
    await waitForOpen(socket, this.#signal);
  }

  /** The first subscriber also receives, synchronously, any events raised before it subscribed. */
  on(listener: SttListener): () => void {
    return this.#events.on(listener);
  }

  send(mulaw: Uint8Array): void {
    if (this.#state === 'reconnecting') return this.#replay.push(mulaw);
    if (this.#state !== 'open') return;
    if (this.#watchdogTripped()) {
      return this.#fail(
        new ProviderError('deepgram', `Flux sent nothing for ${this.#watchdogMs} ms while audio flowed.`, undefined, { retryable: true }),
      );
    }
    this.#replay.push(mulaw);
    this.#forward(mulaw);
  }

  close(): void {
    if (this.#state === 'reconnecting') return this.#shutdown();
    if (this.#state !== 'open') return;
    this.#state = 'closing';
    try {
      if (this.#filled > 0) this.#sendChunk();
      this.#socket!.sendCloseStream({ type: 'CloseStream' });
    } catch {
      return this.#shutdown();
    }
    // Flux flushes its last TurnInfo and closes; do not wait forever if it does not.
    setTimeout(() => this.#shutdown(), 2000).unref();
  }

  /** Re-chunks audio into the socket's 80 ms frames. */
  #forward(mulaw: Uint8Array): void {
    for (let offset = 0; offset < mulaw.length && this.#state === 'open';) {
      const take = Math.min(this.#chunk.length - this.#filled, mulaw.length - offset);
      this.#chunk.set(mulaw.subarray(offset, offset + take), this.#filled);
      this.#filled += take;
      offset += take;
      if (this.#filled === this.#chunk.length) this.#sendChunk();
    }
  }

  #sendChunk(): void {
    const audio = this.#chunk.slice(0, this.#filled);
    this.#filled = 0;
    try {
      this.#socket!.sendMedia(audio);
    } catch (error) {
      // The socket dropped before its close event: the send is what tells (the audio is in the replay).
      if (this.#state === 'open' && !this.#signal.aborted) return void this.#reconnect('Flux socket is not open.');
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
    const turnIndex = m.turn_index + this.#turnBase;
    this.#lastTurnIndex = turnIndex;
    if (m.event === 'StartOfTurn') {
      this.#turnOpen = true;
      return this.#emit({ type: 'start_of_turn', turnIndex });
    }
    if (m.event === 'Update') return this.#emit({ type: 'update', turnIndex, transcript: m.transcript });
    if (m.event === 'EagerEndOfTurn') return this.#emit({ type: 'eager_end_of_turn', turnIndex, transcript: m.transcript });
    if (m.event === 'TurnResumed') return this.#emit({ type: 'turn_resumed', turnIndex });
    this.#turnOpen = false;
    // The turn is heard: a socket that replaces this one needs only the audio after it.
    this.#replay.dropBefore(this.#audioBase + Math.round(m.audio_window_end * 8000));
    const endOfSpeechMs = endOfSpeechMsOf(m) + Math.round(this.#audioBase / 8);
    this.#emit({ type: 'end_of_turn', turnIndex, transcript: m.transcript, endOfSpeechMs });
  }

  #onClose(code: number): void {
    if (this.#state === 'opening' || this.#state === 'closed' || this.#state === 'reconnecting') return;
    if (this.#state === 'open' && !this.#signal.aborted) return void this.#reconnect(`Flux closed the stream unexpectedly (code ${code}).`);
    this.#state = 'closed';
    this.#emit({ type: 'closed' });
  }

  #onSocketError(error: Error): void {
    // A handshake that fails is reported by its rejection (`open()`, or the reconnect's next attempt).
    if (this.#state === 'opening' || this.#state === 'reconnecting') return;
    if (this.#state === 'open' && !this.#signal.aborted) return void this.#reconnect(`Flux socket error: ${error.message}`);
    this.#fail(new ProviderError('deepgram', `Flux socket error: ${error.message}`, undefined, { cause: error }));
  }

  /**
   * The socket dropped: a new one takes over (docs/design.md "Provider faults"), given the caller's
   * audio from the end of the last finished turn on, including what arrives meanwhile; turn indices
   * and audio times go on from the old socket's. Only when every attempt fails is the drop an error.
   */
  async #reconnect(why: string): Promise<void> {
    this.#state = 'reconnecting';
    this.#socket?.close();
    const startedAt = this.#now();
    this.#filled = 0;
    try {
      await reconnect(() => this.#open(RECONNECT_HANDSHAKE_MS), this.#signal);
    } catch (error) {
      if (this.#signal.aborted) return this.#shutdown();
      this.#state = 'open';
      const message = `${why} Reconnecting failed: ${error instanceof Error ? error.message : String(error)}`;
      return this.#fail(new ProviderError('deepgram', message, undefined, { retryable: true, cause: error }));
    }
    // Closed while reconnecting: the new socket is not wanted.
    if (this.#state !== 'reconnecting') return void this.#socket?.close();
    const { at, bytes } = this.#replay.from(0);
    this.#audioBase = at;
    this.#turnBase = this.#turnOpen ? this.#lastTurnIndex : this.#lastTurnIndex + 1;
    this.#turnOpen = false;
    this.#connected = false;
    this.#state = 'open';
    this.#lastMessageAt = this.#now();
    this.#forward(bytes);
    this.#onFault?.('stt_reconnects', `${why} Reconnected in ${Math.round(this.#now() - startedAt)} ms, ${bytes.length} bytes replayed.`);
  }

  #fail(error: ProviderError): void {
    if (this.#state === 'closed') return;
    this.#emit({ type: 'error', error });
    this.#shutdown();
  }

  #shutdown(): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#socket?.close();
    this.#emit({ type: 'closed' });
  }

  #emit(event: SttEvent): void {
    this.#events.emit(event);
  }
}

/** Audio time of the last word's end (word timings when present, else the window end), in ms. */
function endOfSpeechMsOf(m: { audio_window_end: number; words: { end?: number }[] }): number {
  const lastEnd = m.words.at(-1)?.end;
  return Math.round((lastEnd ?? m.audio_window_end) * 1000);
}
