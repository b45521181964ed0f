import WebSocket, { type RawData } from 'ws';
import { FRAME_BYTES, FRAME_MS } from '../audio/mulaw';
import type { PacerScheduler, Tickable } from '../pipeline/pacer-scheduler';
import { parseServerMessage, toBase64 } from '../telephony/media-stream-messages';
import { twilioSignature } from '../telephony/twilio-signature';
import { SILENCE_FRAME } from './callee';
import { PlayoutBuffer } from './carrier-playout';
import type { TwimlStream } from './carrier-twiml';
import { TwilioStreamWriter, twilioSid } from './carrier-wire';
import type { Logger } from '../../../shared/log';

/** What the sandbox received from our server on one stream (times: ms since the call was created). */
export type ReceivedStreamEvent =
  | { atMs: number; event: 'media'; bytes: number }
  | { atMs: number; event: 'mark'; name: string }
  | { atMs: number; event: 'clear' }
  | { atMs: number; event: 'invalid'; text: string };

/** Everything observable about one media stream. */
export interface StreamRecord {
  url: string;
  streamSid: string;
  customParameters: Record<string, string>;
  openedAtMs?: number;
  stoppedAtMs?: number;
  /** Why the stream ended: `stopped` (call ended/redirected), `server-closed`, or `error`. */
  endReason?: 'stopped' | 'server-closed' | 'error';
  error?: string;
  /** Caller-audio frames sent to our server. */
  framesSent: number;
  received: ReceivedStreamEvent[];
  /** Every assistant audio payload, in arrival order (concatenate for the whole reply audio). */
  audioChunks: Uint8Array[];
  marksEchoed: { name: string; atMs: number; afterClear: boolean; playedBytes: number }[];
  /** Each `clear`: when, how much buffered audio it dropped, and when the next `media` arrived. */
  clears: { atMs: number; droppedBytes: number; firstMediaAfterMs?: number }[];
  dtmfSent: string[];
}

/** The per-frame interface of the simulated person on the line. */
export interface StreamParty {
  nextFrame(nowMs: number, heardRms: number | null): Uint8Array;
  /** True while the party keeps what it hears (an answering machine recording). */
  readonly recording?: boolean;
  /** The assistant audio that played in the last 20 ms, while `recording`. */
  recordPlayed?(bytes: Uint8Array, nowMs: number): void;
}

/** What a stream needs from its call. */
export interface StreamDeps {
  scheduler: PacerScheduler;
  authToken: string;
  accountSid: string;
  callSid: string;
  party: StreamParty;
  /** Ms since the call was created (for records). */
  elapsedMs: () => number;
  log: Logger;
  /** Called once when the stream ends for any reason other than `stop()`. */
  onEnd: (reason: 'server-closed' | 'error') => void;
}

/** If the event loop stalls, never send more than this many frames in one tick (the rest is lost, not burst). */
const MAX_FRAMES_PER_TICK = 5;
const SILENCE_BASE64 = toBase64(SILENCE_FRAME);

/**
 * The sandbox's side of one `<Connect><Stream>`: a WebSocket CLIENT to our server, signed with
 * X-Twilio-Signature over the stream URL (no params), that sends `connected`, `start`, then one
 * `media` frame per 20 ms of real time (silence when the party is quiet, as real Twilio streams
 * continuously), plays what it receives through a {@link PlayoutBuffer} (echoing marks when played,
 * honouring `clear`), and records everything. Driven by the carrier's shared ticker.
 */
export class SandboxMediaStream implements Tickable {
  readonly record: StreamRecord;
  readonly #deps: StreamDeps;
  readonly #writer: TwilioStreamWriter;
  readonly #playout = new PlayoutBuffer();
  #ws: WebSocket | undefined;
  #startedAt = 0;
  #unsubscribe: (() => void) | undefined;
  #ended = false;

  constructor(stream: TwimlStream, deps: StreamDeps) {
    this.#deps = deps;
    const streamSid = twilioSid('MZ');
    this.#writer = new TwilioStreamWriter(streamSid, deps.callSid, deps.accountSid);
    this.record = {
      url: stream.url,
      streamSid,
      customParameters: stream.parameters,
      framesSent: 0,
      received: [],
      audioChunks: [],
      marksEchoed: [],
      clears: [],
      dtmfSent: [],
    };
  }

  /** Opens the WebSocket to our server. */
  connect(): void {
    const url = this.record.url;
    const ws = new WebSocket(url, { headers: { 'X-Twilio-Signature': twilioSignature(this.#deps.authToken, url) } });
    this.#ws = ws;
    ws.on('open', () => this.#onOpen());
    ws.on('message', (data, isBinary) => this.#onMessage(data, isBinary));
    ws.on('unexpected-response', (_req, res) => this.#fail(`handshake refused with HTTP ${res.statusCode}`));
    ws.on('error', (error) => this.#fail(error.message));
    ws.on('close', () => this.#finish('server-closed'));
  }

  /** Sends one DTMF digit. */
  sendDtmf(digit: string): void {
    if (!this.#isOpen()) return;
    this.record.dtmfSent.push(digit);
    this.#ws!.send(this.#writer.dtmf(digit));
  }

  /** Ends the stream from the carrier side (hang-up, transfer, redirect): `stop`, then close. */
  stop(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#unsubscribe?.();
    this.record.endReason = 'stopped';
    this.record.stoppedAtMs = this.#deps.elapsedMs();
    if (this.#isOpen()) {
      this.#ws!.send(this.#writer.stop());
      this.#ws!.close(1000, 'stream stopped');
    } else {
      this.#ws?.terminate();
    }
  }

  /** Sends the frames due by `nowMs` (one per 20 ms since `start`). */
  tick(nowMs: number): void {
    let due = Math.floor((nowMs - this.#startedAt) / FRAME_MS) + 1 - this.record.framesSent;
    if (due > MAX_FRAMES_PER_TICK) {
      this.#startedAt += (due - MAX_FRAMES_PER_TICK) * FRAME_MS;
      due = MAX_FRAMES_PER_TICK;
    }
    for (let i = 0; i < due && !this.#ended; i++) this.#sendFrame();
  }

  #sendFrame(): void {
    const party = this.#deps.party;
    const audioMs = this.record.framesSent * FRAME_MS;
    const played = this.#playout.play(FRAME_BYTES, party.recording ? (bytes) => party.recordPlayed?.(bytes, audioMs) : undefined);
    for (const name of played.echoed) this.#echo(name, false);
    const frame = this.#deps.party.nextFrame(audioMs, played.rms);
    if (this.#ended || !this.#isOpen()) return;
    this.record.framesSent++;
    const payload = frame === SILENCE_FRAME ? SILENCE_BASE64 : toBase64(frame);
    this.#ws!.send(this.#writer.media(this.record.framesSent, audioMs, payload));
  }

  #onOpen(): void {
    if (this.#ended) return;
    this.record.openedAtMs = this.#deps.elapsedMs();
    this.#ws!.send(this.#writer.connected());
    this.#ws!.send(this.#writer.start(this.record.customParameters));
    this.#startedAt = this.#deps.scheduler.now();
    this.#unsubscribe = this.#deps.scheduler.add(this);
  }

  #onMessage(data: RawData, isBinary: boolean): void {
    const atMs = this.#deps.elapsedMs();
    const text = isBinary ? '<binary>' : data.toString();
    const message = isBinary ? undefined : parseServerMessage(text);
    if (!message || message.streamSid !== this.record.streamSid) {
      this.record.received.push({ atMs, event: 'invalid', text: text.slice(0, 500) });
      return this.#deps.log.warn('sandbox.stream.dropped', { callSid: this.#deps.callSid, sample: text.slice(0, 200) });
    }
    if (message.event === 'media') return this.#onMedia(atMs, message.payload);
    if (message.event === 'mark') {
      this.record.received.push({ atMs, event: 'mark', name: message.mark.name });
      for (const name of this.#playout.mark(message.mark.name)) this.#echo(name, false);
      return;
    }
    this.record.received.push({ atMs, event: 'clear' });
    const { droppedBytes, echoed } = this.#playout.clear();
    this.record.clears.push({ atMs, droppedBytes });
    for (const name of echoed) this.#echo(name, true);
  }

  #onMedia(atMs: number, payload: string): void {
    const decoded = Buffer.from(payload, 'base64');
    const bytes = new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.byteLength);
    this.record.received.push({ atMs, event: 'media', bytes: bytes.length });
    this.record.audioChunks.push(bytes);
    const lastClear = this.record.clears.at(-1);
    if (lastClear && lastClear.firstMediaAfterMs === undefined) lastClear.firstMediaAfterMs = atMs;
    this.#playout.append(bytes);
  }

  #echo(name: string, afterClear: boolean): void {
    if (!this.#isOpen()) return;
    this.record.marksEchoed.push({ name, atMs: this.#deps.elapsedMs(), afterClear, playedBytes: this.#playout.playedBytes });
    this.#ws!.send(this.#writer.mark(name));
  }

  #fail(message: string): void {
    this.record.error ??= message;
    this.#finish('error');
  }

  #finish(reason: 'server-closed' | 'error'): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#unsubscribe?.();
    this.record.endReason = reason;
    this.record.stoppedAtMs = this.#deps.elapsedMs();
    this.#ws?.terminate();
    this.#deps.onEnd(reason);
  }

  #isOpen(): boolean {
    return this.#ws?.readyState === WebSocket.OPEN;
  }
}
