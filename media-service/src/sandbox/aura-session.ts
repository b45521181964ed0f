import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import * as v from 'valibot';
import type { RawData, WebSocket } from 'ws';
import { toBytes } from './flux-session';
import { MULAW_BYTES_PER_MS, synthesizeSpeechLike, textSeed } from './mulaw-signal';

/**
 * One Aura `/v1/speak` connection of the sandbox (docs/protocols.md "Deepgram", "Aura TTS over WebSocket"):
 * `Speak` text becomes speech-like μ-law whose length follows the text, streamed as binary frames
 * after a first-byte delay; `Flush` → `Flushed` once the audio before it is out; `Clear` drops
 * everything not yet sent → `Cleared`; `Close` finishes the queue and closes.
 */

/** The handshake query, already validated by the server. */
export interface AuraQuery {
  model: string;
  encoding: string;
  sampleRate: number;
  speed: number;
  /** The call SID, sent only to the sandbox (the adapter's `sendTag`): what is said is kept per call on the board, and a fault number's `tts-drop` reads it. */
  tag?: string;
}

/** Timing knobs of the sandbox voice. */
export interface AuraTuning {
  /** Audio per character at speed 1.0 (~65 ms ≈ 150 words a minute), divided by `speed`. */
  msPerChar: number;
  /** Delay before the first audio after connect, `Flush` or `Clear` (Aura-2 claims sub-200 ms). */
  firstByteDelayMs: number;
  /** Size of each binary frame sent (1600 bytes = 200 ms). */
  chunkBytes: number;
  /** Pause between binary frames; 0 streams faster than real time, as the real service does. */
  chunkIntervalMs: number;
}

/** Defaults for `npm run dev`: realistic first byte, fast streaming. */
export const DEFAULT_AURA_TUNING: AuraTuning = { msPerChar: 65, firstByteDelayMs: 150, chunkBytes: 1600, chunkIntervalMs: 0 };

/** Everything observable about one connection. */
export interface AuraConnectionRecord {
  readonly query: AuraQuery;
  readonly authorization: string;
  readonly received: unknown[];
  readonly sentJson: Record<string, unknown>[];
  audioBytesSent: number;
  closed: boolean;
  /** The stand-in dropped the socket on purpose (a fault number's `tts-drop`). */
  dropped?: boolean;
}

const ClientMessageSchema = v.variant('type', [
  v.object({ type: v.literal('Speak'), text: v.string() }),
  v.object({ type: v.literal('Flush') }),
  v.object({ type: v.literal('Clear') }),
  v.object({ type: v.literal('Close') }),
]);

type Job = { kind: 'speak'; text: string } | { kind: 'flush' } | { kind: 'close' };

/** Drives one accepted WebSocket until it closes. */
export class AuraSession {
  readonly #socket: WebSocket;
  readonly #record: AuraConnectionRecord;
  readonly #tuning: () => AuraTuning;
  readonly #onSpoken: ((text: string, durationMs: number) => void) | undefined;
  #queue: Job[] = [];
  #generation = 0;
  #sequence = 0;
  #busy = false;
  readonly #dropsNow: () => boolean;

  /**
   * `onSpoken` hears each text as its audio starts, with the audio's length (see `auraSpeech`).
   * `dropsNow` is asked as each `Speak` starts to stream: true sends half of its audio, then drops
   * the socket with no close frame (the client sees 1006), as a network failure would.
   */
  constructor(
    socket: WebSocket,
    record: AuraConnectionRecord,
    tuning: () => AuraTuning,
    onSpoken?: (text: string, durationMs: number) => void,
    dropsNow: () => boolean = () => false,
  ) {
    this.#socket = socket;
    this.#dropsNow = dropsNow;
    this.#record = record;
    this.#tuning = tuning;
    this.#onSpoken = onSpoken;
    socket.on('message', (data, isBinary) => this.#onMessage(data, isBinary));
    socket.on('close', () => {
      record.closed = true;
      this.#queue = [];
    });
    this.#sendJson({
      type: 'Metadata',
      request_id: randomUUID(),
      model_name: record.query.model,
      model_version: 'sandbox',
      model_uuid: '00000000-0000-4000-8000-000000000000',
    });
  }

  #onMessage(data: RawData, isBinary: boolean): void {
    let parsed: unknown;
    try {
      parsed = isBinary ? undefined : JSON.parse(Buffer.from(toBytes(data)).toString('utf8'));
    } catch {
      parsed = undefined;
    }
    this.#record.received.push(parsed);
    const message = v.safeParse(ClientMessageSchema, parsed);
    if (!message.success) {
      this.#sendJson({
        type: 'Warning',
        description: 'Unrecognised message; expected Speak, Flush, Clear or Close.',
        code: 'UNKNOWN_MESSAGE',
      });
      return;
    }
    const m = message.output;
    if (m.type === 'Clear') return this.#clear();
    if (m.type === 'Speak' && m.text.trim() === '') return;
    this.#queue.push(m.type === 'Speak' ? { kind: 'speak', text: m.text } : { kind: m.type === 'Flush' ? 'flush' : 'close' });
    void this.#drain();
  }

  #clear(): void {
    this.#generation += 1;
    this.#queue = this.#queue.filter((job) => job.kind === 'close');
    this.#sendJson({ type: 'Cleared', sequence_id: this.#sequence++ });
  }

  /** Works through the queue in order, so `Flushed` never overtakes the audio sent before it. */
  async #drain(): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    let warmGeneration: number | undefined;
    while (this.#queue.length > 0 && !this.#record.closed) {
      const job = this.#queue.shift()!;
      if (job.kind === 'close') {
        this.#socket.close(1000);
        break;
      }
      if (job.kind === 'flush') {
        this.#sendJson({ type: 'Flushed', sequence_id: this.#sequence++ });
        warmGeneration = undefined;
        continue;
      }
      const generation = this.#generation;
      if (warmGeneration !== generation) {
        // 0 ms means no wait at all: even a 0 ms timer costs a timer phase on a busy loop.
        const firstByteMs = this.#tuning().firstByteDelayMs;
        if (firstByteMs > 0) await delay(firstByteMs);
        warmGeneration = generation;
      }
      await this.#stream(job.text, generation);
    }
    this.#busy = false;
  }

  async #stream(text: string, generation: number): Promise<void> {
    const tuning = this.#tuning();
    const durationMs = (text.trim().length * tuning.msPerChar) / this.#record.query.speed;
    const audio = synthesizeSpeechLike(durationMs, textSeed(text));
    if (generation === this.#generation && !this.#record.closed) this.#onSpoken?.(text, durationMs);
    // Half the audio in whole 20 ms frames (160 bytes), when this Speak is the one a fault drops.
    const cutAt = this.#dropsNow() ? Math.floor(audio.length / 320) * 160 : audio.length;
    for (let offset = 0; offset < audio.length; offset += tuning.chunkBytes) {
      if (generation !== this.#generation || this.#record.closed) return;
      if (offset >= cutAt) {
        this.#record.dropped = true;
        return void this.#socket.terminate();
      }
      const chunk = audio.subarray(offset, Math.min(offset + tuning.chunkBytes, cutAt));
      this.#socket.send(chunk, { binary: true });
      this.#record.audioBytesSent += chunk.length;
      if (tuning.chunkIntervalMs > 0) await delay(tuning.chunkIntervalMs);
    }
  }

  #sendJson(message: Record<string, unknown>): void {
    if (this.#socket.readyState !== this.#socket.OPEN) return;
    this.#record.sentJson.push(message);
    this.#socket.send(JSON.stringify(message));
  }
}

/** Audio length the sandbox produces for `text` at `speed`, in bytes (whole 20 ms frames). */
export function auraAudioBytes(text: string, speed: number, msPerChar = DEFAULT_AURA_TUNING.msPerChar): number {
  const durationMs = (text.trim().length * msPerChar) / speed;
  return Math.max(1, Math.ceil(durationMs / 20)) * 20 * MULAW_BYTES_PER_MS;
}
