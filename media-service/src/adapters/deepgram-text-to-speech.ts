import * as v from 'valibot';
import WebSocket, { type RawData } from 'ws';
import { ProviderError } from '../../../shared/errors';
import type { TextToSpeech, TtsEvent, TtsListener, TtsOpenOptions, TtsStream } from '../ports/text-to-speech';
import { EventFanout } from './event-fanout';
import { connectionError, toBytes } from './ws-frames';
import { createLogger, type Logger } from '../../../shared/log';

/**
 * Deepgram Aura over its WebSocket (`/v1/speak?model=<voice>&encoding=mulaw&sample_rate=8000&speed=<n>`,
 * docs/protocols.md "Deepgram"), spoken with `ws` directly rather than the SDK's speak client, because:
 * - the SDK hands binary audio over as a `Blob`, whose bytes can only be read asynchronously, so
 *   a `Flushed`/`Cleared` JSON frame could overtake the audio that preceded it; with `ws` every
 *   frame is delivered synchronously in wire order, which barge-in and flush tracking rely on;
 * - the SDK socket throws on send before open and reconnects 30 times by default, where a call
 *   wants commands buffered until open and a failure reported once.
 *
 * Quirks: audio still in flight when we send `Clear` is dropped here until `Cleared` arrives;
 * Aura allows ~20 `Flush` per 60 s, so flush once per reply, not per clause.
 */
export interface DeepgramTextToSpeechOptions {
  apiKey: string;
  /** WebSocket base, e.g. the sandbox's `ws://127.0.0.1:PORT`; defaults to `wss://api.deepgram.com`. */
  baseUrl?: string;
  /** Handshake timeout (default 5000 ms). */
  connectTimeoutMs?: number;
  /** Monotonic clock in ms, for time-to-first-byte (injected by tests). */
  now?: () => number;
  /** Receives warnings and dropped unknown messages. */
  log?: Logger;
  /** Adds `tag=<call SID>` to the URL so the sandbox voice knows the call; never set against the real API. */
  sendTag?: boolean;
}

/** The voice used when an assistant's `voice_id` is empty. */
export const DEFAULT_AURA_VOICE = 'aura-2-thalia-en';

const ServerMessageSchema = v.variant('type', [
  v.looseObject({ type: v.literal('Metadata') }),
  v.looseObject({ type: v.literal('Flushed'), sequence_id: v.optional(v.number()) }),
  v.looseObject({ type: v.literal('Cleared'), sequence_id: v.optional(v.number()) }),
  v.looseObject({ type: v.literal('Warning'), description: v.optional(v.string()), code: v.optional(v.string()) }),
  v.looseObject({ type: v.literal('Error'), description: v.optional(v.string(), ''), code: v.optional(v.string(), '') }),
]);

/** The Aura adapter; one instance serves many calls. */
export class DeepgramTextToSpeech implements TextToSpeech {
  readonly #options: DeepgramTextToSpeechOptions;

  constructor(options: DeepgramTextToSpeechOptions) {
    if (options.apiKey === '') throw new Error('DeepgramTextToSpeech needs an API key.');
    this.#options = options;
  }

  /** Starts the handshake and returns at once; commands are buffered until the socket opens. */
  open(o: TtsOpenOptions): TtsStream {
    const base = (this.#options.baseUrl ?? 'wss://api.deepgram.com').replace(/\/+$/, '');
    const query = new URLSearchParams({
      model: o.voice.trim() === '' ? DEFAULT_AURA_VOICE : o.voice.trim(),
      encoding: 'mulaw',
      sample_rate: '8000',
      speed: String(o.speed),
      ...(this.#options.sendTag && o.tag !== undefined && { tag: o.tag }),
    });
    const socket = new WebSocket(`${base}/v1/speak?${query}`, {
      headers: { Authorization: `Token ${this.#options.apiKey}` },
      handshakeTimeout: this.#options.connectTimeoutMs ?? 5000,
    });
    return new AuraStream(socket, this.#options, o.signal);
  }
}

class AuraStream implements TtsStream {
  readonly #socket: WebSocket;
  readonly #now: () => number;
  readonly #log: NonNullable<DeepgramTextToSpeechOptions['log']>;
  readonly #events: EventFanout<TtsEvent>;
  #outbox: string[] = [];
  #state: 'connecting' | 'open' | 'closing' | 'closed' = 'connecting';
  #clearsInFlight = 0;
  /** Time of the first `speak()` of each segment (text up to a flush) whose first audio is still due. */
  #segmentStarts: number[] = [];
  #segmentOpen = false;
  /** Per flush in flight: did it close a segment that had text? */
  #flushes: boolean[] = [];
  #firstByteSeen = false;

  constructor(socket: WebSocket, options: DeepgramTextToSpeechOptions, signal: AbortSignal) {
    this.#socket = socket;
    this.#now = options.now ?? (() => performance.now());
    this.#log = options.log ?? createLogger({ service: 'media' });
    this.#events = new EventFanout(this.#log, 'tts.listener.failed');
    socket.on('open', () => this.#onOpen());
    socket.on('message', (data, isBinary) => this.#onMessage(data, isBinary));
    socket.on('error', (error) => this.#fail(connectionError('deepgram', 'Aura', error)));
    socket.on('close', (code) => this.#onClose(code));
    if (signal.aborted) this.close();
    else signal.addEventListener('abort', () => this.close(), { once: true });
  }

  /** The first subscriber also receives, synchronously, any events raised before it subscribed. */
  on(listener: TtsListener): () => void {
    return this.#events.on(listener);
  }

  speak(text: string): void {
    if (text.trim() === '' || this.#state === 'closing' || this.#state === 'closed') return;
    if (!this.#segmentOpen) {
      this.#segmentOpen = true;
      this.#segmentStarts.push(this.#now());
    }
    this.#send({ type: 'Speak', text });
  }

  flush(): void {
    if (this.#state === 'closing' || this.#state === 'closed') return;
    this.#flushes.push(this.#segmentOpen);
    this.#segmentOpen = false;
    this.#send({ type: 'Flush' });
  }

  clear(): void {
    if (this.#state === 'closing' || this.#state === 'closed') return;
    // Not yet sent: simply forget it. Already sent: ask Aura to drop it and ignore audio until Cleared.
    this.#outbox = [];
    this.#clearsInFlight += 1;
    this.#segmentStarts = [];
    this.#flushes = [];
    this.#segmentOpen = false;
    this.#firstByteSeen = false;
    this.#send({ type: 'Clear' });
  }

  close(): void {
    if (this.#state === 'closing' || this.#state === 'closed') return;
    const wasOpen = this.#state === 'open';
    this.#state = 'closing';
    if (wasOpen) this.#socket.send(JSON.stringify({ type: 'Close' }));
    this.#socket.close(1000);
    setTimeout(() => this.#socket.terminate(), 2000).unref();
  }

  #send(message: Record<string, unknown>): void {
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

  #onMessage(data: RawData, isBinary: boolean): void {
    if (this.#state !== 'open') return;
    if (isBinary) return this.#onAudio(toBytes(data));
    let raw: unknown;
    try {
      raw = JSON.parse(toBytes(data).toString());
    } catch {
      raw = undefined;
    }
    const parsed = v.safeParse(ServerMessageSchema, raw);
    if (!parsed.success) return this.#log.warn('aura.message.dropped', { message: raw });
    const m = parsed.output;
    if (m.type === 'Flushed') {
      if (this.#clearsInFlight > 0) return;
      // The next audio belongs to the next segment; a segment that produced no audio is skipped.
      const closedSegment = this.#flushes.shift() ?? false;
      if (closedSegment && !this.#firstByteSeen) this.#segmentStarts.shift();
      this.#firstByteSeen = false;
      return this.#emit({ type: 'flushed' });
    }
    if (m.type === 'Cleared') {
      this.#clearsInFlight = Math.max(0, this.#clearsInFlight - 1);
      return this.#emit({ type: 'cleared' });
    }
    if (m.type === 'Warning') return this.#log.warn('aura.warning', { code: m.code, description: m.description });
    if (m.type === 'Error')
      this.#fail(new ProviderError('deepgram', `Aura error ${m.code}: ${m.description}`, undefined, { retryable: true }));
  }

  #onAudio(mulaw: Uint8Array): void {
    if (this.#clearsInFlight > 0) return;
    const startedAt = this.#firstByteSeen ? undefined : this.#segmentStarts.shift();
    if (startedAt !== undefined) {
      this.#firstByteSeen = true;
      return this.#emit({ type: 'audio', mulaw, firstByteMs: Math.round(this.#now() - startedAt) });
    }
    this.#emit({ type: 'audio', mulaw });
  }

  #onClose(code: number): void {
    if (this.#state === 'closed') return;
    if (this.#state === 'open') {
      this.#emit({
        type: 'error',
        error: new ProviderError('deepgram', `Aura closed the stream unexpectedly (code ${code}).`, undefined, { retryable: true }),
      });
    }
    this.#state = 'closed';
    this.#emit({ type: 'closed' });
  }

  #fail(error: ProviderError): void {
    if (this.#state === 'closing' || this.#state === 'closed') return;
    this.#emit({ type: 'error', error });
    this.#state = 'closing';
    this.#socket.terminate();
  }

  #emit(event: TtsEvent): void {
    this.#events.emit(event);
  }
}
