import type { RawData, WebSocket } from 'ws';
import { decodeMulaw } from '../audio/mulaw';
import { Upsampler } from '../audio/resample';
import type { CallListener } from '../call/call-listeners';
import type { CallObservation } from '../call/call-observer';
import { endedMessage, errorMessage, observationMessage, startedMessage, type WebCallErrorCode } from './web-call-messages';
import { WEB_CLOSE } from './web-call-socket';
import type { EndedReason } from '../../../shared/domain/call';
import type { Logger } from '../../../shared/log';

/**
 * Audio is dropped while this much is still unsent to a slow listener (about 8 s of 16 kHz PCM):
 * the call never waits on a listener, and a listener never holds the task's memory.
 */
export const LISTEN_MAX_BUFFERED_BYTES = 256 * 1024;

/** Construction options of {@link WebListenSocket}. */
export interface WebListenSocketOptions {
  /** The listener's `start` (once): check the token, then {@link WebListenSocket.accept} or refuse. */
  onStart: (token: string) => void;
  log: Logger;
}

/**
 * Someone listening to a live call over the `/web/listen` socket (docs/protocols.md "Listening to a
 * live call"): read-only. The first `{"type":"start","token":…}` is handed to `onStart`; every other
 * message, text or binary, is ignored. Once accepted it is the call's {@link CallListener}: both
 * sides mixed as 16 kHz PCM16LE binary frames, the observations a web call's browser gets, and
 * `ended` then close 1000.
 */
export class WebListenSocket implements CallListener {
  readonly #ws: WebSocket;
  readonly #options: WebListenSocketOptions;
  readonly #up = new Upsampler();
  #started = false;
  #accepted = false;
  #dropped = 0;

  constructor(ws: WebSocket, options: WebListenSocketOptions) {
    this.#ws = ws;
    this.#options = options;
    ws.on('message', (data, isBinary) => this.#onMessage(data, isBinary));
    ws.on('error', (error) => options.log.warn('web.listen.socket_error', { error: error.message }));
  }

  /** Whether the socket is still open. */
  get open(): boolean {
    return this.#ws.readyState === this.#ws.OPEN;
  }

  /** The token was good: `started`; from now on the call's events and audio follow. */
  accept(callId: number): void {
    this.#accepted = true;
    this.#send(startedMessage(callId));
  }

  /** Refuses the listener: an `error`, then close 1008 (1013 to try again, as for `not_here`). */
  refuse(code: WebCallErrorCode, message: string, closeCode: number = WEB_CLOSE.policy): void {
    this.#send(errorMessage(code, message));
    if (this.open) this.#ws.close(closeCode, code);
  }

  observe(observation: CallObservation): void {
    if (this.#accepted) this.#send(observationMessage(observation));
  }

  audio(mulaw: Uint8Array): void {
    if (!this.#accepted || !this.open) return;
    if (this.#ws.bufferedAmount > LISTEN_MAX_BUFFERED_BYTES) {
      if (this.#dropped++ % 500 === 0) this.#options.log.warn('web.listen.slow', { dropped_frames: this.#dropped });
      return;
    }
    const pcm = this.#up.process(decodeMulaw(mulaw));
    this.#ws.send(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength), { binary: true });
  }

  ended(reason: EndedReason): void {
    this.#send(endedMessage(reason));
    if (this.open) this.#ws.close(WEB_CLOSE.done, 'done');
  }

  #send(text: string): void {
    if (this.open) this.#ws.send(text);
  }

  /** Only the first `start` is read; anything else is ignored, as the protocol says. */
  #onMessage(data: RawData, isBinary: boolean): void {
    if (isBinary || this.#started) return;
    const token = startToken(data.toString());
    if (token === undefined) return;
    this.#started = true;
    this.#options.onStart(token);
  }
}

/** The token of a `start` message, or undefined for anything else. */
export function startToken(text: string): string | undefined {
  if (text.length > 1024) return undefined;
  try {
    const message = JSON.parse(text) as { type?: unknown; token?: unknown } | null;
    return message?.type === 'start' && typeof message.token === 'string' && message.token.length <= 200 ? message.token : undefined;
  } catch {
    return undefined;
  }
}
