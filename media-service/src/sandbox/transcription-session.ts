import * as v from 'valibot';
import type { RawData, WebSocket } from 'ws';
import { OPENAI_STT_MODELS } from '../../../shared/domain/speech-catalog';
import { toBytes } from './flux-session';
import { DEFAULT_FLUX_TUNING, FluxTurnDetector, FrameSplitter, type FluxTurnEvent } from './flux-turn-detector';
import type { TranscriptBoard } from './transcript-board';

/**
 * One `/v1/realtime?intent=transcription` connection of the sandbox OpenAI (GA transcription
 * sessions, docs/protocols.md "OpenAI realtime transcription"): `session.created`, `session.update`
 * → `session.updated`, base64 `audio/pcmu` appends heard by the Flux stand-in's energy detector
 * on audio time (the same bytes give the same events), and per caller utterance
 * `speech_started` → `speech_stopped` → `committed` → one `delta` per word → `completed`, the
 * words popped from the transcript board by the connection's `tag` (the call SID). With
 * `turn_detection: null` nothing is detected and only `input_audio_buffer.commit` makes an item.
 * Errors use the API's shape (`invalid_request_error` with a code).
 */

/** Everything observable about one transcription connection. */
export interface TranscriptionConnectionRecord {
  readonly tag: string | undefined;
  readonly authorization: string;
  /** Client events, parsed (audio appends are counted in `audioBytes`, not kept). */
  readonly received: Record<string, unknown>[];
  readonly sent: Record<string, unknown>[];
  /** The session as last updated. */
  session: TranscriptionSession;
  audioBytes: number;
  closed: boolean;
  /** The stand-in dropped the socket on purpose (a fault number's `stt-drop`). */
  dropped?: boolean;
}

const TurnDetectionSchema = v.nullable(
  v.strictObject({
    type: v.literal('server_vad'),
    threshold: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
    prefix_padding_ms: v.optional(v.number()),
    silence_duration_ms: v.optional(v.pipe(v.number(), v.minValue(0))),
    idle_timeout_ms: v.optional(v.nullable(v.number())),
  }),
);

const SessionSchema = v.strictObject({
  type: v.literal('transcription'),
  audio: v.optional(
    v.strictObject({
      input: v.optional(
        v.strictObject({
          format: v.optional(v.strictObject({ type: v.literal('audio/pcmu') })),
          transcription: v.optional(
            v.nullable(
              v.strictObject({
                model: v.picklist([...OPENAI_STT_MODELS, 'gpt-4o-transcribe-diarize', 'gpt-realtime-whisper']),
                language: v.optional(v.pipe(v.string(), v.regex(/^[a-z]{2}$/))),
                prompt: v.optional(v.string()),
                keywords: v.optional(v.array(v.string())),
              }),
            ),
          ),
          turn_detection: v.optional(TurnDetectionSchema),
          noise_reduction: v.optional(v.nullable(v.strictObject({ type: v.picklist(['near_field', 'far_field']) }))),
        }),
      ),
    }),
  ),
  include: v.optional(v.nullable(v.array(v.literal('item.input_audio_transcription.logprobs')))),
});

type SessionUpdate = v.InferOutput<typeof SessionSchema>;

/** The session as the sandbox reports it. */
export interface TranscriptionSession {
  type: 'transcription';
  object: 'realtime.transcription_session';
  id: string;
  audio: { input: Record<string, unknown> & { turn_detection: v.InferOutput<typeof TurnDetectionSchema> } };
  include: string[] | null;
}

/** The session before any update (the API's defaults). */
export function defaultTranscriptionSession(): TranscriptionSession {
  return {
    type: 'transcription',
    object: 'realtime.transcription_session',
    id: `sess_sandbox_${Date.now().toString(36)}`,
    audio: {
      input: {
        format: { type: 'audio/pcm', rate: 24000 },
        transcription: null,
        noise_reduction: null,
        turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 500, idle_timeout_ms: null },
      },
    },
    include: null,
  };
}

const ClientEventSchema = v.variant('type', [
  v.looseObject({ type: v.literal('session.update'), session: v.unknown() }),
  v.looseObject({ type: v.literal('input_audio_buffer.append'), audio: v.string() }),
  v.looseObject({ type: v.literal('input_audio_buffer.commit') }),
  v.looseObject({ type: v.literal('input_audio_buffer.clear') }),
]);

/** Drives one accepted transcription WebSocket until it closes. */
export class SandboxTranscriptionSession {
  readonly #socket: WebSocket;
  readonly #record: TranscriptionConnectionRecord;
  readonly #board: () => TranscriptBoard | undefined;
  readonly #frames = new FrameSplitter();
  #detector: FluxTurnDetector | undefined;
  #item: { id: string; startMs: number } | undefined;
  #lastItemId: string | null = null;
  #uncommittedBytes = 0;
  #sequence = 0;
  readonly #dropsNow: () => boolean;

  /**
   * `dropsNow` is asked after each transcript completed: true drops the socket there and then,
   * with no close frame, as a network failure would (a fault number's `stt-drop`).
   */
  constructor(
    socket: WebSocket,
    record: TranscriptionConnectionRecord,
    board: () => TranscriptBoard | undefined,
    dropsNow: () => boolean = () => false,
  ) {
    this.#socket = socket;
    this.#record = record;
    this.#board = board;
    this.#dropsNow = dropsNow;
    socket.on('message', (data) => this.#onMessage(data));
    socket.on('close', () => (record.closed = true));
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
        `Invalid value: '${String(type)}'. Supported values are: 'session.update', 'input_audio_buffer.append', …`,
        'invalid_value',
      );
    }
    const event = parsed.output;
    if (event.type === 'input_audio_buffer.append') return this.#hear(Buffer.from(event.audio, 'base64'));
    this.#record.received.push(event);
    if (event.type === 'session.update') return this.#update(event.session);
    if (event.type === 'input_audio_buffer.commit') return this.#commit();
    this.#uncommittedBytes = 0;
    this.#item = undefined;
    this.#detector = undefined;
    this.#send({ type: 'input_audio_buffer.cleared' });
  }

  #update(session: unknown): void {
    const parsed = v.safeParse(SessionSchema, session);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const param = ['session', ...(issue.path ?? []).map((p) => String(p.key))].join('.');
      return this.#error(`Invalid value at '${param}': ${issue.message}`, 'invalid_value', param);
    }
    const update: SessionUpdate = parsed.output;
    const input = update.audio?.input ?? {};
    const current = this.#record.session;
    this.#record.session = {
      ...current,
      audio: { input: { ...current.audio.input, ...input } as TranscriptionSession['audio']['input'] },
      include: update.include ?? current.include,
    };
    const language = (input.transcription ?? undefined)?.language;
    if (language !== undefined && this.#record.tag !== undefined) this.#board()?.setLanguage(this.#record.tag, language);
    this.#detector = undefined;
    this.#send({ type: 'session.updated', session: this.#record.session });
  }

  #hear(audio: Uint8Array): void {
    this.#record.audioBytes += audio.length;
    this.#uncommittedBytes += audio.length;
    const vad = this.#record.session.audio.input.turn_detection;
    if (vad === null) return;
    // Flux ends a turn after 250 + (t − 0.5) × 750 ms of silence: pick t so that equals silence_duration_ms.
    const silenceMs = vad.silence_duration_ms ?? 500;
    this.#detector ??= new FluxTurnDetector(
      { eotThreshold: Math.min(0.99, Math.max(0.5, 0.5 + (silenceMs - 250) / 750)), eotTimeoutMs: Math.max(5000, silenceMs) },
      DEFAULT_FLUX_TUNING,
      () => this.#nextText(),
    );
    for (const frame of this.#frames.push(audio)) for (const event of this.#detector.push(frame)) this.#onTurn(event);
  }

  #nextText(): string | undefined {
    return this.#record.tag === undefined ? undefined : this.#board()?.next(this.#record.tag);
  }

  #onTurn(event: FluxTurnEvent): void {
    if (event.event === 'StartOfTurn') {
      this.#item = { id: this.#newId('item'), startMs: event.windowStartMs };
      this.#send({ type: 'input_audio_buffer.speech_started', audio_start_ms: event.windowStartMs, item_id: this.#item.id });
      return;
    }
    if (event.event !== 'EndOfTurn' || !this.#item) return;
    const endMs = event.words.at(-1)?.endMs ?? event.windowEndMs;
    this.#transcribe(this.#item, endMs, event.transcript);
  }

  /** A manual commit: ends the utterance in progress, or makes one item of the audio since the last commit. */
  #commit(): void {
    const ended = this.#detector?.forceEndTurn() ?? [];
    if (ended.length > 0) return ended.forEach((event) => this.#onTurn(event));
    if (this.#uncommittedBytes < 800 || this.#record.session.audio.input.turn_detection !== null)
      return this.#error('Error committing input audio buffer: buffer too small or empty.', 'input_audio_buffer_commit_empty');
    const endMs = Math.floor(this.#record.audioBytes / 8);
    this.#transcribe({ id: this.#newId('item'), startMs: endMs - Math.floor(this.#uncommittedBytes / 8) }, endMs, this.#nextText() ?? '');
  }

  #transcribe(item: { id: string; startMs: number }, endMs: number, transcript: string): void {
    this.#item = undefined;
    this.#uncommittedBytes = 0;
    if (this.#record.session.audio.input.turn_detection !== null)
      this.#send({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: endMs, item_id: item.id });
    this.#send({ type: 'input_audio_buffer.committed', previous_item_id: this.#lastItemId, item_id: item.id });
    this.#lastItemId = item.id;
    if (!this.#record.session.audio.input.transcription) return;
    for (const word of transcript.split(/(?<=\s)/)) {
      if (word !== '')
        this.#send({ type: 'conversation.item.input_audio_transcription.delta', item_id: item.id, content_index: 0, delta: word });
    }
    const seconds = Math.round((endMs - item.startMs) / 100) / 10;
    this.#send({
      type: 'conversation.item.input_audio_transcription.completed',
      item_id: item.id,
      content_index: 0,
      transcript,
      usage: { type: 'duration', seconds },
    });
    if (this.#dropsNow()) {
      this.#record.dropped = true;
      this.#socket.terminate();
    }
  }

  #error(message: string, code: string, param: string | null = null): void {
    this.#send({ type: 'error', error: { type: 'invalid_request_error', code, message, param, event_id: null } });
  }

  #newId(prefix: string): string {
    return `${prefix}_sandbox${String(++this.#sequence).padStart(6, '0')}`;
  }

  #send(event: Record<string, unknown>): void {
    if (this.#socket.readyState !== this.#socket.OPEN) return;
    const message = { ...event, event_id: this.#newId('event') };
    this.#record.sent.push(message);
    this.#socket.send(JSON.stringify(message));
  }
}
