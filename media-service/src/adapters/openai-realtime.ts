import * as v from 'valibot';
import WebSocket, { type RawData } from 'ws';
import { ProviderError } from '../../../shared/errors';
import type { S2sEvent, S2sListener, S2sOpenOptions, S2sSession, SpeechToSpeech } from '../ports/speech-to-speech';
import { AudioReplay } from './audio-replay';
import { EventFanout } from './event-fanout';
import { RealtimeCommands } from './openai-realtime-commands';
import { RealtimeMemory } from './openai-realtime-memory';
import { IGNORED, outputEvent, ServerEventSchema, sessionUpdate, type RealtimeServerEvent } from './openai-realtime-wire';
import { reconnect, RECONNECT_HANDSHAKE_MS } from './reconnects';
import { connectionError, toBytes } from './ws-frames';
import { socketOpen } from './ws-open';
import { createLogger, type Logger } from '../../../shared/log';

export { LIVE_VAD, sessionUpdate } from './openai-realtime-wire';

/**
 * OpenAI Realtime (GA) over `ws` directly (docs/protocols.md "OpenAI"): the SDK's `OpenAIRealtimeWS` forces
 * `wss:`, so it could never reach the loopback sandbox; with `ws` the base URL is configurable.
 * μ-law in and out (`audio/pcmu`), so Twilio payloads pass through untouched.
 *
 * Quirks: GA sessions take no `temperature` (sending one is an unknown-parameter error); the
 * provider keeps the conversation, so barge-in must `conversation.item.truncate` the item to what
 * was heard, never past the audio generated ("Audio content of X ms is already shorter than Y ms").
 *
 * A socket that drops mid-call is replaced on the schedule of `reconnects.ts` (docs/design.md
 * "Provider faults"). The new one is given the session as last configured, the conversation so
 * far (`openai-realtime-memory.ts`) and the caller's audio since their last transcribed turn
 * (`audio-replay.ts`). A response under way is asked again under its old id, so the call sees
 * one response that went on; the call hears of the drop through `onFault`. Only when every
 * attempt fails is the drop a fatal `error`.
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
    const connect = (handshakeMs: number) =>
      new WebSocket(`${base}/realtime?${query}`, {
        headers: { Authorization: `Bearer ${this.#options.apiKey}` },
        handshakeTimeout: handshakeMs,
        perMessageDeflate: false,
      });
    const log = this.#options.log ?? createLogger({ service: 'media' });
    const session = new RealtimeSession(connect, log, o);
    session.connect(this.#options.connectTimeoutMs ?? 5000);
    session.send(sessionUpdate(o, model, this.#options.transcriptionModel ?? 'gpt-4o-mini-transcribe'));
    return session;
  }
}

type Message = Record<string, unknown>;

/** Replayed caller audio goes in appends of 1 s each. */
const REPLAY_APPEND_BYTES = 8000;

class RealtimeSession extends RealtimeCommands implements S2sSession {
  readonly #connect: (handshakeMs: number) => WebSocket;
  readonly #log: Logger;
  readonly #events: EventFanout<S2sEvent>;
  readonly #onFault: S2sOpenOptions['onFault'];
  /** Aborted by the call's signal or by `close()`: stops a reconnect under way. */
  readonly #stop = new AbortController();
  readonly #signal: AbortSignal;
  readonly #memory = new RealtimeMemory();
  /** The caller's audio since their last transcribed turn, replayed to a socket that replaces a dropped one. */
  readonly #replay = new AudioReplay();
  /** Stream position (bytes) of the end of each caller item not yet transcribed. */
  readonly #turnEnds = new Map<string, number>();
  #socket: WebSocket | undefined;
  #outbox: string[] = [];
  #state: 'connecting' | 'open' | 'reconnecting' | 'closing' | 'closed' = 'connecting';
  #ready = false;
  /** Stream position (bytes) where the current socket's audio time 0 is. */
  #audioBase = 0;
  /** Responses asked again after a reconnect, each once the one before is done. */
  #creates: Message[] = [];
  /** The response under way when the socket dropped (`old`, the id the call knows) and the one asked again for it (`next`). */
  #alias: { old: string; next?: string } | undefined;

  constructor(connect: (handshakeMs: number) => WebSocket, log: Logger, o: S2sOpenOptions) {
    super();
    this.#connect = connect;
    this.#log = log;
    this.#onFault = o.onFault;
    this.#events = new EventFanout(log, 'realtime.listener.failed');
    this.#signal = AbortSignal.any([o.signal, this.#stop.signal]);
    if (o.signal.aborted) this.close();
    else o.signal.addEventListener('abort', () => this.close(), { once: true });
  }

  /** Opens the first socket; commands wait in the outbox until it is open, and its failure is fatal. */
  connect(handshakeMs: number): void {
    this.#open(handshakeMs).then(
      () => this.#onOpen(),
      (error: unknown) => this.#fail(error instanceof ProviderError ? error : connectionError('openai', 'Realtime', error as Error)),
    );
  }

  /** A socket with this session's listeners, resolved once open; a failed handshake terminates it and rejects. */
  async #open(handshakeMs: number): Promise<void> {
    const socket = this.#connect(handshakeMs);
    this.#socket = socket;
    socket.on('message', (data) => socket === this.#socket && this.#onMessage(data));
    try {
      await socketOpen(socket, this.#signal, 'Realtime');
    } catch (error) {
      if (this.#socket === socket) this.#socket = undefined;
      throw error;
    }
    socket.on('error', (e) => socket === this.#socket && this.#onDrop(`Realtime socket error: ${e.message}`, e));
    socket.on('close', (code) => socket === this.#socket && this.#onDrop(`Realtime closed the session unexpectedly (code ${code}).`));
  }

  on(listener: S2sListener): () => void {
    return this.#events.on(listener);
  }

  appendAudio(mulaw: Uint8Array): void {
    if (this.#state === 'closing' || this.#state === 'closed') return;
    this.#replay.push(mulaw);
    if (this.#state === 'reconnecting') return;
    this.#sendText(
      JSON.stringify({
        type: 'input_audio_buffer.append',
        audio: Buffer.from(mulaw.buffer, mulaw.byteOffset, mulaw.byteLength).toString('base64'),
      }),
    );
  }

  close(): void {
    if (this.#state === 'closing' || this.#state === 'closed') return;
    const socket = this.#state === 'reconnecting' ? undefined : this.#socket;
    this.#state = 'closing';
    this.#stop.abort();
    if (!socket) return this.#closed();
    socket.close(1000);
    setTimeout(() => socket.terminate(), 2000).unref();
  }

  /**
   * Sends (or buffers until the first socket is open) one client event, remembered for a
   * reconnect. While a new socket is being found, the event only changes what it will be given;
   * a cancel there ends the response under way at once.
   */
  override send(message: Message): void {
    if (this.#state === 'closing' || this.#state === 'closed') return;
    if (this.#state === 'reconnecting' && message.type === 'response.cancel') return this.#cancelWhileDown();
    this.#memory.client(message);
    if (this.#state !== 'reconnecting') this.#sendText(JSON.stringify(message));
  }

  #sendText(text: string): void {
    if (this.#state === 'connecting') this.#outbox.push(text);
    else this.#socket?.send(text);
  }

  #onOpen(): void {
    if (this.#state !== 'connecting') return void this.#socket?.close(1000);
    this.#state = 'open';
    for (const text of this.#outbox) this.#socket!.send(text);
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
    if (parsed.success) {
      this.#memory.server(parsed.output);
      return this.#dispatch(parsed.output);
    }
    const type = (raw as { type?: unknown } | undefined)?.type;
    if (typeof type !== 'string' || !IGNORED.has(type))
      this.#log.warn('realtime.event.dropped', { type, issue: parsed.issues[0]?.message });
  }

  /** The response id the call knows (the one under way at a drop, for the response asked again in its place). */
  #visible(responseId: string): string {
    return this.#alias?.next === responseId ? this.#alias.old : responseId;
  }

  #dispatch(m: RealtimeServerEvent): void {
    const baseMs = Math.round(this.#audioBase / 8);
    switch (m.type) {
      case 'session.updated':
        if (this.#ready) return;
        this.#ready = true;
        return this.#emit({ type: 'ready' });
      case 'input_audio_buffer.speech_started':
        return this.#emit({ type: 'speech_started', itemId: m.item_id, audioStartMs: m.audio_start_ms + baseMs });
      case 'input_audio_buffer.speech_stopped':
        this.#turnEnds.set(m.item_id, this.#audioBase + m.audio_end_ms * 8);
        return this.#emit({ type: 'speech_stopped', itemId: m.item_id, audioEndMs: m.audio_end_ms + baseMs });
      case 'conversation.item.input_audio_transcription.completed': {
        // The turn is in the conversation as words now: a new socket needs only the audio after it.
        const end = this.#turnEnds.get(m.item_id);
        if (end !== undefined) this.#replay.dropBefore(end);
        this.#turnEnds.delete(m.item_id);
        return this.#emit({ type: 'caller_transcript', itemId: m.item_id, text: m.transcript });
      }
      case 'response.created':
        // The response asked again after a reconnect goes on under the old one's id.
        if (this.#alias && this.#alias.next === undefined) return void (this.#alias.next = m.response.id);
        return this.#emit({
          type: 'response_created',
          responseId: m.response.id,
          ...(m.response.metadata?.tag !== undefined && { tag: m.response.metadata.tag }),
        });
      case 'response.output_audio.delta':
      case 'response.output_audio_transcript.delta':
      case 'response.output_audio_transcript.done':
      case 'response.function_call_arguments.done':
        return this.#emit(outputEvent(m, this.#visible(m.response_id)));
      case 'response.done': {
        const usage = m.response.usage ?? { input_tokens: 0, output_tokens: 0 };
        const responseId = this.#visible(m.response.id);
        if (responseId !== m.response.id) this.#alias = undefined;
        this.#emit({
          type: 'response_done',
          responseId,
          status: m.response.status,
          usage: { input: usage.input_tokens, output: usage.output_tokens },
        });
        return this.#nextCreate();
      }
      case 'error': {
        const code = m.error.code ?? m.error.type ?? '';
        this.#memory.server({ type: 'refused', code });
        const error = new ProviderError('openai', `Realtime error ${code}: ${m.error.message}`, undefined, { retryable: false });
        return this.#emit({ type: 'error', error, fatal: false });
      }
    }
  }

  /** The socket dropped: an open session reconnects; one connecting or closing ends. */
  #onDrop(why: string, error?: Error): void {
    if (this.#state === 'open' && !this.#signal.aborted) return void this.#reconnect(why);
    if (this.#state === 'closed') return;
    if (error && this.#state !== 'closing') return this.#fail(connectionError('openai', 'Realtime', error));
    this.#closed();
  }

  /**
   * A new socket takes over (docs/design.md "Provider faults"): the session as last configured,
   * the conversation so far, the response under way asked again (then ours not yet created, and
   * the answer to a transcribed turn nobody answered), then the caller's audio since their last
   * transcribed turn, including what arrived meanwhile.
   */
  async #reconnect(why: string): Promise<void> {
    this.#state = 'reconnecting';
    const dropped = this.#socket;
    this.#socket = undefined;
    dropped?.terminate();
    const startedAt = performance.now();
    try {
      await reconnect(() => this.#open(RECONNECT_HANDSHAKE_MS), this.#signal);
    } catch (error) {
      if (this.#state !== 'reconnecting') return this.#closed();
      const message = `${why} Reconnecting failed: ${error instanceof Error ? error.message : String(error)}`;
      this.#state = 'open';
      return this.#fail(new ProviderError('openai', message, undefined, { retryable: true, cause: error }));
    }
    if (this.#state !== 'reconnecting') return void (this.#socket as WebSocket | undefined)?.close(1000);
    this.#state = 'open';
    const restore = this.#memory.restore();
    this.#alias = restore.resumes === undefined ? undefined : { old: this.#visible(restore.resumes) };
    for (const message of restore.setup) this.#sendText(JSON.stringify(message));
    this.#creates = restore.creates;
    this.#nextCreate();
    const { at, bytes } = this.#replay.from(0);
    this.#audioBase = at;
    this.#turnEnds.clear();
    for (let offset = 0; offset < bytes.length; offset += REPLAY_APPEND_BYTES) {
      const audio = Buffer.from(bytes.subarray(offset, offset + REPLAY_APPEND_BYTES)).toString('base64');
      this.#sendText(JSON.stringify({ type: 'input_audio_buffer.append', audio }));
    }
    const ms = Math.round(performance.now() - startedAt);
    const items = restore.setup.length - 1;
    this.#onFault?.('stt_reconnects', `${why} Reconnected in ${ms} ms: ${items} items, ${bytes.length} bytes replayed.`);
  }

  #nextCreate(): void {
    const next = this.#creates.shift();
    if (next) this.send(next);
  }

  /** A cancel while no socket is up: the response under way ends now, and is not asked again. */
  #cancelWhileDown(): void {
    const active = this.#memory.active;
    if (active === undefined) return;
    this.#memory.forgetActive();
    this.#emit({ type: 'response_done', responseId: this.#visible(active), status: 'cancelled', usage: { input: 0, output: 0 } });
  }

  /** A fatal error (none when we were closing anyway), then `closed`. */
  #fail(error: ProviderError): void {
    if (this.#state === 'closed') return;
    if (this.#state !== 'closing') this.#emit({ type: 'error', error, fatal: true });
    this.#closed();
  }

  #closed(): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#stop.abort();
    this.#socket?.terminate();
    this.#emit({ type: 'closed' });
  }

  #emit(event: S2sEvent): void {
    this.#events.emit(event);
  }
}
