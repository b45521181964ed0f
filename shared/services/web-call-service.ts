import { randomBytes } from 'node:crypto';
import type { AssistantRepository } from '../db/assistant-repository';
import type { BusinessRepository } from '../db/business-repository';
import type { CallRepository } from '../db/call-repository';
import type { IdempotencyRepository } from '../db/idempotency-repository';
import type { IdAllocator } from '../db/ids';
import { parseCreateWebCallBody, WEB_CALL_TOKEN_TTL_MS, type CreateWebCallInput, type WebCall } from '../domain/web-call';
import { hashWebCallToken, mintWebCallToken } from '../auth/web-call-token';
import { AppError, ConflictError, InsufficientMinutesError, NotFoundError } from '../errors';
import { initialCallRecord } from './call-views';
import { checkIdempotencyKey, claimIdempotencyKey, fingerprint } from './idempotency';

/** What POST /calls/web needs; built once per process by the composition root. */
export interface WebCallServiceDeps {
  assistants: Pick<AssistantRepository, 'findAssistant'>;
  businesses: Pick<BusinessRepository, 'getBusiness'>;
  calls: Pick<CallRepository, 'insertCall' | 'reissueWebToken'>;
  idempotency: IdempotencyRepository;
  ids: Pick<IdAllocator, 'nextId'>;
  now: () => Date;
  /** The call engine's `/web/calls` WebSocket (the API's `WEB_CALL_URL`); unset, web calls are refused with a 503. */
  webCallUrl?: string;
  /** 32 secure random bytes per token (default `crypto.randomBytes`). */
  random32?: () => Uint8Array;
}

const IDEMPOTENCY_SCOPE = 'POST /calls/web';

/** What the idempotency record keeps of a web call: never the token, which is shown once. */
interface StoredWebCall {
  call_id: number;
}

/**
 * POST /calls/web: a call record for a browser (`channel: web`, `direction: inbound`, queued) and a
 * single-use token for the call engine's socket. The token is returned once; the call keeps its
 * SHA-256 and expiry (docs/decisions.md "Web calls").
 */
export class WebCallService {
  constructor(private readonly deps: WebCallServiceDeps) {}

  /**
   * Validates, checks the assistant and the minutes as POST /calls does, and stores the call with
   * its token's hash. With an Idempotency-Key the same key and body give the same call with a fresh
   * token (the first is never stored, so it cannot be replayed): the earlier token stops working. A
   * replay after the call was joined or ended is a 409 `conflict`.
   */
  async create(businessId: number, body: unknown, idempotencyKey: string | undefined): Promise<WebCall> {
    const input = parseCreateWebCallBody(body);
    const url = this.url();
    if (idempotencyKey === undefined) return this.open(businessId, input, url, undefined);
    checkIdempotencyKey(idempotencyKey);
    const request = { businessId, scope: IDEMPOTENCY_SCOPE, key: idempotencyKey, fingerprint: fingerprint(input) };
    const claim = await claimIdempotencyKey(this.deps.idempotency, request, () => this.deps.now().getTime());
    if (claim.kind === 'replay') return this.reissue(businessId, (claim.body as StoredWebCall).call_id, url);
    try {
      return await this.open(businessId, input, url, idempotencyKey);
    } catch (error) {
      await this.deps.idempotency.release(businessId, IDEMPOTENCY_SCOPE, idempotencyKey);
      throw error;
    }
  }

  private url(): string {
    if (this.deps.webCallUrl) return this.deps.webCallUrl;
    throw new AppError('web_calls_unavailable', 503, 'Web calls are not set up on this deployment (WEB_CALL_URL is unset).');
  }

  private async open(businessId: number, input: CreateWebCallInput, url: string, idempotencyKey: string | undefined): Promise<WebCall> {
    const [assistant, business, callId] = await Promise.all([
      this.deps.assistants.findAssistant(businessId, input.assistant_id),
      this.deps.businesses.getBusiness(businessId),
      this.deps.ids.nextId(),
    ]);
    if (!assistant) throw new NotFoundError(`Assistant ${input.assistant_id} not found.`);
    if (business.minutes_balance - business.minutes_reserved <= 0)
      throw new InsufficientMinutesError('The plan has no minutes left for a web call.');
    const now = this.deps.now();
    const { token, hash, expiresAtMs } = this.token(callId, businessId, now);
    const record = {
      // A browser has no phone number: both numbers are empty and no line is used (docs/decisions.md "Web calls").
      ...initialCallRecord({
        id: callId,
        business_id: businessId,
        assistant_id: assistant.id,
        channel: 'web',
        direction: 'inbound',
        from_number: '',
        to_number: '',
        phone_number_id: null,
        variables: input.variables,
        now: now.toISOString(),
      }),
      web_token_hash: hash,
      web_token_expires_at: expiresAtMs,
    };
    const stored: StoredWebCall = { call_id: callId };
    const completion =
      idempotencyKey === undefined ? [] : [this.deps.idempotency.completeItem(businessId, IDEMPOTENCY_SCOPE, idempotencyKey, 200, stored)];
    await this.deps.calls.insertCall(record, completion);
    return { call_id: callId, url, token, expires_at: new Date(expiresAtMs).toISOString() };
  }

  /** A replayed create: a new token for the same call while nobody has joined it. */
  private async reissue(businessId: number, callId: number, url: string): Promise<WebCall> {
    const now = this.deps.now();
    const { token, hash, expiresAtMs } = this.token(callId, businessId, now);
    if (!(await this.deps.calls.reissueWebToken(businessId, callId, hash, expiresAtMs, now.toISOString())))
      throw new ConflictError('conflict', `Web call ${callId} was already joined or has ended; create a new web call.`);
    return { call_id: callId, url, token, expires_at: new Date(expiresAtMs).toISOString() };
  }

  private token(callId: number, businessId: number, now: Date) {
    const token = mintWebCallToken(callId, businessId, (this.deps.random32 ?? (() => randomBytes(32)))());
    return { token, hash: hashWebCallToken(token), expiresAtMs: now.getTime() + WEB_CALL_TOKEN_TTL_MS };
  }
}
