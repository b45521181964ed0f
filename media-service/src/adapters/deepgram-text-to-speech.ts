import * as v from 'valibot';
import WebSocket, { type RawData } from 'ws';
import { ProviderError } from '../../../shared/errors';
import type { TextToSpeech, TtsEvent, TtsListener, TtsOpenOptions, TtsStream } from '../ports/text-to-speech';
import { EventFanout } from './event-fanout';
import { connectionError, toBytes } from './ws-frames';
import { reconnect, RECONNECT_HANDSHAKE_MS } from './reconnects';
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
 *
 * A socket that drops mid-call is replaced (`reconnects.ts`), sent again the text whose audio had
 * not all come back, and the audio already played of it is skipped: the caller hears the reply go
 * on. Aura's audio for the same text is about, not exactly, as long as before, so the seam can
 * fall a syllable early or late; the sandbox's is exact. Only when every attempt fails is the drop
 * an `error` event.
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
  /** Adds `tag=<call SID>` to the URL so the sandbox knows the call; never set against the real API. */
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
    const connect = (handshakeMs: number) =>
      new WebSocket(`${base}/v1/speak?${query}`, {
        headers: { Authorization: `Token ${this.#options.apiKey}` },
        handshakeTimeout: handshakeMs,
        perMessageDeflate: false,
      });
    return new AuraStream(connect, this.#options, o);
  }
}

/** One text segment: the `Speak` texts up to a `Flush`, kept until Aura's `Flushed` says all of its audio came. */
interface Segment {
  texts: string[];
  flushed: boolean;
}

class AuraStream implements TtsStream {
  readonly #connect: (handshakeMs: number) => WebSocket;
  readonly #signal: AbortSignal;
  readonly #onFault: TtsOpenOptions['onFault'];
  readonly #now: () => number;
  readonly #log: NonNullable<DeepgramTextToSpeechOptions['log']>;
  readonly #events: EventFanout<TtsEvent>;
  #socket: WebSocket;
  #outbox: string[] = [];
  #state: 'connecting' | 'open' | 'reconnecting' | 'closing' | 'closed' = 'connecting';
  #clearsInFlight = 0;
  /** Time of the first `speak()` of each segment (text up to a flush) whose first audio is still due. */
  #segmentStarts: number[] = [];
  #segmentOpen = false;
  /** Per flush in flight: did it close a segment that had text? */
  #flushes: boolean[] = [];
  #firstByteSeen = false;
  /** Text not yet wholly heard back as audio, by segment: what a replacement socket is sent again. */
  #unspoken: Segment[] = [];
  /** Audio bytes received (skipped ones too) of the first unspoken segment since its socket opened. */
  #received = 0;
  /** Audio of a re-sent segment that was already received before the drop: not passed on twice. */
  #skip = 0;

  constructor(connect: (handshakeMs: number) => WebSocket, options: DeepgramTextToSpeechOptions, o: TtsOpenOptions) {
    this.#connect = connect;
    this.#signal = o.signal;
    this.#onFault = o.onFault;
    this.#now = options.now ?? (() => performance.now());
    this.#log = options.log ?? createLogger({ service: 'media' });
    this.#events = new EventFanout(this.#log, 'tts.listener.failed');
    this.#socket = this.#attach(connect(options.connectTimeoutMs ?? 5000));
    if (o.signal.aborted) this.close();
    else o.signal.addEventListener('abort', () => this.close(), { once: true });
  }

  /** Listens to `socket`; events of a socket that was since replaced are ignored. */
  #attach(socket: WebSocket): WebSocket {
    socket.on('open', () => socket === this.#socket && this.#onOpen());
    socket.on('message', (data, isBinary) => socket === this.#socket && this.#onMessage(data, isBinary));
    socket.on('error', (error) => socket === this.#socket && this.#onSocketError(error));
    socket.on('close', (code) => socket === this.#socket && this.#onClose(code));
    return socket;
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
    const last = this.#unspoken.at(-1);
    if (last && !last.flushed) last.texts.push(text);
    else this.#unspoken.push({ texts: [text], flushed: false });
    this.#send({ type: 'Speak', text });
  }

  flush(): void {
    if (this.#state === 'closing' || this.#state === 'closed') return;
    this.#flushes.push(this.#segmentOpen);
    this.#segmentOpen = false;
    const last = this.#unspoken.at(-1);
    if (last && !last.flushed) last.flushed = true;
    else this.#unspoken.push({ texts: [], flushed: true });
    this.#send({ type: 'Flush' });
  }

  clear(): void {
    if (this.#state === 'closing' || this.#state === 'closed') return;
    // Not yet sent: simply forget it. Already sent: ask Aura to drop it and ignore audio until Cleared.
    this.#outbox = [];
    this.#segmentStarts = [];
    this.#flushes = [];
    this.#segmentOpen = false;
    this.#firstByteSeen = false;
    this.#unspoken = [];
    this.#received = 0;
    this.#skip = 0;
    // A replacement socket being opened has nothing to clear: confirm at once (after this call returns).
    if (this.#state === 'reconnecting') return queueMicrotask(() => this.#emit({ type: 'cleared' }));
    this.#clearsInFlight += 1;
    this.#send({ type: 'Clear' });
  }

  close(): void {
    if (this.#state === 'closing' || this.#state === 'closed') return;
    const wasOpen = this.#state === 'open';
    this.#state = 'closing';
    const socket = this.#socket;
    if (wasOpen) socket.send(JSON.stringify({ type: 'Close' }));
    socket.close(1000);
    setTimeout(() => socket.terminate(), 2000).unref();
  }

  #send(message: Record<string, unknown>): void {
    if (this.#state === 'closing' || this.#state === 'closed') return;
    // While a replacement socket opens, `#unspoken` holds everything it will be sent.
    if (this.#state === 'reconnecting') return;
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
      // Every audio byte of the first unspoken segment is in: a replacement socket need not say it.
      this.#unspoken.shift();
      this.#received = 0;
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

  #onAudio(received: Uint8Array): void {
    if (this.#clearsInFlight > 0) return;
    let mulaw = received;
    this.#received += received.length;
    if (this.#skip > 0) {
      const skipped = Math.min(this.#skip, mulaw.length);
      this.#skip -= skipped;
      mulaw = mulaw.subarray(skipped);
      if (mulaw.length === 0) return;
    }
    const startedAt = this.#firstByteSeen ? undefined : this.#segmentStarts.shift();
    if (startedAt !== undefined) {
      this.#firstByteSeen = true;
      return this.#emit({ type: 'audio', mulaw, firstByteMs: Math.round(this.#now() - startedAt) });
    }
    this.#emit({ type: 'audio', mulaw });
  }

  #onSocketError(error: Error): void {
    if (this.#state === 'reconnecting') return; // the attempt's own wait reports it
    if (this.#state === 'open' && !this.#signal.aborted) return void this.#reconnect(`Aura socket error: ${error.message}`);
    this.#fail(connectionError('deepgram', 'Aura', error));
  }

  #onClose(code: number): void {
    if (this.#state === 'closed' || this.#state === 'reconnecting') return;
    if (this.#state === 'open' && !this.#signal.aborted) return void this.#reconnect(`Aura closed the stream unexpectedly (code ${code}).`);
    this.#state = 'closed';
    this.#emit({ type: 'closed' });
  }

  /**
   * The socket dropped mid-call: a new one takes over (docs/design.md "Provider faults"). It is sent
   * again every segment whose audio had not all come back, and the audio of the first one that
   * already came (and was played) is dropped from its answer, so the caller hears the reply go on
   * where it stopped, never twice. Only when every attempt fails is the drop an error.
   */
  async #reconnect(why: string): Promise<void> {
    this.#state = 'reconnecting';
    this.#socket.terminate();
    const startedAt = this.#now();
    try {
      await reconnect(() => this.#replaceSocket(), this.#signal);
    } catch (error) {
      if (this.#state !== 'reconnecting') return;
      this.#state = 'open';
      const message = `${why} Reconnecting failed: ${error instanceof Error ? error.message : String(error)}`;
      return this.#fail(new ProviderError('deepgram', message, undefined, { retryable: true, cause: error }));
    }
    if (this.#state !== 'reconnecting') return void this.#socket.close(1000);
    this.#state = 'open';
    this.#skip = this.#received;
    this.#received = 0;
    for (const segment of this.#unspoken) {
      for (const text of segment.texts) this.#socket.send(JSON.stringify({ type: 'Speak', text }));
      if (segment.flushed) this.#socket.send(JSON.stringify({ type: 'Flush' }));
    }
    this.#onFault?.('tts_reconnects', `${why} Reconnected in ${Math.round(this.#now() - startedAt)} ms.`);
  }

  /** Opens a replacement socket; resolves once it is open, rejects when its handshake fails. */
  #replaceSocket(): Promise<void> {
    const socket = this.#connect(RECONNECT_HANDSHAKE_MS);
    this.#socket = this.#attach(socket);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', (error) => reject(connectionError('deepgram', 'Aura', error)));
      socket.once('close', (code) => reject(new ProviderError('deepgram', `Aura closed during the handshake (code ${code}).`)));
    });
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
