import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { TwilioMediaStream } from '../adapters/twilio-media-stream';
import type { SessionHandle, SessionStart, StreamStart } from '../call/session-types';
import type { CallTransportEvent } from '../ports/call-transport';
import { verifyStreamToken } from '../telephony/stream-token';
import { isValidTwilioSignature } from '../telephony/twilio-signature';
import type { SessionRegistry } from './session-registry';
import type { Logger } from '../../../shared/log';

/** The path Twilio opens media streams on (the `<Stream url>` our TwiML and dialler give it). */
export const MEDIA_STREAM_PATH = '/twilio/media';

/** Close codes (RFC 6455): policy violation (not ours to serve) and try again later (draining). */
const CLOSE_POLICY = 1008;
const CLOSE_TRY_LATER = 1013;
const CLOSE_INTERNAL = 1011;

/** What the upgrade handler needs; the session starter is injected so tests can observe it. */
export interface MediaStreamUpgradeOptions {
  authToken: string;
  /** The public origin (https://…); the signed stream URL is its ws(s):// form plus the path. */
  publicBaseUrl: string;
  streamTokenSecret: string;
  registry: SessionRegistry;
  startSession: (input: SessionStart) => SessionHandle;
  isDraining: () => boolean;
  /** False while the task is at its admission cap: the handshake is refused with 503. */
  hasRoom?: () => boolean;
  /** Epoch ms, for the token's expiry. */
  nowMs: () => number;
  /** How long a connected stream may take to send `start` (default 5000 ms). */
  startTimeoutMs?: number;
  log: Logger;
}

/**
 * Handles HTTP upgrades for Twilio Media Streams. The handshake must carry X-Twilio-Signature over
 * the public `wss://…/twilio/media` URL with no params (docs/protocols.md "Twilio"), else 403 and the socket
 * is destroyed. An accepted stream must send `start` within the timeout, with a `token` parameter
 * that verifies and names the same call as `call_id`; otherwise it is closed 1008 and no session
 * starts. While draining, streams are closed 1013. At the task's admission cap the handshake is
 * refused with 503 before any WebSocket exists. Either way Twilio's `<Connect>` ends and it runs
 * the next verb, our TwiML's next `<Connect>` (telephony/twiml.ts), which the load balancer sends
 * to another task.
 */
export function mediaStreamUpgrade(options: MediaStreamUpgradeOptions): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const wsBase = options.publicBaseUrl.replace(/^http/, 'ws');
  return function upgrade(req, socket, head) {
    socket.on('error', (error) => options.log.warn('media.upgrade.socket_error', { error: error.message }));
    const url = new URL(req.url ?? '/', wsBase);
    if (url.pathname !== MEDIA_STREAM_PATH) return refuse(socket, 404, 'Not Found');
    const signature = req.headers['x-twilio-signature'];
    if (!isValidTwilioSignature(options.authToken, typeof signature === 'string' ? signature : undefined, url.toString())) {
      options.log.warn('media.upgrade.forged', { path: url.pathname });
      return refuse(socket, 403, 'Forbidden');
    }
    if (options.hasRoom && !options.hasRoom()) {
      options.log.warn('media.upgrade.at_task_cap', { active_calls: options.registry.size });
      return refuse(socket, 503, 'Service Unavailable');
    }
    wss.handleUpgrade(req, socket, head, (ws) => awaitStart(ws, options));
  };
}

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

/** Waits for `start`, checks it, and hands the stream to a new session. */
function awaitStart(ws: WebSocket, options: MediaStreamUpgradeOptions): void {
  const transport = new TwilioMediaStream(ws, { log: options.log });
  const close = (code: number, reason: string, fields: Record<string, unknown> = {}) => {
    off();
    clearTimeout(timer);
    options.log.warn('media.stream.refused', { code, reason, ...fields });
    ws.close(code, reason);
  };
  const timer = setTimeout(() => close(CLOSE_POLICY, 'no start'), options.startTimeoutMs ?? 5000);
  const off = transport.on((event: CallTransportEvent) => {
    if (event.type === 'closed') return void (off(), clearTimeout(timer));
    if (event.type !== 'start') return;
    // The session is started synchronously from here so no event after `start` can be missed; its
    // listener, added while this event is being delivered, sees this same `start` event too.
    off();
    clearTimeout(timer);
    const claims = verifyStreamToken(options.streamTokenSecret, event.customParameters.token ?? '', options.nowMs());
    const fields = { call_id: event.customParameters.call_id, stream_sid: event.streamSid, call_sid: event.callSid };
    if (!claims || String(claims.callId) !== event.customParameters.call_id) return close(CLOSE_POLICY, 'bad token', fields);
    if (options.isDraining()) return close(CLOSE_TRY_LATER, 'draining', fields);
    start(ws, transport, event, claims, options);
  });
}

function start(
  ws: WebSocket,
  transport: TwilioMediaStream,
  event: StreamStart,
  claims: SessionStart['claims'],
  options: MediaStreamUpgradeOptions,
): void {
  try {
    options.registry.add(options.startSession({ transport, start: event, claims }));
    options.log.info('media.stream.accepted', { call_id: claims.callId, business_id: claims.businessId, stream_sid: event.streamSid });
  } catch (error) {
    options.log.error('media.stream.session_failed', { call_id: claims.callId, error: String(error) });
    ws.close(CLOSE_INTERNAL, 'session failed');
  }
}
