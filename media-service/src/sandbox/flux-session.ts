import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import type { RawData, WebSocket } from 'ws';
import { FluxTurnDetector, FrameSplitter, type FluxTuning, type FluxTurnEvent } from './flux-turn-detector';

/**
 * One Flux `/v2/listen` connection of the sandbox: feeds received μ-law into the turn detector and
 * answers with the exact server messages of the Flux protocol (docs/protocols.md "Deepgram"): `Connected`,
 * `TurnInfo`, `ConfigureSuccess`, `Error`, with `sequence_id` counting every message from 0.
 */

/** The handshake query, already validated by the server. */
export interface FluxQuery {
  model: string;
  encoding: string;
  sampleRate: number;
  eotThreshold: number;
  eagerEotThreshold?: number;
  eotTimeoutMs: number;
  keyterms: string[];
  /** `language_hint` values (flux-general-multi only). */
  languageHints: string[];
  tag?: string;
}

/** Ways a sandbox Flux connection can misbehave, to exercise clients' failure paths. */
export type FluxFault =
  | 'none'
  /** Accepts the socket and audio but never sends a single message. */
  | 'silent'
  /** Behaves until the first `StartOfTurn`, then goes quiet forever (pipecat issue #5735). */
  | 'stall-after-start-of-turn'
  /** Sends `Connected`, then a fatal `Error` and closes with 1011. */
  | 'error';

/** A server message as sent on the wire. */
export type FluxServerMessage = { type: string; sequence_id: number } & Record<string, unknown>;

/** Everything observable about one connection, for tests and the dev console. */
export interface FluxConnectionRecord {
  readonly query: FluxQuery;
  readonly authorization: string;
  audioBytes: number;
  readonly sent: FluxServerMessage[];
  /** `performance.now()` when each `sent` message went out (same index). */
  readonly sentAt: number[];
  readonly received: unknown[];
  closed: boolean;
  closeCode?: number;
  /** The stand-in dropped the socket on purpose (a fault number's `stt-drop`). */
  dropped?: boolean;
}

const ClientMessageSchema = v.variant('type', [
  v.object({ type: v.literal('CloseStream') }),
  v.object({ type: v.literal('ForceEndTurn') }),
  v.object({
    type: v.literal('Configure'),
    thresholds: v.optional(
      v.object({
        eot_threshold: v.optional(v.number()),
        eager_eot_threshold: v.optional(v.number()),
        eot_timeout_ms: v.optional(v.number()),
      }),
    ),
    keyterms: v.optional(v.array(v.string())),
    language_hints: v.optional(v.array(v.string())),
  }),
]);

/** Drives one accepted WebSocket until it closes. */
export class FluxSession {
  readonly #socket: WebSocket;
  readonly #record: FluxConnectionRecord;
  readonly #fault: FluxFault;
  readonly #detector: FluxTurnDetector;
  readonly #frames = new FrameSplitter();
  readonly #requestId = randomUUID();
  #sequence = 0;
  #muted: boolean;

  readonly #dropsNow: () => boolean;

  /**
   * `dropsNow` is asked after each `EndOfTurn` sent: true drops the socket there and then, with no
   * close frame (the client sees 1006), as a network failure would (a fault number's `stt-drop`).
   */
  constructor(
    socket: WebSocket,
    record: FluxConnectionRecord,
    tuning: FluxTuning,
    fault: FluxFault,
    nextText: () => string | undefined,
    dropsNow: () => boolean = () => false,
  ) {
    this.#socket = socket;
    this.#dropsNow = dropsNow;
    this.#record = record;
    this.#fault = fault;
    this.#muted = fault === 'silent';
    const { eotThreshold, eagerEotThreshold, eotTimeoutMs } = record.query;
    this.#detector = new FluxTurnDetector({ eotThreshold, eagerEotThreshold, eotTimeoutMs }, tuning, nextText);
    socket.on('message', (data, isBinary) => this.#onMessage(data, isBinary));
    socket.on('close', (code) => {
      record.closed = true;
      record.closeCode = code;
    });
    this.#send({ type: 'Connected', request_id: this.#requestId });
    if (fault === 'error') this.#fail('INTERNAL_SERVER_ERROR', 'Sandbox fault: the recogniser failed.', 1011);
  }

  #onMessage(data: RawData, isBinary: boolean): void {
    if (this.#record.closed) return;
    const bytes = toBytes(data);
    if (isBinary) return this.#onAudio(bytes);
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(bytes).toString('utf8'));
    } catch {
      parsed = undefined;
    }
    this.#record.received.push(parsed);
    const message = v.safeParse(ClientMessageSchema, parsed);
    if (!message.success) return this.#fail('UNPARSABLE_CLIENT_MESSAGE', 'The server could not parse the client message.', 1008);
    const m = message.output;
    if (m.type === 'CloseStream') {
      this.#sendTurns(this.#detector.finish());
      this.#socket.close(1000);
    } else if (m.type === 'ForceEndTurn') {
      this.#sendTurns(this.#detector.forceEndTurn());
    } else {
      this.#configure(m);
    }
  }

  #onAudio(bytes: Uint8Array): void {
    this.#record.audioBytes += bytes.length;
    for (const frame of this.#frames.push(bytes)) this.#sendTurns(this.#detector.push(frame));
  }

  #configure(m: {
    thresholds?: { eot_threshold?: number; eager_eot_threshold?: number; eot_timeout_ms?: number };
    keyterms?: string[];
    language_hints?: string[];
  }): void {
    const t = m.thresholds ?? {};
    const next = this.#detector.configure({
      ...(t.eot_threshold !== undefined && { eotThreshold: t.eot_threshold }),
      ...(t.eager_eot_threshold !== undefined && { eagerEotThreshold: t.eager_eot_threshold }),
      ...(t.eot_timeout_ms !== undefined && { eotTimeoutMs: t.eot_timeout_ms }),
    });
    this.#send({
      type: 'ConfigureSuccess',
      request_id: this.#requestId,
      thresholds: { eot_threshold: next.eotThreshold, eager_eot_threshold: next.eagerEotThreshold, eot_timeout_ms: next.eotTimeoutMs },
      keyterms: m.keyterms ?? this.#record.query.keyterms,
      language_hints: m.language_hints ?? this.#record.query.languageHints,
    });
  }

  #sendTurns(events: FluxTurnEvent[]): void {
    for (const e of events) {
      this.#send({
        type: 'TurnInfo',
        request_id: this.#requestId,
        event: e.event,
        turn_index: e.turnIndex,
        audio_window_start: e.windowStartMs / 1000,
        audio_window_end: e.windowEndMs / 1000,
        transcript: e.transcript,
        words: e.words.map((w) => ({ word: w.word, confidence: 0.95, start: w.startMs / 1000, end: w.endMs / 1000 })),
        end_of_turn_confidence: e.confidence,
        ...(e.trigger && { trigger: e.trigger }),
        ...this.#languages(e),
      });
      if (e.event === 'StartOfTurn' && this.#fault === 'stall-after-start-of-turn') this.#muted = true;
      if (e.event === 'EndOfTurn' && this.#dropsNow()) {
        this.#record.dropped = true;
        return void this.#socket.terminate();
      }
    }
  }

  /** flux-general-multi reports the languages it detected (the hinted one, in the sandbox) once there are words. */
  #languages(e: FluxTurnEvent): { languages?: string[]; languages_hinted?: string[] } {
    const hints = this.#record.query.languageHints;
    if (this.#record.query.model !== 'flux-general-multi' || hints.length === 0) return {};
    const base = hints[0]!.split('-')[0]!.toLowerCase();
    return { ...(e.words.length > 0 && { languages: [base] }), languages_hinted: hints };
  }

  #fail(code: string, description: string, closeCode: number): void {
    this.#send({ type: 'Error', code, description });
    this.#socket.close(closeCode, code);
  }

  #send(message: { type: string } & Record<string, unknown>): void {
    if (this.#muted || this.#socket.readyState !== this.#socket.OPEN) return;
    const wire: FluxServerMessage = { ...message, sequence_id: this.#sequence++ };
    this.#record.sent.push(wire);
    this.#record.sentAt.push(performance.now());
    this.#socket.send(JSON.stringify(wire));
  }
}

/** `ws` hands over a Buffer, an ArrayBuffer or fragments depending on settings; normalise to bytes. */
export function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}
