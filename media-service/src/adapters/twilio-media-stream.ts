import type { RawData, WebSocket } from 'ws';
import type { CallTransport, CallTransportEvent, CallTransportListener } from '../ports/call-transport';
import {
  clearMessage,
  markMessage,
  mediaMessageBytes,
  mediaMessageHead,
  parseTwilioMessage,
  type TwilioInboundMessage,
} from '../telephony/media-stream-messages';
import { EventFanout } from './event-fanout';
import { createLogger, type Logger } from '../../../shared/log';

/** Twilio reads every message as a text frame, bytes included. */
const TEXT = { binary: false } as const;

/** Construction options for {@link TwilioMediaStream}. */
export interface TwilioMediaStreamOptions {
  /** Where dropped and unexpected messages are logged; default: a `media` logger on stderr. */
  log?: Logger;
}

/**
 * One Twilio bidirectional Media Stream (the WebSocket Twilio opened to us, after the upgrade's
 * X-Twilio-Signature was checked) as a {@link CallTransport}.
 *
 * - Inbound text frames are parsed with `parseTwilioMessage` (control messages by valibot, `media`
 *   by a hand check); malformed JSON, binary frames and unknown events are logged and dropped.
 * - Marks are tracked: `pendingMarks` lists those not yet echoed; an echo of a mark that was
 *   pending at our last `clear()` has `afterClear: true` (Twilio echoes them at once on clear).
 * - It owns no timing policy: pace `sendAudio` with `pipeline/pacer.ts`.
 */
export class TwilioMediaStream implements CallTransport {
  readonly #ws: WebSocket;
  readonly #log: NonNullable<TwilioMediaStreamOptions['log']>;
  readonly #events: EventFanout<CallTransportEvent>;
  #streamSid: string | undefined;
  /** The stream's `media` message up to the payload (50 a second: built once). */
  #mediaHead: Buffer | undefined;
  #pending: string[] = [];
  #cleared = new Set<string>();
  #closed = false;

  constructor(ws: WebSocket, options: TwilioMediaStreamOptions = {}) {
    this.#ws = ws;
    this.#log = options.log ?? createLogger({ service: 'media' });
    this.#events = new EventFanout(this.#log, 'twilio.stream.listener_failed');
    ws.on('message', (data, isBinary) => this.#onMessage(data, isBinary));
    ws.on('close', (code, reason) => this.#onClose(code, reason.toString()));
    ws.on('error', (error) => this.#log.error('twilio.stream.error', { streamSid: this.#streamSid, error: error.message }));
  }

  /** Known once `start` has arrived. */
  get streamSid(): string | undefined {
    return this.#streamSid;
  }

  /** Marks sent whose echo has not arrived yet, oldest first. */
  get pendingMarks(): readonly string[] {
    return this.#pending;
  }

  /** Subscribes; the first subscriber also receives events that arrived before it. */
  on(listener: CallTransportListener): () => void {
    return this.#events.on(listener);
  }

  /** Sends one `media` message carrying all of `mulaw`. */
  sendAudio(mulaw: Uint8Array): void {
    if (mulaw.length === 0) return;
    const sid = this.#ready('media');
    if (!sid) return;
    this.#mediaHead ??= mediaMessageHead(sid);
    this.#ws.send(mediaMessageBytes(this.#mediaHead, mulaw), TEXT);
  }

  /** Sends a `mark`; its echo arrives as a `mark` event once the audio before it has played. */
  sendMark(name: string): void {
    const sid = this.#ready('mark');
    if (!sid) return;
    this.#pending.push(name);
    this.#ws.send(markMessage(sid, name));
  }

  /** Sends `clear`; every pending mark will be echoed with `afterClear: true`. */
  clear(): void {
    const sid = this.#ready('clear');
    if (!sid) return;
    for (const name of this.#pending) this.#cleared.add(name);
    this.#ws.send(clearMessage(sid));
  }

  /** Closes the socket: 1000, or 1008 (policy) for a refused stream. Idempotent; `closed` follows. */
  close(why: 'done' | 'refused' = 'done'): void {
    if (this.#ws.readyState !== this.#ws.OPEN && this.#ws.readyState !== this.#ws.CONNECTING) return;
    if (why === 'refused') this.#ws.close(1008, 'refused');
    else this.#ws.close(1000, 'done');
  }

  #ready(what: string): string | undefined {
    if (this.#closed || this.#ws.readyState !== this.#ws.OPEN) {
      this.#log.warn('twilio.stream.send_after_close', { what, streamSid: this.#streamSid });
      return undefined;
    }
    if (!this.#streamSid) this.#log.warn('twilio.stream.send_before_start', { what });
    return this.#streamSid;
  }

  #onMessage(data: RawData, isBinary: boolean): void {
    if (isBinary) return this.#log.warn('twilio.stream.dropped', { reason: 'binary frame', streamSid: this.#streamSid });
    const text = data.toString();
    const message = parseTwilioMessage(text);
    if (!message)
      return this.#log.warn('twilio.stream.dropped', {
        reason: 'malformed or unknown',
        streamSid: this.#streamSid,
        sample: text.slice(0, 200),
      });
    const event = this.#toEvent(message);
    if (event) this.#emit(event);
  }

  #toEvent(message: TwilioInboundMessage): CallTransportEvent | undefined {
    switch (message.event) {
      case 'connected':
        return undefined;
      case 'start': {
        const s = message.start;
        this.#streamSid = s.streamSid;
        this.#mediaHead = undefined;
        return {
          type: 'start',
          streamSid: s.streamSid,
          callSid: s.callSid,
          accountSid: s.accountSid,
          customParameters: s.customParameters,
          mediaFormat: s.mediaFormat,
          tracks: s.tracks,
        };
      }
      case 'media': {
        const payload = Buffer.from(message.media.payload, 'base64');
        return {
          type: 'media',
          payload: new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength),
          timestampMs: Number(message.media.timestamp),
        };
      }
      case 'mark':
        return this.#markEcho(message.mark.name);
      case 'dtmf':
        return { type: 'dtmf', digit: message.dtmf.digit };
      case 'stop':
        return { type: 'stop', callSid: message.stop.callSid };
    }
  }

  #markEcho(name: string): CallTransportEvent {
    const index = this.#pending.indexOf(name);
    if (index >= 0) this.#pending.splice(index, 1);
    else this.#log.warn('twilio.stream.unknown_mark', { name, streamSid: this.#streamSid });
    const afterClear = this.#cleared.delete(name);
    return { type: 'mark', name, afterClear };
  }

  #onClose(code: number, reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#emit({ type: 'closed', code, reason });
  }

  #emit(event: CallTransportEvent): void {
    this.#events.emit(event);
  }
}
