/**
 * The browser client for web calls: talk to an assistant from any page. The business's server
 * creates the call (POST /api/v1/calls/web, with its API key) and hands the page `{ url, token }`;
 * the page calls `startWebCall`. The wire protocol: docs/protocols.md "Web calls".
 *
 * @example
 * button.onclick = async () => {
 *   const { url, token } = await (await fetch('/my-server/web-call', { method: 'POST' })).json();
 *   const call = await VoiceAgent.startWebCall({ url, token });
 *   call.on('transcript', (line) => console.log(line.role, line.text));
 *   hangUpButton.onclick = () => call.hangUp();
 * };
 */
import { openCallAudio } from './audio';
import type { Listener, WebCallEvent } from './events';
import { WebCallSession, type WebCallStats } from './web-call';
import { WebCallError } from './web-call-error';

export { WebCallError, type WebCallStats };
export { listenToCall, type CallListening, type ListenOptions } from './listen';
export type { Listener, WebCallEvent, WebCallEvents } from './events';
export type { CallState, ErrorMessage, LatencyMessage, StateMessage, ToolMessage, TranscriptMessage } from './protocol';

/** What `startWebCall` needs. */
export interface WebCallOptions {
  /** The `url` from POST /api/v1/calls/web (ws:// or wss://). */
  url: string;
  /** The single-use `token` from the same answer; valid 60 s. */
  token: string;
  /** Capture the microphone (default true). With false, no microphone is asked for: typed speech only. */
  microphone?: boolean;
  /** Where the worklet module is served, for pages whose CSP forbids blob: scripts; default: a Blob URL of the built-in copy. */
  workletUrl?: string;
}

/** A live call. */
export interface WebCall {
  /** The call record's id (GET /api/v1/calls/{id}). */
  readonly callId: number;
  /** Listens to an event; returns the function that stops listening. */
  on<E extends WebCallEvent>(event: E, listener: Listener<E>): () => void;
  /**
   * Typed speech: `text` (1 to 500 characters) is spoken into the call as the caller's words.
   * Returns false when the call is already over. @throws RangeError on bad text.
   */
  say(text: string): boolean;
  /** Keypad presses (1 to 32 of 0-9, * and #); false when the call is over. @throws RangeError on bad digits. */
  sendDigits(digits: string): boolean;
  /** Mutes the microphone (silence is sent, so the call's audio clock keeps running). */
  setMuted(muted: boolean): void;
  /** Ends the call: the microphone and playback stop at once; `ended` follows when the server confirms. */
  hangUp(): void;
  /** Playback and traffic figures. */
  stats(): WebCallStats;
}

/**
 * Starts a web call: opens the audio (the microphone first, so a permission prompt does not eat
 * into the 5 s the server allows for `start`), then the socket; resolves once the server says
 * `started`. Call it from a click (or another user gesture): browsers only let a page play sound
 * after one. Rejects with a `WebCallError` (its `code` is the server's, such as `bad_token` or
 * `origin_not_allowed`, or the client's own: `audio_blocked`, `connection_closed`, `start_timeout`,
 * `unsupported_audio`, `worklet_unavailable`), or with the browser's own error when the
 * microphone is refused (a `NotAllowedError` DOMException); everything it opened is closed again.
 */
export async function startWebCall(options: WebCallOptions): Promise<WebCall> {
  const { url, token } = options ?? {};
  if (typeof url !== 'string' || !/^wss?:\/\//i.test(url)) throw new TypeError('startWebCall: url must be a ws:// or wss:// URL');
  if (typeof token !== 'string' || token.length === 0) throw new TypeError('startWebCall: token must be a non-empty string');
  const audio = await openCallAudio({ microphone: options.microphone ?? true, workletUrl: options.workletUrl });
  return new Promise<WebCall>((resolve, reject) => {
    let socket: WebSocket;
    try {
      socket = new WebSocket(url);
    } catch (error) {
      audio.close();
      return reject(new WebCallError('connection_error', `startWebCall: cannot open ${url}`, { cause: error }));
    }
    new WebCallSession(socket, audio, { resolve, reject }, token);
  });
}
