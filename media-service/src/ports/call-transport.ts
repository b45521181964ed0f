/**
 * The media side of one phone call, as the CallSession sees it: caller audio and call events in,
 * assistant audio, marks and `clear` out. Modelled on Twilio's bidirectional Media Streams
 * (docs/protocols.md "Twilio") but free of wire details (base64, JSON, sequence numbers), so a different
 * carrier or a WebRTC leg can implement it too.
 *
 * Events are delivered to listeners synchronously, in receipt order, through `on()` (the same
 * listener shape as the STT and TTS ports). Events that arrive before the first listener
 * subscribes are kept and replayed to it, so nothing is lost between accepting the socket and
 * wiring the session.
 *
 * @example
 * ```ts
 * const off = transport.on((event) => {
 *   if (event.type === 'start') verify(event.customParameters.token);
 *   if (event.type === 'media') stt.send(event.payload);
 *   if (event.type === 'mark' && !event.afterClear) playedUpTo(event.name);
 * });
 * pacer.push(ttsAudio); pacer.mark('turn-3:chunk-7');   // the pacer calls sendAudio/sendMark
 * ```
 */

import type { EndedReason } from '../../../shared/domain/call';

/** Codec of the stream; Twilio documents it as always μ-law 8000 Hz mono. */
export interface MediaFormat {
  encoding: string;
  sampleRate: number;
  channels: number;
}

/** Everything a call transport reports, in order. `closed` is terminal. */
export type CallTransportEvent =
  /** The stream is live: ids plus the `<Parameter>`s our TwiML attached (e.g. the stream token). */
  | {
      type: 'start';
      streamSid: string;
      callSid: string;
      accountSid: string;
      customParameters: Readonly<Record<string, string>>;
      mediaFormat: MediaFormat;
      tracks: readonly string[];
    }
  /** One chunk of caller audio (normally 20 ms = 160 μ-law bytes); `timestampMs` from stream start. */
  | { type: 'media'; payload: Uint8Array; timestampMs: number }
  /**
   * A mark we sent came back: the audio queued before it has played. `afterClear` is true when
   * the mark was still pending at our last `clear()`: Twilio echoes those at once, so such an echo
   * does NOT prove the audio played (docs/protocols.md "Twilio" step 3).
   */
  | { type: 'mark'; name: string; afterClear: boolean }
  /** The caller pressed a key (bidirectional streams only). */
  | { type: 'dtmf'; digit: string }
  /** The carrier ended the stream (the call ended or was redirected, e.g. transferred). */
  | { type: 'stop'; callSid: string }
  /** The connection is gone (after `stop`, our `close()`, or a network drop). Nothing follows. */
  | { type: 'closed'; code: number; reason: string };

/** Receives every event synchronously, in order. */
export type CallTransportListener = (event: CallTransportEvent) => void;

/** Media transport of one call. Commands sent before `start` or after `closed` are logged and dropped. */
export interface CallTransport {
  /** Known once `start` has arrived. */
  readonly streamSid: string | undefined;
  /** Marks sent whose echo has not arrived yet, oldest first. */
  readonly pendingMarks: readonly string[];
  /** Subscribes; returns the unsubscribe function. */
  on(listener: CallTransportListener): () => void;
  /**
   * Queues μ-law audio for playback, sent as one message. Send whole 20 ms frames (pad with
   * 0xFF) and pace it (see `pipeline/pacer.ts`): the carrier buffers whatever it is given.
   */
  sendAudio(mulaw: Uint8Array): void;
  /** Asks to be told (a `mark` event) when everything sent so far has played. */
  sendMark(name: string): void;
  /** Barge-in: the carrier drops all buffered audio and echoes every pending mark at once. */
  clear(): void;
  /**
   * Closes the connection. With Twilio this ends the `<Connect>`, so end the call first via Telephony.
   * `refused`: the stream was not ours to serve (unknown, ended or already streaming call), which
   * the carrier sees as a policy close. Idempotent: the first close decides how.
   */
  close(why?: 'done' | 'refused'): void;
  /**
   * Present when the transport is the call itself (a browser's web call: no carrier behind it).
   * Ends the call: tells the other side why, then closes. The session calls it instead of
   * hanging up through Telephony.
   */
  end?(reason: EndedReason): void;
}
