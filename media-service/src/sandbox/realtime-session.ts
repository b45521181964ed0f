import * as v from 'valibot';
import type { RawData, WebSocket } from 'ws';
import { toBytes } from './flux-session';
import { DEFAULT_FLUX_TUNING, FluxTurnDetector, FrameSplitter, type FluxTurnEvent } from './flux-turn-detector';
import { MULAW_BYTES_PER_MS } from './mulaw-signal';
import { RealtimeReplies, type RealtimeTuning } from './realtime-replies';

/**
 * One `/v1/realtime` connection of the sandbox OpenAI (docs/protocols.md "OpenAI", GA events): session
 * config, energy VAD on the μ-law it receives (the Flux stand-in's detector, on audio time, so the
 * same bytes give the same events), the caller's words from the transcript board, and replies
 * streamed by {@link RealtimeReplies}. Errors use the real API's shape and texts.
 */

/** Everything observable about one connection. */
export interface RealtimeConnectionRecord {
  readonly model: string;
  readonly tag: string | undefined;
  readonly authorization: string;
  /** Client events, parsed (audio appends are counted in `audioBytes`, not kept). */
  readonly received: Record<string, unknown>[];
  readonly sent: Record<string, unknown>[];
  /** The session as last updated. */
  session: Record<string, unknown>;
  audioBytes: number;
  /** The stand-in dropped the socket on purpose (a fault number's `stt-drop`). */
  dropped?: boolean;
  /** Every truncation accepted or refused, with the audio the item had. */
  readonly truncations: { itemId: string; audioEndMs: number; generatedMs: number; refused: boolean }[];
  closed: boolean;
}

const SESSION_KEYS = new Set([
  'type',
  'model',
  'instructions',
  'output_modalities',
  'audio',
  'tools',
  'tool_choice',
  'max_output_tokens',
  'truncation',
  'tracing',
  'prompt',
  'include',
]);

const ClientEventSchema = v.variant('type', [
  v.looseObject({ type: v.literal('session.update'), session: v.record(v.string(), v.unknown()) }),
  v.looseObject({ type: v.literal('input_audio_buffer.append'), audio: v.string() }),
  v.looseObject({ type: v.literal('input_audio_buffer.commit') }),
  v.looseObject({ type: v.literal('input_audio_buffer.clear') }),
  v.looseObject({
    type: v.literal('response.create'),
    response: v.optional(v.looseObject({ instructions: v.optional(v.string()), metadata: v.optional(v.record(v.string(), v.string())) })),
  }),
  v.looseObject({ type: v.literal('response.cancel') }),
  v.looseObject({
    type: v.literal('conversation.item.truncate'),
    item_id: v.string(),
    content_index: v.number(),
    audio_end_ms: v.number(),
  }),
  v.looseObject({ type: v.literal('conversation.item.create'), item: v.looseObject({ type: v.string() }) }),
]);

type ClientEvent = v.InferOutput<typeof ClientEventSchema>;

/** Drives one accepted WebSocket until it closes. */
export class RealtimeSession {
  readonly #socket: WebSocket;
  readonly #record: RealtimeConnectionRecord;
  readonly #replies: RealtimeReplies;
  readonly #frames = new FrameSplitter();
  #detector: FluxTurnDetector | undefined;
  #userItem: { id: string; startMs: number } | undefined;
  #sequence = 0;
  readonly #connection: number;
  readonly #dropsNow: () => boolean;

  /**
   * `connection` numbers the ids this connection makes, so they are unique across a call's sockets
   * (as the real API's are). `dropsNow` is asked once the caller's turn was answered: true drops
   * the socket there and then, with no close frame (a fault number's `stt-drop`).
   */
  constructor(
    socket: WebSocket,
    record: RealtimeConnectionRecord,
    tuning: () => RealtimeTuning,
    replies: Omit<ConstructorParameters<typeof RealtimeReplies>[0], 'send' | 'session' | 'newId' | 'tuning'>,
    options: { connection?: number; dropsNow?: () => boolean } = {},
  ) {
    this.#socket = socket;
    this.#record = record;
    this.#connection = options.connection ?? 0;
    this.#dropsNow = options.dropsNow ?? (() => false);
    this.#replies = new RealtimeReplies({
      ...replies,
      tuning,
      send: (event) => this.#send(event),
      session: () => this.#record.session,
      newId: (prefix) => this.#newId(prefix),
    });
    socket.on('message', (data) => this.#onMessage(data));
    socket.on('close', () => {
      record.closed = true;
      this.#replies.close();
    });
    this.#send({ type: 'session.created', session: record.session });
  }

  #onMessage(data: RawData): void {
    let raw: unknown;
    try {
      raw = JSON.parse(Buffer.from(toBytes(data)).toString('utf8'));
    } catch {
      raw = undefined;
    }
    const parsed = v.safeParse(ClientEventSchema, raw);
    if (!parsed.success) {
      this.#record.received.push({ raw });
      const type = (raw as { type?: unknown } | undefined)?.type;
      return this.#error(
        `Invalid value: '${String(type)}'. Supported values are: 'session.update', 'input_audio_buffer.append', 'response.create', …`,
        'invalid_value',
      );
    }
    const event = parsed.output;
    if (event.type !== 'input_audio_buffer.append') this.#record.received.push(event);
    this.#handle(event);
  }

  #handle(event: ClientEvent): void {
    switch (event.type) {
      case 'session.update':
        return this.#update(event.session);
      case 'input_audio_buffer.append':
        return this.#hear(Buffer.from(event.audio, 'base64'));
      case 'response.create': {
        const active = this.#replies.create({ ...event.response });
        if (active !== undefined)
          this.#error(
            `Conversation already has an active response in progress: ${active}. Wait until the response is finished before creating a new one.`,
            'conversation_already_has_active_response',
          );
        return;
      }
      case 'response.cancel':
        if (!this.#replies.cancel('client_cancelled'))
          this.#error('Cancellation failed: no active response found', 'response_cancel_not_active');
        return;
      case 'conversation.item.truncate':
        return this.#truncate(event.item_id, event.audio_end_ms);
      case 'conversation.item.create':
        return this.#replies.addItem(event.item);
      default:
        return;
    }
  }

  #update(update: Record<string, unknown>): void {
    const unknown = Object.keys(update).find((key) => !SESSION_KEYS.has(key));
    if (unknown !== undefined) return this.#error(`Unknown parameter: 'session.${unknown}'.`, 'unknown_parameter');
    if (update.type !== 'realtime') return this.#error("Missing required parameter: 'session.type'.", 'missing_required_parameter');
    const audio = update.audio as { input?: { format?: { type?: string } }; output?: { format?: { type?: string } } } | undefined;
    for (const side of ['input', 'output'] as const) {
      const format = audio?.[side]?.format?.type;
      if (format !== undefined && format !== 'audio/pcmu')
        return this.#error(`The sandbox speaks audio/pcmu only, got '${format}' for ${side}.`, 'invalid_value');
    }
    const current = this.#record.session as { audio?: { input?: object; output?: object } };
    const before = JSON.stringify(this.#detectorSettings());
    this.#record.session = {
      ...current,
      ...update,
      audio: { input: { ...current.audio?.input, ...audio?.input }, output: { ...current.audio?.output, ...audio?.output } },
    };
    const language = (audio?.input as { transcription?: { language?: unknown } | null } | undefined)?.transcription?.language;
    if (typeof language === 'string' && this.#record.tag !== undefined) this.#replies.board?.setLanguage(this.#record.tag, language);
    // Only new detection settings restart the detector: a mid-call update (interrupt_response) keeps the caller's turn.
    if (JSON.stringify(this.#detectorSettings()) !== before) this.#detector = undefined;
    this.#send({ type: 'session.updated', session: this.#record.session });
  }

  /** Server VAD on audio time: the Flux detector's turns become speech_started / speech_stopped. */
  #hear(audio: Uint8Array): void {
    this.#record.audioBytes += audio.length;
    const vad = (
      this.#record.session as { audio?: { input?: { turn_detection?: { type?: string; silence_duration_ms?: number } | null } } }
    ).audio?.input?.turn_detection;
    if (vad?.type !== 'server_vad') return;
    // Flux ends a turn after 250 + (t − 0.5) × 750 ms of silence: pick t so that equals silence_duration_ms.
    const silenceMs = vad.silence_duration_ms ?? 500;
    this.#detector ??= new FluxTurnDetector(
      { eotThreshold: Math.min(0.99, Math.max(0.5, 0.5 + (silenceMs - 250) / 750)), eotTimeoutMs: Math.max(5000, silenceMs) },
      DEFAULT_FLUX_TUNING,
      () => (this.#record.tag === undefined ? undefined : this.#replies.board?.next(this.#record.tag)),
    );
    for (const frame of this.#frames.push(audio)) for (const event of this.#detector.push(frame)) this.#onTurn(event);
  }

  #onTurn(event: FluxTurnEvent): void {
    if (event.event === 'StartOfTurn') {
      this.#userItem = { id: this.#newId('item'), startMs: event.windowStartMs };
      this.#send({ type: 'input_audio_buffer.speech_started', audio_start_ms: event.windowStartMs, item_id: this.#userItem.id });
      const vad = this.#vad();
      if (vad.interrupt_response !== false) this.#replies.cancel('turn_detected');
      return;
    }
    if (event.event !== 'EndOfTurn' || !this.#userItem) return;
    const item = this.#userItem;
    this.#userItem = undefined;
    this.#send({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: event.windowEndMs, item_id: item.id });
    this.#send({ type: 'input_audio_buffer.committed', previous_item_id: this.#replies.lastItemId ?? null, item_id: item.id });
    this.#replies.addUser(item.id, event.transcript);
    const seconds = Math.round((event.windowEndMs - item.startMs) / 100) / 10;
    const input = (this.#record.session as { audio?: { input?: { transcription?: unknown } } }).audio?.input;
    if (input?.transcription) {
      this.#send({
        type: 'conversation.item.input_audio_transcription.completed',
        item_id: item.id,
        content_index: 0,
        transcript: event.transcript,
        usage: { type: 'duration', seconds },
      });
    }
    if (this.#vad().create_response !== false) this.#replies.create({}, true);
    if (this.#dropsNow()) {
      this.#record.dropped = true;
      this.#socket.terminate();
    }
  }

  /** What the voice detector is built from. */
  #detectorSettings(): unknown {
    const vad = this.#vad() as { type?: string; silence_duration_ms?: number };
    return [vad.type, vad.silence_duration_ms];
  }

  #vad(): { create_response?: boolean; interrupt_response?: boolean } {
    return (
      (this.#record.session as { audio?: { input?: { turn_detection?: { create_response?: boolean; interrupt_response?: boolean } } } })
        .audio?.input?.turn_detection ?? {}
    );
  }

  /** The truncation gotcha, enforced as the real API does: never past the audio generated. */
  #truncate(itemId: string, audioEndMs: number): void {
    const generatedMs = this.#replies.generatedMs(itemId);
    if (generatedMs === undefined) return this.#error(`Conversation item '${itemId}' not found.`, 'item_not_found');
    const refused = audioEndMs > generatedMs;
    this.#record.truncations.push({ itemId, audioEndMs, generatedMs, refused });
    if (refused) return this.#error(`Audio content of ${generatedMs}ms is already shorter than ${audioEndMs}ms`, 'invalid_value');
    this.#replies.truncate(itemId, audioEndMs / generatedMs);
    this.#send({ type: 'conversation.item.truncated', item_id: itemId, content_index: 0, audio_end_ms: audioEndMs });
  }

  #error(message: string, code: string): void {
    this.#send({ type: 'error', error: { type: 'invalid_request_error', code, message, param: null, event_id: null } });
  }

  #newId(prefix: string): string {
    const connection = this.#connection === 0 ? '' : `${this.#connection}_`;
    return `${prefix}_sandbox${connection}${String(++this.#sequence).padStart(6, '0')}`;
  }

  #send(event: Record<string, unknown>): void {
    if (this.#socket.readyState !== this.#socket.OPEN) return;
    const message = { ...event, event_id: this.#newId('event') };
    if (event.type !== 'response.output_audio.delta') this.#record.sent.push(message);
    this.#socket.send(JSON.stringify(message));
  }
}

/** Audio ms of `bytes` μ-law. */
export const mulawMs = (bytes: number): number => Math.floor(bytes / MULAW_BYTES_PER_MS);
