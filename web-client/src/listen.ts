/**
 * Listening to a live call (docs/protocols.md "Listening to a live call"): the same socket session
 * as a web call, with no microphone; the server sends both sides of the call mixed, and the same
 * `transcript`, `state`, `latency`, `tool` and `ended` events. The business's server (or the
 * console) asks `POST /api/v1/calls/{id}/listen` for `{ url, token }`.
 */
import { openCallAudio } from './audio';
import type { Listener, WebCallEvent } from './events';
import { WebCallSession, type WebCallStats } from './web-call';
import { WebCallError } from './web-call-error';

/** What `listenToCall` needs. */
export interface ListenOptions {
  /** The `url` from POST /api/v1/calls/{id}/listen (ws:// or wss://, path /web/listen). */
  url: string;
  /** The single-use `token` from the same answer; valid 60 s. */
  token: string;
  /** Where the worklet module is served, for pages whose CSP forbids blob: scripts; default: a Blob URL of the built-in copy. */
  workletUrl?: string;
}

/** Listening to one call. */
export interface CallListening {
  /** The call's id. */
  readonly callId: number;
  /** Listens to an event (`transcript`, `state`, `latency`, `tool`, `ended`, `error`); returns the function that stops listening. */
  on<E extends WebCallEvent>(event: E, listener: Listener<E>): () => void;
  /** Stops listening: playback stops and the socket closes. The call goes on. */
  stop(): void;
  /** Playback and traffic figures. */
  stats(): WebCallStats;
}

/**
 * Connections tried while the server answers `not_here`: with several call-engine tasks behind one
 * load balancer the socket may reach a task that does not hold the call, and is refused before its
 * token is spent. Six tries miss a call held by one of two tasks one time in 64.
 */
const NOT_HERE_TRIES = 6;

/**
 * Starts listening; resolves once the server says `started`. Call it from a click (browsers only
 * play sound after one). Rejects with a `WebCallError` (`bad_token`, `origin_not_allowed`,
 * `not_here` after every try, or the client's own codes as `startWebCall` has them).
 */
export async function listenToCall(options: ListenOptions): Promise<CallListening> {
  const { url, token } = options ?? {};
  if (typeof url !== 'string' || !/^wss?:\/\//i.test(url)) throw new TypeError('listenToCall: url must be a ws:// or wss:// URL');
  if (typeof token !== 'string' || token.length === 0) throw new TypeError('listenToCall: token must be a non-empty string');
  for (let attempt = 1; ; attempt++) {
    try {
      const session = await connect(url, token, options.workletUrl);
      return {
        callId: session.callId,
        on: (event, listener) => session.on(event, listener),
        stop: () => session.close(),
        stats: () => session.stats(),
      };
    } catch (error) {
      if (!(error instanceof WebCallError && error.code === 'not_here' && attempt < NOT_HERE_TRIES)) throw error;
    }
  }
}

async function connect(url: string, token: string, workletUrl: string | undefined): Promise<WebCallSession> {
  const audio = await openCallAudio({ microphone: false, workletUrl });
  return new Promise<WebCallSession>((resolve, reject) => {
    let socket: WebSocket;
    try {
      socket = new WebSocket(url);
    } catch (error) {
      audio.close();
      return reject(new WebCallError('connection_error', `listenToCall: cannot open ${url}`, { cause: error }));
    }
    new WebCallSession(socket, audio, { resolve, reject }, token);
  });
}
