import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { WEB_CLOSE, WebCallSocket } from '../adapters/web-call-socket';
import type { SessionHandle, SessionStart } from '../call/session-types';
import type { AssistantRecords, BusinessRecords, CallProgress, CallRecord } from '../ports/call-records';
import type { Telephony } from '../ports/telephony';
import type { TypedSpeech, WebCallTokens } from '../ports/web-calls';
import type { SessionRegistry } from './session-registry';
import { defaultAssistantConfig } from '../../../shared/domain/assistant-config';
import { hashWebCallToken, parseWebCallToken } from '../../../shared/auth/web-call-token';
import type { Admission } from '../../../shared/db/call-admission';
import { ProviderError } from '../../../shared/errors';
import type { Logger } from '../../../shared/log';

/** The path browsers open web calls on (the `url` of `POST /calls/web`). */
export const WEB_CALL_PATH = '/web/calls';

/** Sockets open on this task that have not sent `start`: past this, further upgrades are refused 503. */
export const MAX_PENDING_WEB_SOCKETS = 64;

/** The plan's concurrency cap and minutes, as an inbound call takes them (`../http/inbound-call.ts`). */
export interface WebCallAdmission {
  /** The concurrency slot and minutes in one write; absent, minutes alone (`reserve`). */
  slots?: { admit(businessId: number, callId: number, wantedMinutes: number, maxDurationS?: number): Promise<Admission> };
  minutes: { reserve(businessId: number, callId: number, wantedMinutes: number, maxDurationS?: number): Promise<number> };
}

/** What the `/web/calls` upgrade needs. */
export interface WebCallUpgradeOptions {
  tokens: WebCallTokens;
  businesses: BusinessRecords;
  assistants: AssistantRecords;
  admission: WebCallAdmission;
  lifecycle: CallProgress;
  /** The console's own origins (CONSOLE_ORIGIN), always allowed besides the business's `web_origins`. */
  consoleOrigins: readonly string[];
  typedSpeech: TypedSpeech;
  registry: SessionRegistry;
  startSession: (input: SessionStart) => SessionHandle;
  isDraining: () => boolean;
  /** False while the task is at its admission cap: the handshake is refused with 503. */
  hasRoom?: () => boolean;
  /** Epoch ms, for the token's expiry. */
  nowMs: () => number;
  /** How long an open socket may take to send `start` (default 5000 ms). */
  startTimeoutMs?: number;
  /** Sockets waiting for `start` at most (default {@link MAX_PENDING_WEB_SOCKETS}). */
  maxPending?: number;
  log: Logger;
}

/** A web call has no carrier: a transfer fails as a failed transfer does, and hanging up is closing the socket. */
const NO_CARRIER: Telephony = {
  placeCall: () => Promise.reject(new ProviderError('web', 'A web call places no calls', undefined, { retryable: false })),
  hangup: () => Promise.resolve(),
  transfer: () => Promise.reject(new ProviderError('web', 'A web call has no phone line to transfer', undefined, { retryable: false })),
};

/**
 * Handles the upgrades of `/web/calls` (docs/protocols.md "Web calls"). Browsers cannot sign, so
 * there is no Twilio signature: the single-use token in the first message is the credential, and
 * the browser's `Origin` must be one the business allows. At the task's admission cap the
 * handshake is refused with 503; while draining a `start` is refused `at_capacity` with 1013 before
 * its token is spent, so the browser may try again. The call then takes its concurrency slot and
 * minutes as an inbound call does and runs as one (greeting first).
 */
export function webCallUpgrade(options: WebCallUpgradeOptions): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  // ws closes a frame past this with 1009; frames up to it reach the socket, which refuses audio over 64 KiB itself.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 128 * 1024 });
  const waiting = { count: 0 };
  return function upgrade(req, socket, head) {
    socket.on('error', (error) => options.log.warn('web.upgrade.socket_error', { error: error.message }));
    const full = options.hasRoom && !options.hasRoom();
    if (full || waiting.count >= (options.maxPending ?? MAX_PENDING_WEB_SOCKETS)) {
      options.log.warn(full ? 'web.upgrade.at_task_cap' : 'web.upgrade.too_many_pending', {
        active_calls: options.registry.size,
        pending: waiting.count,
      });
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return void socket.destroy();
    }
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
    // Counted from the upgrade, so sockets still in their handshake count too.
    waiting.count++;
    let counted = true;
    const settle = () => {
      if (counted) waiting.count--;
      counted = false;
    };
    socket.once('close', settle);
    wss.handleUpgrade(req, socket, head, (ws) => awaitStart(ws, origin, options, settle));
  };
}

/** Waits (bounded) for `start`, then checks it. */
function awaitStart(ws: WebSocket, origin: string | undefined, options: WebCallUpgradeOptions, started: () => void): void {
  let typed: ((text: string) => Promise<void>) | undefined;
  const transport = new WebCallSocket(ws, {
    log: options.log,
    onStart: (token) => {
      clearTimeout(timer);
      started();
      void admit(transport, token, origin, options)
        .then((said) => (typed = said))
        .catch((error: unknown) => {
          options.log.error('web.call.start_failed', { error: String(error) });
          if (transport.open) ws.close(1011, 'internal error');
        });
    },
    onSay: (text) => typed?.(text),
  });
  const timer = setTimeout(() => {
    options.log.warn('web.call.refused', { reason: 'no start' });
    if (transport.open) ws.close(WEB_CLOSE.policy, 'no start');
  }, options.startTimeoutMs ?? 5000);
  ws.once('close', () => clearTimeout(timer));
}

/**
 * Token, origin, draining, redemption, admission, session: each refusal is an `error` and a close.
 * Resolves with the call's typed-speech handler once it runs.
 */
async function admit(
  transport: WebCallSocket,
  token: string,
  origin: string | undefined,
  options: WebCallUpgradeOptions,
): Promise<((text: string) => Promise<void>) | undefined> {
  const claimed = parseWebCallToken(token);
  const refuse = (code: Parameters<WebCallSocket['refuse']>[0], message: string, fields: Record<string, unknown> = {}, close?: number) => {
    options.log.warn('web.call.refused', { code, ...fields });
    transport.refuse(code, message, close);
    return undefined;
  };
  if (!claimed) return refuse('bad_token', 'The token is not a web call token.');
  const fields = { call_id: claimed.callId, business_id: claimed.businessId };
  const business = await options.businesses.getBusiness(claimed.businessId).catch(() => undefined);
  if (!business) return refuse('bad_token', 'The token is not valid.', fields);
  if (origin !== undefined && !originAllowed(origin, business.profile.web_origins, options.consoleOrigins))
    return refuse('origin_not_allowed', `The origin ${origin.slice(0, 100)} may not open web calls for this business.`, fields);
  if (options.isDraining()) return refuse('at_capacity', 'This server is restarting: try again.', fields, WEB_CLOSE.tryLater);
  const noRoom = () => options.hasRoom !== undefined && !options.hasRoom();
  // The task's cap again, now the socket is about to become a call (the upgrade's check was before the wait for start).
  if (noRoom()) return refuse('at_capacity', 'This server is at its limit of calls: try again.', fields, WEB_CLOSE.tryLater);
  const call = await options.tokens.redeem(claimed.businessId, claimed.callId, hashWebCallToken(token), options.nowMs());
  if (!call) return refuse('bad_token', 'The token is not valid: used, expired, or the call is over.', fields);
  const refusal = await takeSlot(call, options);
  if (refusal) {
    await options.lifecycle.end(call.business_id, call.id, { endedReason: 'failed' });
    const message = refusal === 'at_capacity' ? 'The business is at its limit of concurrent calls.' : 'The business has no minutes left.';
    return refuse(refusal, message, fields);
  }
  if (!transport.open) {
    // The browser left while we checked: the call never started.
    await options.lifecycle.end(call.business_id, call.id, { endedReason: 'caller_hung_up' });
    return undefined;
  }
  // Checked once more with nothing awaited between it and the session's registration, so calls admitted together cannot pass the cap.
  if (noRoom()) {
    await options.lifecycle.end(call.business_id, call.id, { endedReason: 'failed' });
    return refuse('at_capacity', 'This server is at its limit of calls: try again.', fields, WEB_CLOSE.tryLater);
  }
  return start(transport, call, options);
}

/** Whether a page of `origin` may open a web call: the business's `web_origins` (its profile, as PATCH /business stores them) or the console's. */
export function originAllowed(origin: string, webOrigins: readonly string[], consoleOrigins: readonly string[]): boolean {
  const wanted = origin.toLowerCase();
  return [...consoleOrigins, ...webOrigins].some((allowed) => allowed.toLowerCase() === wanted);
}

/** The concurrency slot and the call's minutes, as `acceptInboundCall` takes them; the refusal, if any. */
async function takeSlot(call: CallRecord, options: WebCallUpgradeOptions): Promise<'at_capacity' | 'no_minutes' | undefined> {
  const assistant = await options.assistants.findAssistant(call.business_id, call.assistant_id);
  const maxDurationS = (assistant?.config ?? defaultAssistantConfig()).advanced.max_duration_s;
  const wanted = Math.ceil(maxDurationS / 60);
  const { slots, minutes } = options.admission;
  if (slots) {
    const admission = await slots.admit(call.business_id, call.id, wanted, maxDurationS);
    if (admission.kind === 'at_capacity' || admission.kind === 'refused') return 'at_capacity';
    if (admission.kind === 'no_minutes' || admission.reservedMinutes <= 0) return 'no_minutes';
    return undefined;
  }
  return (await minutes.reserve(call.business_id, call.id, wanted, maxDurationS)) <= 0 ? 'no_minutes' : undefined;
}

/** A web call's SID: `WC` + 32 hex, its `carrier_call_sid` and the tag the sandbox providers are told. */
function webCallSid(): string {
  return `WC${randomBytes(16).toString('hex')}`;
}

/** Accepts the socket and starts the call's session; returns its typed-speech handler. */
function start(transport: WebCallSocket, call: CallRecord, options: WebCallUpgradeOptions): (text: string) => Promise<void> {
  const callSid = webCallSid();
  const startEvent = transport.accept(call.id, callSid);
  const claims = { callId: call.id, businessId: call.business_id, expiresAt: options.nowMs() };
  try {
    options.registry.add(
      options.startSession({
        transport,
        start: startEvent,
        claims,
        observe: (observation) => transport.observe(observation),
        telephony: NO_CARRIER,
      }),
    );
    options.log.info('web.call.accepted', { call_id: call.id, business_id: call.business_id, call_sid: callSid });
  } catch (error) {
    options.log.error('web.call.session_failed', { call_id: call.id, error: String(error) });
    transport.close('done');
  }
  return (text) =>
    options.typedSpeech
      .say(callSid, text)
      .then((audio) => (audio instanceof Uint8Array ? transport.inject(audio) : transport.badMessage(audio.refused)))
      .catch((error: unknown) => {
        options.log.warn('web.call.typed_speech_failed', { call_id: call.id, error: String(error) });
        transport.badMessage('The line could not be said: try again.');
      });
}
