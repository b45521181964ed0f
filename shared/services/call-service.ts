import { parseCreateCallBody, parseListCallsQuery, type Call, type CallDetail } from '../domain/call';
import type { AssistantRepository } from '../db/assistant-repository';
import type { BusinessRepository } from '../db/business-repository';
import type { CallRepository } from '../db/call-repository';
import type { CatalogRepository } from '../db/catalog-repository';
import type { IdempotencyRepository } from '../db/idempotency-repository';
import type { IdAllocator } from '../db/ids';
import type { PageCursors } from '../db/page-cursor';
import type { Usage } from '../domain/usage';
import { InsufficientMinutesError, NotFoundError, ValidationError } from '../errors';
import { checkIdempotencyKey, claimIdempotencyKey, fingerprint } from './idempotency';
import type { OutboundCallQueue } from '../queue/outbound-calls';
import { initialCallRecord, toCallDetailView, toCallView } from './call-views';
import { listPage, openCursor } from './list-page';
import type { Logger } from '../log';

/** What the call use cases need; built once per process by the composition root. */
export interface CallServiceDeps {
  assistants: AssistantRepository;
  businesses: BusinessRepository;
  catalog: CatalogRepository;
  calls: CallRepository;
  idempotency: IdempotencyRepository;
  ids: IdAllocator;
  /** Signs and opens GET /calls cursors. */
  cursors: PageCursors;
  queue: OutboundCallQueue;
  now: () => Date;
  log: Logger;
  /** Signs recording links; absent where no recordings bucket is configured (every recording_url is null). */
  recordingLinks?: RecordingLinks;
}

/**
 * Port: a short-lived download link for a stored recording key. The S3 presigner lives in the
 * composition root, so the service never imports the AWS SDK.
 */
export interface RecordingLinks {
  presign(recordingKey: string): Promise<string>;
}

const IDEMPOTENCY_SCOPE = 'POST /calls';

/** Outbound call creation, listing and reads. */
export class CallService {
  constructor(private readonly deps: CallServiceDeps) {}

  /** GET /usage: the plan's minutes and the calls holding or waiting for a slot, read now. */
  async usage(businessId: number): Promise<Usage> {
    const [business, queued] = await Promise.all([
      this.deps.businesses.getBusiness(businessId),
      this.deps.calls.countOpenCalls(businessId, 'queued'),
    ]);
    return {
      minutes_remaining: Math.max(0, business.minutes_balance),
      minutes_reserved: Math.max(0, business.minutes_reserved ?? 0),
      live_calls: Math.max(0, business.live_calls ?? 0),
      max_concurrent_calls: business.max_concurrent_calls,
      queued_calls: queued,
    };
  }

  /**
   * Validates, stores the call in its initial state and hands it to the call engine. With an
   * Idempotency-Key, the same key and body return the same call (a concurrent duplicate waits for
   * it); a different body is a 409.
   */
  async create(businessId: number, body: unknown, idempotencyKey: string | undefined): Promise<Call> {
    const input = parseCreateCallBody(body);
    if (idempotencyKey === undefined) return this.placeCall(businessId, input, undefined);
    checkIdempotencyKey(idempotencyKey);
    const request = { businessId, scope: IDEMPOTENCY_SCOPE, key: idempotencyKey, fingerprint: fingerprint(input) };
    const claim = await claimIdempotencyKey(this.deps.idempotency, request, () => this.deps.now().getTime());
    if (claim.kind === 'replay') return claim.body as Call;
    try {
      return await this.placeCall(businessId, input, idempotencyKey);
    } catch (error) {
      await this.deps.idempotency.release(businessId, IDEMPOTENCY_SCOPE, idempotencyKey);
      throw error;
    }
  }

  private async placeCall(
    businessId: number,
    input: ReturnType<typeof parseCreateCallBody>,
    idempotencyKey: string | undefined,
  ): Promise<Call> {
    // The id is reserved alongside the reads (a counter write every 100 ids), off the critical path.
    const [assistant, number, business, callId] = await Promise.all([
      this.deps.assistants.findAssistant(businessId, input.assistant_id),
      input.phone_number_id === null
        ? this.deps.catalog.firstPhoneNumber(businessId)
        : this.deps.catalog.findPhoneNumber(businessId, input.phone_number_id),
      this.deps.businesses.getBusiness(businessId),
      this.deps.ids.nextId(),
    ]);
    if (!assistant) throw new NotFoundError(`Assistant ${input.assistant_id} not found.`);
    if (!number && input.phone_number_id !== null) throw new NotFoundError(`Phone number ${input.phone_number_id} not found.`);
    if (!number) {
      throw new ValidationError([
        {
          loc: ['body', 'phone_number_id'],
          msg: 'Value error, the business has no phone number to call from',
          type: 'value_error',
          input: null,
        },
      ]);
    }
    if (business.minutes_balance - business.minutes_reserved <= 0) throw new InsufficientMinutesError();
    const now = this.deps.now().toISOString();
    const record = initialCallRecord({
      id: callId,
      business_id: businessId,
      assistant_id: assistant.id,
      direction: 'outbound',
      from_number: number.number,
      to_number: input.to,
      phone_number_id: number.id,
      variables: input.variables,
      now,
    });
    const view = toCallView(record);
    const completion =
      idempotencyKey === undefined ? [] : [this.deps.idempotency.completeItem(businessId, IDEMPOTENCY_SCOPE, idempotencyKey, 200, view)];
    await this.deps.calls.insertCall(record, completion);
    await this.enqueue(businessId, record.id);
    return view;
  }

  /** A failed enqueue leaves the call queued; the engine's sweeper re-enqueues stale queued calls. */
  private async enqueue(businessId: number, callId: number): Promise<void> {
    try {
      await this.deps.queue.enqueue({ business_id: businessId, call_id: callId });
    } catch (error) {
      this.deps.log.warn(`outbound-call enqueue failed for call ${callId}; the sweeper will retry`, { error });
    }
  }

  /** One page of calls, newest first: `{data, limit, offset, has_more, next_cursor}`. */
  async list(businessId: number, query: Record<string, string | undefined>) {
    const { limit, offset, cursor, ...filters } = parseListCallsQuery(query);
    const scope = { businessId, route: 'calls', query: filters };
    const page = await this.deps.calls.listCalls(businessId, {
      limit,
      offset,
      after: await openCursor(this.deps.cursors, scope, cursor),
      assistantId: filters.assistant_id,
      direction: filters.direction,
      channel: filters.channel,
      status: filters.status,
      outcome: filters.outcome,
      createdAfter: filters.created_after,
      createdBefore: filters.created_before,
      nowEpochSeconds: Math.floor(this.deps.now().getTime() / 1000),
    });
    const { data, has_more, next_cursor } = await listPage(page, toCallView, this.deps.cursors, scope);
    return { data, limit, offset, has_more, next_cursor };
  }

  /** The call with transcript, metrics, recording link and webhook deliveries. */
  async get(businessId: number, callId: number): Promise<CallDetail> {
    const found = await this.deps.calls.findCall(businessId, callId, Math.floor(this.deps.now().getTime() / 1000));
    if (!found) throw new NotFoundError(`Call ${callId} not found.`);
    // HIPAA calls never store a recording key, so they never get a link.
    const recordingKey = found.detail.recording_key;
    const recordingUrl = recordingKey && this.deps.recordingLinks ? await this.deps.recordingLinks.presign(recordingKey) : null;
    return toCallDetailView(found.call, found.detail, { recordingUrl, deliveries: found.deliveries });
  }
}
