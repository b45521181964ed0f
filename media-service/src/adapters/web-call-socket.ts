import type { RawData, WebSocket } from 'ws';
import { decodeMulaw, encodeMulaw } from '../audio/mulaw';
import { Downsampler, Upsampler } from '../audio/resample';
import type { CallObservation } from '../call/call-observer';
import type { CallTransport, CallTransportEvent, CallTransportListener } from '../ports/call-transport';
import type { StreamStart } from '../call/session-types';
import { EventFanout } from './event-fanout';
import {
  CLEAR_MESSAGE,
  endedMessage,
  errorMessage,
  markMessage,
  observationMessage,
  parseClientMessage,
  startedMessage,
  type WebCallErrorCode,
} from './web-call-messages';
import { toBytes } from './ws-frames';
import { CallerFeed, type FeedClock } from './web-caller-feed';
import type { EndedReason } from '../../../shared/domain/call';
import { createLogger, type Logger } from '../../../shared/log';

/** The largest audio frame taken: 64 KiB of 16 kHz PCM is 2 s (a browser sends 20 ms, 640 bytes). */
export const MAX_AUDIO_FRAME_BYTES = 64 * 1024;

/**
 * How far ahead of real time a browser's audio may run (a burst after a stall, a file streamed
 * fast): beyond it frames are refused unconverted, so a client cannot make the media service
 * resample faster than the call plays.
 */
export const MAX_AUDIO_AHEAD_MS = 2000;

/** Bad messages a socket may send in all before it is cut off: a client bug says so in the first few, a flood never stops. */
const MAX_BAD_MESSAGES = 20;

/** Key presses: at most this many `dtmf` messages in any one second (each holds at most 32 keys). */
export const MAX_DTMF_PER_SECOND = 10;

/** Typed speech waiting to be said (being made into audio, or queued behind the line playing): at most this many lines… */
export const MAX_SAY_LINES_WAITING = 3;
/** …and at most this much speech queued, in ms. */
export const MAX_SAY_QUEUED_MS = 30_000;

/** Close codes (RFC 6455). */
export const WEB_CLOSE = { done: 1000, policy: 1008, tryLater: 1013 } as const;

/** Construction options of {@link WebCallSocket}. */
export interface WebCallSocketOptions {
  /** The browser's `start` (before {@link WebCallSocket.accept}): check the token, then accept or refuse. */
  onStart?: (token: string) => void;
  /** Typed speech (`say`) once accepted; a promise settles once the line's audio is queued (or refused), and counts it as waiting till then. */
  onSay?: (text: string) => void | Promise<unknown>;
  /** Bad messages allowed before the socket is closed (default 20). */
  maxBadMessages?: number;
  /** The caller audio's clock (default the real one). */
  clock?: FeedClock;
  log?: Logger;
}

/**
 * A browser's web call (the `/web/calls` socket, docs/protocols.md "Web calls") as a
 * {@link CallTransport}: 16 kHz PCM16LE both ways, converted to and from the engine's 8 kHz
 * μ-law (`../audio/resample.ts`); marks, `clear` and key presses as Twilio's stream has them.
 *
 * - Before {@link accept}, only `start` is read (handed to `onStart`); anything else is a bad message.
 * - One `start` per socket, ever: a second one is a bad message, even while the first is checked.
 * - Bad messages (not JSON, unknown type, invalid fields, odd or oversized audio, keys faster than
 *   {@link MAX_DTMF_PER_SECOND} a second, typed speech past its queue) get an `error` `bad_message`
 *   and are dropped; past `maxBadMessages` the socket is terminated (logged once) and nothing it
 *   sends after is read.
 * - `hangup`, or the socket closing, is `stop` then `closed`, as a carrier's hang-up is.
 * - The call itself ends through {@link end} (`ended`, then close 1000): there is no carrier to ask.
 */
export class WebCallSocket implements CallTransport {
  readonly #ws: WebSocket;
  readonly #options: WebCallSocketOptions;
  readonly #log: Logger;
  readonly #events: EventFanout<CallTransportEvent>;
  readonly #down = new Downsampler();
  readonly #up = new Upsampler();
  #callSid: string | undefined;
  #pending: string[] = [];
  #cleared = new Set<string>();
  /** The caller's audio as a phone line carries it: continuous, typed speech in place of the microphone. */
  readonly #feed: CallerFeed;
  #bad = 0;
  /** Past the bad-message bound: the socket was terminated and every later frame is ignored. */
  #cutOff = false;
  /** A `start` was received: a socket carries one call, ever. */
  #startSeen = false;
  /** When (clock ms) the recent `dtmf` messages came, for the per-second bound. */
  #dtmfAt: number[] = [];
  /** `say` lines handed on whose audio is not queued yet. */
  #sayPending = 0;
  #stopped = false;
  #closed = false;

  constructor(ws: WebSocket, options: WebCallSocketOptions = {}) {
    this.#ws = ws;
    this.#options = options;
    this.#log = options.log ?? createLogger({ service: 'media' });
    this.#events = new EventFanout(this.#log, 'web.call.listener_failed');
    this.#feed = new CallerFeed((payload, timestampMs) => this.#events.emit({ type: 'media', payload, timestampMs }), options.clock);
    ws.on('message', (data, isBinary) => this.#onMessage(data, isBinary));
    ws.on('close', (code, reason) => this.#onClose(code, reason.toString()));
    ws.on('error', (error) => this.#log.warn('web.call.socket_error', { call_sid: this.#callSid, error: error.message }));
  }

  /** Known once accepted: the call's web SID. */
  get streamSid(): string | undefined {
    return this.#callSid;
  }

  get pendingMarks(): readonly string[] {
    return this.#pending;
  }

  /** Whether the socket is still open (a refusal or the session may have closed it). */
  get open(): boolean {
    return !this.#closed && this.#ws.readyState === this.#ws.OPEN;
  }

  on(listener: CallTransportListener): () => void {
    return this.#events.on(listener);
  }

  /** The token was good: tells the browser (`started`) and raises `start` for the session (also returned). */
  accept(callId: number, callSid: string): StreamStart {
    this.#callSid = callSid;
    this.#send(startedMessage(callId));
    const start: StreamStart = {
      type: 'start',
      streamSid: callSid,
      callSid,
      accountSid: '',
      customParameters: {},
      mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
      tracks: ['inbound'],
    };
    this.#events.emit(start);
    this.#feed.start();
    return start;
  }

  /** Plays μ-law 8 kHz as the caller's audio (typed speech), in place of the microphone meanwhile. */
  inject(mulaw: Uint8Array): void {
    this.#feed.inject(mulaw);
  }

  /** Refuses the call (or the socket): an `error`, then the close (1008, or 1013 to try again later). */
  refuse(code: WebCallErrorCode, message: string, closeCode: number = WEB_CLOSE.policy): void {
    this.#send(errorMessage(code, message));
    if (this.open) this.#ws.close(closeCode, code);
  }

  /** Tells the browser what the call does (transcript, state, latency, tools). */
  observe(observation: CallObservation): void {
    this.#send(observationMessage(observation));
  }

  /** μ-law 8 kHz from the engine → one binary frame of PCM16LE 16 kHz. */
  sendAudio(mulaw: Uint8Array): void {
    if (mulaw.length === 0 || !this.#ready('audio')) return;
    const pcm = this.#up.process(decodeMulaw(mulaw));
    this.#ws.send(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength), { binary: true });
  }

  sendMark(name: string): void {
    if (!this.#ready('mark')) return;
    this.#pending.push(name);
    this.#ws.send(markMessage(name));
  }

  clear(): void {
    if (!this.#ready('clear')) return;
    for (const name of this.#pending) this.#cleared.add(name);
    this.#ws.send(CLEAR_MESSAGE);
  }

  /** The call ended: `ended` with its reason, then close 1000. */
  end(reason: EndedReason): void {
    this.#send(endedMessage(reason));
    this.close('done');
  }

  /** 1000, or for a stream the session would not serve (ended or already connected) a `bad_token` refusal. */
  close(why: 'done' | 'refused' = 'done'): void {
    if (!this.open) return;
    if (why === 'refused') return this.refuse('bad_token', 'This call has ended or is already connected.');
    this.#ws.close(WEB_CLOSE.done, 'done');
  }

  #ready(what: string): boolean {
    if (this.open && this.#callSid) return true;
    this.#log.debug('web.call.send_dropped', { what, call_sid: this.#callSid });
    return false;
  }

  #send(text: string): void {
    if (this.open) this.#ws.send(text);
  }

  #onMessage(data: RawData, isBinary: boolean): void {
    if (this.#cutOff) return;
    if (isBinary) return this.#onAudio(toBytes(data));
    const message = parseClientMessage(data.toString());
    if ('invalid' in message) return this.#badMessage(message.invalid);
    if (message.type === 'start') {
      if (this.#startSeen || this.#callSid || !this.#options.onStart) return this.#badMessage('The call has already started.');
      this.#startSeen = true;
      return this.#options.onStart(message.token);
    }
    if (!this.#callSid) return this.#badMessage('Send start with the token first.');
    switch (message.type) {
      case 'say':
        return this.#onSay(message.text);
      case 'dtmf':
        if (!this.#dtmfAllowed()) return this.#badMessage(`Keys may be sent at most ${MAX_DTMF_PER_SECOND} times a second.`);
        for (const digit of message.digits) this.#events.emit({ type: 'dtmf', digit });
        return;
      case 'mark':
        return this.#markEcho(message.name);
      case 'hangup':
        return this.#stop();
    }
  }

  #now(): number {
    return this.#options.clock?.now() ?? performance.now();
  }

  /** At most {@link MAX_DTMF_PER_SECOND} `dtmf` messages in the last second. */
  #dtmfAllowed(): boolean {
    const now = this.#now();
    this.#dtmfAt = this.#dtmfAt.filter((at) => now - at < 1000);
    if (this.#dtmfAt.length >= MAX_DTMF_PER_SECOND) return false;
    this.#dtmfAt.push(now);
    return true;
  }

  /** Typed speech, unless too much already waits to be said. */
  #onSay(text: string): void {
    const onSay = this.#options.onSay;
    if (!onSay) return this.#badMessage('Typed speech is not available on this call.');
    const waiting = this.#sayPending + this.#feed.linesQueued;
    if (waiting >= MAX_SAY_LINES_WAITING || this.#feed.queuedMs >= MAX_SAY_QUEUED_MS)
      return this.#badMessage('Wait for the assistant: earlier lines are still waiting to be said.');
    const said = onSay(text);
    if (!(said instanceof Promise)) return;
    this.#sayPending++;
    void said.finally(() => this.#sayPending--).catch(() => undefined);
  }

  #onAudio(bytes: Buffer): void {
    if (!this.#callSid) return this.#badMessage('Send start with the token first.');
    if (bytes.length === 0) return;
    if (bytes.length % 2 !== 0) return this.#badMessage('Audio must be whole 16-bit samples (an even number of bytes).');
    if (bytes.length > MAX_AUDIO_FRAME_BYTES) return this.#badMessage(`An audio frame may be at most ${MAX_AUDIO_FRAME_BYTES} bytes.`);
    if (this.#feed.aheadMs > MAX_AUDIO_AHEAD_MS) return this.#badMessage('Audio is arriving faster than real time.');
    // ws hands over Buffers from its pool, at any offset: a view when aligned, else one copy.
    const aligned = bytes.byteOffset % 2 === 0 ? bytes : Buffer.from(bytes);
    const pcm16k = new Int16Array(aligned.buffer, aligned.byteOffset, aligned.length / 2);
    const payload = encodeMulaw(this.#down.process(pcm16k));
    if (payload.length > 0) this.#feed.mic(payload);
  }

  #markEcho(name: string): void {
    const index = this.#pending.indexOf(name);
    if (index < 0) return this.#badMessage('That mark was not sent, or was echoed already.');
    this.#pending.splice(index, 1);
    this.#events.emit({ type: 'mark', name, afterClear: this.#cleared.delete(name) });
  }

  /** Tells the browser its message was refused (an `error` `bad_message`); counts toward the flood bound. */
  badMessage(why: string): void {
    this.#badMessage(why);
  }

  #badMessage(why: string): void {
    if (this.#cutOff) return;
    this.#bad++;
    if (this.#bad > (this.#options.maxBadMessages ?? MAX_BAD_MESSAGES)) return this.#cutOffFlood();
    this.#log.info('web.call.bad_message', { call_sid: this.#callSid, why });
    this.#send(errorMessage('bad_message', why));
  }

  /**
   * Past the bound: logged once, told once, then terminated (a graceful close waits for the
   * client's answer, which a flood need never send); nothing it sent after is read.
   */
  #cutOffFlood(): void {
    this.#cutOff = true;
    this.#log.warn('web.call.flood', { call_sid: this.#callSid, bad_messages: this.#bad });
    this.refuse('bad_message', 'Too many bad messages.');
    this.#ws.terminate();
  }

  /** The browser hung up (or went away): `stop` once. */
  #stop(): void {
    if (this.#stopped || !this.#callSid) return;
    this.#stopped = true;
    this.#events.emit({ type: 'stop', callSid: this.#callSid });
  }

  #onClose(code: number, reason: string): void {
    if (this.#closed) return;
    this.#feed.stop();
    this.#stop();
    this.#closed = true;
    this.#events.emit({ type: 'closed', code, reason });
  }
}
