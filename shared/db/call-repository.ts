import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { CallStatus } from '../domain/call';
import type {
  AnalysisFields,
  CallDetailRecord,
  CallRecord,
  EndingFields,
  EndingPrecondition,
  ListCallsOptions,
  StreamRefusal,
  Transition,
} from './call-record';
import type { Db, TransactionItem } from './client';
import { callUpdate, NOT_ENDED, STATUS, statusIn, transition } from './call-updates';
import { cancelledTransactionItem } from './conditions';
import { fromItem } from './items';
import { findInboundCallId, insertInboundCall, newCallItems } from './new-calls';
import { countOpenCalls, listOpenCalls, type OpenCalls } from './open-calls';
import { findCall, listCalls, type FoundCall } from './call-queries';
import type { KeyPage } from './key-pages';
import { clearTransfer, endRequestedAmong, reissueWebToken, requestEnd, setListenToken } from './live-call-requests';
import { keys } from './table';
import { requeueUndialled, type UndialledRequeue } from './undialled-calls';

/** The record types live in call-record.ts; callers import them from here, with the repository. */
export type * from './call-record';

/** Calls of one business: created by the API, moved through their states by the call engine. */
export class CallRepository {
  constructor(private readonly db: Db) {}

  /** The put items of a new call (main + detail) for a transaction (see {@link newCallItems}). */
  newCallItems(record: CallRecord) {
    return newCallItems(this.db, record);
  }

  /**
   * Inserts a new call (main and detail items) in one transaction, together with `alongside`:
   * writes another repository prepared that must land with the call or not at all (POST /calls:
   * the idempotency record's completion).
   */
  async insertCall(record: CallRecord, alongside: TransactionItem[] = []): Promise<void> {
    await this.db.doc.send(new TransactWriteCommand({ TransactItems: [...this.newCallItems(record), ...alongside] }));
  }

  /** Inserts an inbound call once per carrier CallSid (see {@link insertInboundCall}). */
  async insertInboundCall(
    record: CallRecord,
    carrierCallSid: string,
    markerExpiresAt: number,
  ): Promise<'inserted' | { existingCallId: number }> {
    return insertInboundCall(this.db, record, carrierCallSid, markerExpiresAt);
  }

  /** The id of the call an inbound CallSid made, if any. */
  async findInboundCallId(businessId: number, carrierCallSid: string): Promise<number | undefined> {
    return findInboundCallId(this.db, businessId, carrierCallSid);
  }

  /** The call, its detail and its webhook deliveries (see {@link findCall}). */
  async findCall(businessId: number, callId: number, nowEpochSeconds: number): Promise<FoundCall | undefined> {
    return findCall(this.db, businessId, callId, nowEpochSeconds);
  }

  /** The call record alone (engine reads), strongly consistent. */
  async getCallRecord(businessId: number, callId: number): Promise<CallRecord | undefined> {
    const result = await this.db.doc.send(
      new GetCommand({ TableName: this.db.tableName, Key: keys.call(businessId, callId), ConsistentRead: true }),
    );
    return result.Item ? fromItem<CallRecord>(result.Item) : undefined;
  }

  /** The carrier's answering-machine verdict stored on the call (`recordAnsweredBy`), if any yet (strongly consistent). */
  async answeredBy(businessId: number, callId: number): Promise<string | undefined> {
    return (await this.getCallRecord(businessId, callId))?.answered_by;
  }

  /** One page of calls, newest first, read by key (see {@link listCalls}). */
  async listCalls(businessId: number, options: ListCallsOptions): Promise<KeyPage<CallRecord>> {
    return listCalls(this.db, businessId, options);
  }

  /** Issues a new token for an unjoined web call (an idempotent replay): {@link reissueWebToken}. */
  reissueWebToken(businessId: number, callId: number, hash: string, expiresAtMs: number, at: string): Promise<boolean> {
    return reissueWebToken(this.db, businessId, callId, hash, expiresAtMs, at);
  }

  /** Stores a listen token's hash on an in-progress call: {@link setListenToken}. */
  setListenToken(businessId: number, callId: number, hash: string, expiresAtMs: number): Promise<Transition> {
    return setListenToken(this.db, businessId, callId, hash, expiresAtMs);
  }

  /** Asks the engine to end a live call: {@link requestEnd}. */
  requestEnd(businessId: number, callId: number, at: string): Promise<Transition> {
    return requestEnd(this.db, businessId, callId, at);
  }

  /** Which of these calls someone asked to end: {@link endRequestedAmong}. */
  endRequestedAmong(calls: readonly { businessId: number; callId: number }[]): Promise<Set<string>> {
    return endRequestedAmong(this.db, calls);
  }

  /** Whether someone asked for this call to end. */
  async endRequested(businessId: number, callId: number): Promise<boolean> {
    return (await endRequestedAmong(this.db, [{ businessId, callId }])).size > 0;
  }

  /** Queued → ringing (the carrier's first progress callback). False when the call is past queued, or gone. */
  async markRinging(businessId: number, callId: number, at: string): Promise<boolean> {
    return (await transition(this.db, businessId, callId, { status: 'ringing', updated_at: at }, statusIn('queued'))).written;
  }

  /**
   * Queued or ringing → in_progress, with `started_at` (the clock starts once). Refused when another
   * party answered it first: the refusal carries the call as it stands, so no read follows.
   */
  async markAnswered(businessId: number, callId: number, at: string): Promise<Transition> {
    return transition(
      this.db,
      businessId,
      callId,
      { status: 'in_progress', started_at: at, updated_at: at },
      statusIn('queued', 'ringing'),
    );
  }

  /** Takes back {@link recordTransfer} after the carrier refused the redirect: {@link clearTransfer}. */
  clearTransfer(businessId: number, callId: number, toNumber: string, at: string): Promise<void> {
    return clearTransfer(this.db, businessId, callId, toNumber, at);
  }

  /** Records that a live call was handed to `toNumber`; the call as written, undefined when it is not live. */
  async recordTransfer(businessId: number, callId: number, toNumber: string, at: string): Promise<CallRecord | undefined> {
    const set = { transferred_to: toNumber, transferred_at: at, updated_at: at };
    const { written, call } = await transition(this.db, businessId, callId, set, statusIn('in_progress'));
    return written ? call : undefined;
  }

  /**
   * Claims a queued call for the outbound consumer `owner`: the idempotency guard of the dial (a
   * redelivered job finds it claimed). A claim given back ({@link releaseClaim},
   * {@link requeueUndialled}) can be taken again. With `job` the claim records the queue message's
   * id, and that same message, delivered again, takes over a claim it made before `staleBefore` on a
   * call still undialled: a job comes back only when the dial that received it stopped extending it
   * (its process died), and a concurrent duplicate of the message finds a fresh claim. The call as
   * claimed, or undefined (claimed already, past queued, or gone).
   */
  async claimQueued(
    businessId: number,
    callId: number,
    owner: string,
    at: string,
    job?: { id: string; staleBefore: string },
  ): Promise<CallRecord | undefined> {
    const takeOver = ' OR (claim_job = :job AND claimed_at <= :stale AND attribute_not_exists(carrier_call_sid))';
    const { written, call } = await transition(
      this.db,
      businessId,
      callId,
      { claimed_by: owner, claimed_at: at, claim_job: job?.id ?? null, updated_at: at },
      {
        expression: `#status = :queued AND (attribute_not_exists(claimed_by) OR attribute_type(claimed_by, :null)${job ? takeOver : ''})`,
        names: STATUS,
        values: { ':queued': 'queued', ':null': 'NULL', ...(job && { ':job': job.id, ':stale': job.staleBefore }) },
      },
    );
    return written ? call : undefined;
  }

  /**
   * Gives back `owner`'s claim (a call deferred at the concurrency cap). `claimed_by` becomes null,
   * which every reader treats as unclaimed. False when another owner holds the claim.
   */
  async releaseClaim(businessId: number, callId: number, owner: string, at: string): Promise<boolean> {
    const set = { claimed_by: null, claimed_at: null, updated_at: at };
    return (await transition(this.db, businessId, callId, set, { expression: 'claimed_by = :owner', values: { ':owner': owner } })).written;
  }

  /**
   * A claimed call whose dial failed before the carrier placed it goes back to waiting: its claim,
   * slot and minutes reservation returned in one transaction ({@link requeueUndialled}). True while
   * it still needs dialling (send its job again); false when it has ended, was dialled or is gone.
   */
  async requeueUndialled(businessId: number, callId: number, requeue: UndialledRequeue): Promise<boolean> {
    return requeueUndialled(this.db, businessId, callId, requeue);
  }

  /** Records the carrier's answer to our dial: its call sid and the call's time limit. False when the call is gone. */
  async recordDialled(
    businessId: number,
    callId: number,
    dialled: { carrierCallSid: string; timeLimitS: number; at: string },
  ): Promise<boolean> {
    const set = { carrier_call_sid: dialled.carrierCallSid, time_limit_s: dialled.timeLimitS, updated_at: dialled.at };
    return (await transition(this.db, businessId, callId, set)).written;
  }

  /**
   * The media session's sign of life (every 30 s): `heartbeat_at` only, never `updated_at` (the
   * carrier callbacks own it). False, writing nothing, once the call has ended or is gone.
   */
  async heartbeat(businessId: number, callId: number, at: string): Promise<boolean> {
    return (await transition(this.db, businessId, callId, { heartbeat_at: at }, NOT_ENDED)).written;
  }

  /** Records the carrier's `completed` on a call a live session still owns. False once it has ended, or is gone. */
  async recordCarrierCompleted(businessId: number, callId: number, at: string): Promise<boolean> {
    return (await transition(this.db, businessId, callId, { carrier_completed_at: at }, NOT_ENDED)).written;
  }

  /** Records the carrier's answering-machine verdict. False when there is no such call. */
  async recordAnsweredBy(businessId: number, callId: number, answeredBy: string): Promise<boolean> {
    return (await transition(this.db, businessId, callId, { answered_by: answeredBy })).written;
  }

  /**
   * Attaches a media stream to the call in one conditional write, and returns the call as written:
   * sets `media_started_at` and the first `heartbeat_at` to `at`, and the carrier's call sid. Writes
   * nothing and says why for a call that does not exist, has ended, was placed as another carrier
   * call (a replayed stream token), or already has a stream: attaching is a one-time claim, so a
   * second stream with the same token and call sid never hears or speaks on a live call. This
   * replaces a read before the write: the session learns the call's state from the write itself,
   * one DynamoDB round trip before the greeting.
   */
  async attachStream(businessId: number, callId: number, callSid: string, at: string): Promise<CallRecord | StreamRefusal> {
    const { written, call } = await transition(
      this.db,
      businessId,
      callId,
      { media_started_at: at, heartbeat_at: at, carrier_call_sid: callSid },
      {
        expression:
          '#status <> :ended AND attribute_not_exists(media_started_at) AND (attribute_not_exists(carrier_call_sid) OR carrier_call_sid = :sid)',
        names: STATUS,
        values: { ':ended': 'ended', ':sid': callSid },
      },
    );
    if (written) return call;
    if (!call) return 'unknown_call';
    if (call.status === 'ended') return 'already_ended';
    return call.carrier_call_sid === callSid ? 'already_attached' : 'wrong_call';
  }

  /**
   * Ends the call and stores its detail (transcript, metrics, recording key) in one transaction,
   * so an ending never lands without what the call said. The write holds only while the call has
   * not ended and still has the slot and reservation the caller saw (`seen`): the steps that follow
   * (give the slot back, settle the minutes) act on exactly that. It also sets `finish_pending`,
   * which {@link markEndingFinished} clears once every step has run. `lost` (with the call as it
   * now stands, from the failed condition: no read) when the call ended meanwhile, or its slot or
   * reservation changed.
   */
  async endCall(
    businessId: number,
    callId: number,
    fields: EndingFields,
    detail: CallDetailRecord,
    seen: EndingPrecondition,
  ): Promise<'ended' | { lost: CallRecord | undefined }> {
    const update = callUpdate(
      this.db,
      businessId,
      callId,
      { ...fields, status: 'ended', finish_pending: true },
      {
        expression: [
          '#status <> :ended',
          seen.slotHeld ? 'slot_held = :true' : '(attribute_not_exists(slot_held) OR slot_held <> :true)',
          seen.reservedMinutes === undefined ? 'attribute_not_exists(reserved_minutes)' : 'reserved_minutes = :reserved',
        ].join(' AND '),
        names: STATUS,
        values: { ':ended': 'ended', ':true': true, ...(seen.reservedMinutes !== undefined && { ':reserved': seen.reservedMinutes }) },
      },
    );
    const detailItem = {
      Put: { TableName: this.db.tableName, Item: { ...keys.callDetail(businessId, callId), entity: 'call_detail', ...detail } },
    };
    try {
      await this.db.doc.send(
        new TransactWriteCommand({
          TransactItems: [{ Update: { ...update, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } }, detailItem],
        }),
      );
      return 'ended';
    } catch (error) {
      const lost = cancelledTransactionItem(error, 0);
      if (!lost) throw error;
      return { lost: lost.item && fromItem<CallRecord>(lost.item) };
    }
  }

  /**
   * Clears `finish_pending` once every step after an ending has run, and takes the call out of the
   * open-calls index: nothing is left to sweep. False when the call has not ended, or is gone.
   */
  async markEndingFinished(businessId: number, callId: number): Promise<boolean> {
    return (await transition(this.db, businessId, callId, { finish_pending: false }, statusIn('ended'), { closeIndex: true })).written;
  }

  /** How many of the business's calls are open in `status` (GSI3; e.g. queued calls for GET /usage). */
  async countOpenCalls(businessId: number, status: CallStatus): Promise<number> {
    return countOpenCalls(this.db, businessId, status);
  }

  /** Every open call, at most `max` (the sweeper): reads grow with the calls open now, not with history. */
  async listOpenCalls(max: number): Promise<OpenCalls> {
    return listOpenCalls(this.db, max);
  }

  /** Counts an analysis run before it calls the model. False when the call is gone. */
  async recordAnalysisAttempt(businessId: number, callId: number, attempt: number): Promise<boolean> {
    return (await transition(this.db, businessId, callId, { analysis_attempts: attempt })).written;
  }

  /**
   * Stores the analysis once, with the id `call.completed` is published with: guarded by
   * `analysis_completed_at`, so a concurrent or repeated run never overwrites a finished analysis.
   * Refused with the call as it stands (its `completed_event_id`, for a re-publish with the same id).
   */
  async completeAnalysis(
    businessId: number,
    callId: number,
    fields: AnalysisFields,
    completion: { at: string; eventId: string },
  ): Promise<Transition> {
    const set = { ...fields, analysis_completed_at: completion.at, completed_event_id: completion.eventId, updated_at: completion.at };
    return transition(this.db, businessId, callId, set, { expression: 'attribute_not_exists(analysis_completed_at)' });
  }

  /** Replaces the call's detail item (transcript, metrics, recording key). */
  async putCallDetail(businessId: number, callId: number, detail: CallDetailRecord): Promise<void> {
    await this.db.doc.send(
      new PutCommand({
        TableName: this.db.tableName,
        Item: { ...keys.callDetail(businessId, callId), entity: 'call_detail', ...detail },
      }),
    );
  }
}
