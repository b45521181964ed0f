import { randomBytes } from 'node:crypto';
import type { CallRepository } from '../db/call-repository';
import { hashListenToken, mintListenToken } from '../auth/listen-token';
import { LISTEN_TOKEN_TTL_MS, listenUrlFrom, type CallEndRequest, type CallListen } from '../domain/live-call';
import { AppError, ConflictError, NotFoundError } from '../errors';

/** What the live-call routes need; built once per process by the composition root. */
export interface LiveCallServiceDeps {
  calls: Pick<CallRepository, 'setListenToken' | 'requestEnd'>;
  now: () => Date;
  /** The call engine's `/web/calls` socket (`WEB_CALL_URL`); the listen socket is on its origin. Unset: listening answers 503. */
  webCallUrl?: string;
  /** 32 secure random bytes per token (default `crypto.randomBytes`). */
  random32?: () => Uint8Array;
}

/**
 * POST /calls/{id}/listen and POST /calls/{id}/end: listening to a live call and ending it, for
 * phone and web calls alike (docs/decisions.md "Listening to a live call, and ending it").
 */
export class LiveCallService {
  constructor(private readonly deps: LiveCallServiceDeps) {}

  /**
   * A single-use token for the engine's listen socket, stored as its hash on the call. Only an
   * in-progress call can be listened to: 404 for no such call, 409 `call_not_live` otherwise.
   */
  async listen(businessId: number, callId: number): Promise<CallListen> {
    const url = this.deps.webCallUrl === undefined ? undefined : listenUrlFrom(this.deps.webCallUrl);
    if (!url) throw new AppError('web_calls_unavailable', 503, 'Listening is not set up on this deployment (WEB_CALL_URL is unset).');
    const token = mintListenToken(callId, businessId, (this.deps.random32 ?? (() => randomBytes(32)))());
    const expiresAtMs = this.deps.now().getTime() + LISTEN_TOKEN_TTL_MS;
    const { written, call } = await this.deps.calls.setListenToken(businessId, callId, hashListenToken(token), expiresAtMs);
    if (!call) throw new NotFoundError(`Call ${callId} not found.`);
    if (!written) throw new ConflictError('call_not_live', `Call ${callId} is ${call.status}: only a call in progress can be listened to.`);
    return { url, token, expires_at: new Date(expiresAtMs).toISOString() };
  }

  /**
   * Asks the engine holding a live call (queued, ringing or in progress) to end it `canceled`.
   * 404 for no such call, 409 `conflict` once it has ended. Repeating it is harmless.
   */
  async end(businessId: number, callId: number): Promise<CallEndRequest> {
    const { written, call } = await this.deps.calls.requestEnd(businessId, callId, this.deps.now().toISOString());
    if (!call) throw new NotFoundError(`Call ${callId} not found.`);
    if (!written) throw new ConflictError('conflict', `Call ${callId} has already ended.`);
    return { id: call.id, status: call.status };
  }
}
