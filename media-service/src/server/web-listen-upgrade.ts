import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { WEB_CLOSE } from '../adapters/web-call-socket';
import { WebListenSocket } from '../adapters/web-listen-socket';
import type { BusinessRecords } from '../ports/call-records';
import type { WebCallTokens } from '../ports/web-calls';
import type { SessionRegistry } from './session-registry';
import { originAllowed } from './web-call-upgrade';
import { hashListenToken, parseListenToken } from '../../../shared/auth/listen-token';
import { LISTEN_PATH } from '../../../shared/domain/live-call';
import type { Logger } from '../../../shared/log';

/** The path listeners open (the `url` of `POST /calls/{id}/listen`). */
export const WEB_LISTEN_PATH = LISTEN_PATH;

/** What the `/web/listen` upgrade needs. */
export interface WebListenUpgradeOptions {
  tokens: Pick<WebCallTokens, 'redeemListen'>;
  businesses: BusinessRecords;
  /** The console's own origins (CONSOLE_ORIGIN), always allowed besides the business's `web_origins`. */
  consoleOrigins: readonly string[];
  registry: SessionRegistry;
  /** Epoch ms, for the token's expiry. */
  nowMs: () => number;
  /** How long an open socket may take to send `start` (default 5000 ms). */
  startTimeoutMs?: number;
  log: Logger;
}

/**
 * Handles the upgrades of `/web/listen` (docs/protocols.md "Listening to a live call"): the
 * single-use `wl_` token in the first message is the credential, a browser's `Origin` is checked as
 * for web calls, and the call must run in this process. When it runs in another task (several
 * tasks behind one load balancer) the listener is refused `not_here` with 1013 before its token is
 * spent, so connecting again may reach the right task (the browser client retries).
 */
export function webListenUpgrade(options: WebListenUpgradeOptions): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  // A listener sends one short `start`; anything larger is closed by ws with 1009.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  return function upgrade(req, socket, head) {
    socket.on('error', (error) => options.log.warn('web.listen.upgrade_error', { error: error.message }));
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
    wss.handleUpgrade(req, socket, head, (ws) => awaitStart(ws, origin, options));
  };
}

function awaitStart(ws: WebSocket, origin: string | undefined, options: WebListenUpgradeOptions): void {
  const listener = new WebListenSocket(ws, {
    log: options.log,
    onStart: (token) => {
      clearTimeout(timer);
      void admit(listener, ws, token, origin, options).catch((error: unknown) => {
        options.log.error('web.listen.start_failed', { error: String(error) });
        if (listener.open) ws.close(1011, 'internal error');
      });
    },
  });
  const timer = setTimeout(() => {
    options.log.warn('web.listen.refused', { reason: 'no start' });
    if (listener.open) ws.close(WEB_CLOSE.policy, 'no start');
  }, options.startTimeoutMs ?? 5000);
  ws.once('close', () => clearTimeout(timer));
}

/** Token, origin, the call's session here, redemption; then the listener joins the call. */
async function admit(
  listener: WebListenSocket,
  ws: WebSocket,
  token: string,
  origin: string | undefined,
  options: WebListenUpgradeOptions,
): Promise<void> {
  const refuse = (
    code: Parameters<WebListenSocket['refuse']>[0],
    message: string,
    fields: Record<string, unknown> = {},
    close?: number,
  ) => {
    options.log.warn('web.listen.refused', { code, ...fields });
    listener.refuse(code, message, close);
  };
  const claimed = parseListenToken(token);
  if (!claimed) return refuse('bad_token', 'The token is not a listen token.');
  const fields = { call_id: claimed.callId, business_id: claimed.businessId };
  const business = await options.businesses.getBusiness(claimed.businessId).catch(() => undefined);
  if (!business) return refuse('bad_token', 'The token is not valid.', fields);
  if (origin !== undefined && !originAllowed(origin, business.profile.web_origins, options.consoleOrigins))
    return refuse('origin_not_allowed', `The origin ${origin.slice(0, 100)} may not listen to this business's calls.`, fields);
  const session = options.registry.get(claimed.callId);
  if (!session?.listen || session.businessId !== claimed.businessId)
    return refuse('not_here', 'The call is not running on this server, or has ended: connect again.', fields, WEB_CLOSE.tryLater);
  const call = await options.tokens.redeemListen(claimed.businessId, claimed.callId, hashListenToken(token), options.nowMs());
  if (!call) return refuse('bad_token', 'The token is not valid: used, expired, or the call is over.', fields);
  if (!listener.open) return;
  listener.accept(call.id);
  const leave = session.listen(listener);
  ws.once('close', leave);
  options.log.info('web.listen.accepted', fields);
}
