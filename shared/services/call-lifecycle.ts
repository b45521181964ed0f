import { defaultAssistantConfig, type AssistantConfig } from '../domain/assistant-config';
import type { CallMetrics, TranscriptEntry } from '../domain/call';
import { durationSeconds, expiryFor } from '../domain/carrier-status';
import { outcomeForEndedReason } from '../domain/outcome';
import { redactDeep } from '../domain/redact';
import type { AssistantRepository } from '../db/assistant-repository';
import type { CallRecord, CallRepository } from '../db/call-repository';
import type { CallSlotsRepository } from '../db/call-slots-repository';
import type { MinutesRepository } from '../db/minutes-repository';
import type { CallEvent } from '../events/catalog';
import type { EventBus } from '../events/event-bus';
import { isConditionFailure } from '../db/conditions';

export interface CallLifecycleDeps {
  calls: CallRepository;
  assistants: AssistantRepository;
  minutes: MinutesRepository;
  events: EventBus;
  now: () => Date;
  newEventId: () => string;
  /** The concurrency cap: an ending gives the call's slot back (optional: without it no slot is freed). */
  slots?: CallSlotsRepository;
  /** Called once per call that this process ended (metrics: e.g. calls ended with `error`). */
  onEnded?: (call: CallRecord) => void;
}

/** What the engine knows when a call ends. */
export interface CallEnding {
  endedReason: NonNullable<CallRecord['ended_reason']>;
  transcript?: TranscriptEntry[];
  metrics?: CallMetrics | Record<string, never>;
  recordingKey?: string | null;
  /**
   * The assistant config the call ran with, when the caller holds it (the media session does):
   * the ending then follows it (redaction, HIPAA, `keep_days`) and the assistant is not read again.
   */
  config?: AssistantConfig;
  /**
   * The call as the caller last saw it from a write (the media session: attaching its stream, or
   * marking the call answered), when it holds that: the ending then does not read the call again.
   * It must come from a write (its result, or the item a failed condition returned) made once the
   * call was answered, so that it carries `started_at`.
   */
  call?: CallRecord;
  /**
   * When the call really ended, if that was before now: the sweeper ends a call whose media task
   * died at its last heartbeat, so it is billed and timed to its last sign of life, not to the sweep.
   * Never before the call was answered.
   */
  endedAt?: string;
}

const holdsSlot = (call: CallRecord) => call.slot_held === true && call.slot_released !== true;

const notEnded = { expression: '#status <> :ended', names: { '#status': 'status' }, values: { ':ended': 'ended' } };

/**
 * The call record's state changes, shared by the call engine and the carrier callbacks: ringing,
 * answered (starts the clock), ended. Ending is idempotent (the first reason wins), applies the
 * assistant's privacy settings (HIPAA: no transcript or recording stored; `redact`), sets the
 * `keep_days` expiry on every item of the call, charges the minutes once, frees the call's
 * concurrency slot once and publishes the events.
 */
export class CallLifecycle {
  constructor(private readonly deps: CallLifecycleDeps) {}

  async markRinging(businessId: number, callId: number): Promise<void> {
    await this.guarded(() =>
      this.deps.calls.updateCall(
        businessId,
        callId,
        { status: 'ringing', updated_at: this.deps.now().toISOString() },
        {
          expression: '#status = :queued',
          names: { '#status': 'status' },
          values: { ':queued': 'queued' },
        },
      ),
    );
  }

  /**
   * The call connected: `in_progress`, `started_at` set once, and `call.started` published. Returns
   * the call as it now stands either way (answered by this write, or already past ringing when
   * another party marked it first: the failed write brings the item back, so no read); undefined
   * when there is no such call.
   */
  async markAnswered(businessId: number, callId: number): Promise<CallRecord | undefined> {
    const at = this.deps.now().toISOString();
    const { written, call } = await this.deps.calls.updateCallIf(
      businessId,
      callId,
      { status: 'in_progress', started_at: at, updated_at: at },
      {
        expression: '#status IN (:queued, :ringing)',
        names: { '#status': 'status' },
        values: { ':queued': 'queued', ':ringing': 'ringing' },
      },
    );
    if (written) await this.publish('call.started', call);
    return call;
  }

  /**
   * The assistant handed the caller to a person: `transferred_to` is stored and `call.transferred`
   * published at once; the call ends (`transferred`) when the carrier stops our media stream.
   */
  async markTransferred(businessId: number, callId: number, toNumber: string): Promise<void> {
    const at = this.deps.now().toISOString();
    const updated = await this.guarded(() =>
      this.deps.calls.updateCall(
        businessId,
        callId,
        { transferred_to: toNumber, transferred_at: at, updated_at: at },
        {
          expression: '#status = :live',
          names: { '#status': 'status' },
          values: { ':live': 'in_progress' },
        },
      ),
    );
    if (updated) await this.publish('call.transferred', updated);
  }

  /**
   * Ends the call once; returns false when it had already ended. The write is conditional on the
   * call not having ended, so an ending that starts from the caller's own view (`ending.call`)
   * cannot end a call twice either.
   */
  async end(businessId: number, callId: number, ending: CallEnding): Promise<boolean> {
    const call = ending.call ?? (await this.deps.calls.getCallRecord(businessId, callId));
    if (!call || call.status === 'ended') {
      // An earlier ending that stopped before giving the slot back: give it back now (once).
      if (call && holdsSlot(call)) await this.deps.slots?.release(businessId, callId);
      return false;
    }
    const config = ending.config ?? (await this.configFor(businessId, call.assistant_id));
    const now = this.deps.now().toISOString();
    const endedAt = lastSignOfLife(ending.endedAt, call.started_at, now) ?? now;
    const expiresAt = expiryFor(endedAt, config.advanced.keep_days);
    const duration = durationSeconds(call.started_at, endedAt);
    const updated = await this.guarded(() =>
      this.deps.calls.updateCall(
        businessId,
        callId,
        {
          status: 'ended',
          ended_at: endedAt,
          ended_reason: ending.endedReason,
          duration_s: duration,
          outcome: outcomeForEndedReason(ending.endedReason),
          updated_at: now,
          ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
        },
        notEnded,
      ),
    );
    if (!updated) return false;
    // The ended record is read back from the write: a slot taken before it is seen, none can be taken after.
    if (holdsSlot(updated)) await this.deps.slots?.release(businessId, callId);
    const hipaa = config.advanced.hipaa;
    await this.deps.calls.putCallDetail(businessId, callId, {
      transcript: hipaa ? [] : redactDeep(ending.transcript ?? [], config.advanced.redact),
      metrics: ending.metrics ?? {},
      recording_key: hipaa ? null : (ending.recordingKey ?? null),
      ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
    });
    await this.deps.minutes.settle(businessId, callId, duration, { reserved_minutes: updated.reserved_minutes, settled: updated.settled });
    await this.publish('call.ended', updated);
    this.deps.onEnded?.(updated);
    return true;
  }

  private async configFor(businessId: number, assistantId: number): Promise<AssistantConfig> {
    return (await this.deps.assistants.findAssistant(businessId, assistantId))?.config ?? defaultAssistantConfig();
  }

  private async publish(type: CallEvent['type'], call: CallRecord): Promise<void> {
    await this.deps.events.publish([
      {
        type,
        detail: {
          event_id: this.deps.newEventId(),
          business_id: call.business_id,
          call_id: call.id,
          assistant_id: call.assistant_id,
          occurred_at: this.deps.now().toISOString(),
        },
      },
    ]);
  }

  /** Runs a conditional update; a lost condition (already past that state) is not an error. */
  private async guarded(update: () => Promise<CallRecord>): Promise<CallRecord | undefined> {
    try {
      return await update();
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }
}

/** `endedAt` clamped between the answer and now (an ending can precede neither), or undefined when unusable. */
function lastSignOfLife(endedAt: string | undefined, startedAt: string | null | undefined, now: string): string | undefined {
  if (endedAt === undefined || Number.isNaN(Date.parse(endedAt))) return undefined;
  if (Date.parse(endedAt) > Date.parse(now)) return now;
  if (typeof startedAt === 'string' && Date.parse(endedAt) < Date.parse(startedAt)) return startedAt;
  return endedAt;
}
