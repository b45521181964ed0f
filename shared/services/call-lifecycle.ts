import type { CallWorkflow } from '../domain/workflow';
import { defaultAssistantConfig, type AssistantConfig } from '../domain/assistant-config';
import type { TranscriptEntry } from '../domain/call';
import { metricsOfUnconnectedCall, type CallMetrics } from '../domain/call-metrics';
import { durationSeconds, expiryFor } from '../domain/carrier-status';
import { transcriptForAnalysisEvent, type AnalysisTranscriptLine } from '../domain/analysis-transcript';
import { outcomeForEndedReason } from '../domain/outcome';
import { redactDeep } from '../domain/redact';
import type { ToolAction } from '../domain/tool-action';
import type { AssistantRepository } from '../db/assistant-repository';
import type { CallRecord, CallRepository, EndingFields } from '../db/call-repository';
import type { CallSlotsRepository } from '../db/call-slots-repository';
import type { MinutesRepository } from '../db/minutes-repository';
import { ENDING_RETRY, jitteredPause, retryTransient, type RetryPause } from '../db/transient';
import type { CallEvent } from '../events/catalog';
import type { EventBus } from '../events/event-bus';
import { WebhookSubscriptions } from './webhook-subscriptions';

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
  /**
   * The pause before retrying a step that failed transiently (throttled, a server error, a
   * transaction conflict); default full jitter, 50 ms doubling to 2 s ({@link ENDING_RETRY}).
   */
  retryPause?: RetryPause;
}

/** What the engine knows when a call ends. */
export interface CallEnding {
  endedReason: NonNullable<CallRecord['ended_reason']>;
  transcript?: TranscriptEntry[];
  metrics?: CallMetrics | Record<string, never>;
  recordingKey?: string | null;
  /** The tool calls the assistant made (the call's `actions`). */
  actions?: ToolAction[];
  /** The call's run of its workflow, when the assistant has one. */
  workflow?: CallWorkflow | undefined;
  /** Whether the caller heard each notice due in full (the media session; null for a notice not due). */
  notices?: { recording_notice_heard: boolean | null; ai_disclosure_heard: boolean | null };
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

/** What an ending's conditional write did: the ended call, or the call as it stood when the write lost. */
type Written = { ended?: CallRecord; current?: CallRecord };

const holdsSlot = (call: CallRecord) => call.slot_held === true && call.slot_released !== true;

/**
 * The call record's state changes, shared by the call engine and the carrier callbacks: ringing,
 * answered (starts the clock), ended. Ending is idempotent (the first reason wins), applies the
 * assistant's privacy settings (HIPAA: no transcript or recording stored; `redact`), sets the
 * `keep_days` expiry on every item of the call, charges the minutes once, frees the call's
 * concurrency slot once and publishes the events.
 */
export class CallLifecycle {
  /** Steps retried after a transient failure (observable by tests, benches and metrics). */
  readonly stats = { transientRetries: 0 };
  /** Whether call.started / call.transferred have a webhook subscriber (one cached read per assistant a minute). */
  readonly #subscriptions: WebhookSubscriptions;
  readonly #pause: RetryPause;

  constructor(private readonly deps: CallLifecycleDeps) {
    this.#subscriptions = new WebhookSubscriptions({ assistants: deps.assistants, nowMs: () => deps.now().getTime() });
    this.#pause = deps.retryPause ?? jitteredPause(ENDING_RETRY);
  }

  /** Queued → ringing; a call already past queued (or gone) is left as it is. */
  async markRinging(businessId: number, callId: number): Promise<void> {
    const at = this.deps.now().toISOString();
    await this.retrying(() => this.deps.calls.markRinging(businessId, callId, at));
  }

  /**
   * The call connected: `in_progress`, `started_at` set once, and `call.started` published. Returns
   * the call as it now stands either way (answered by this write, or already past ringing when
   * another party marked it first: the failed write brings the item back, so no read); undefined
   * when there is no such call.
   */
  async markAnswered(businessId: number, callId: number): Promise<CallRecord | undefined> {
    const at = this.deps.now().toISOString();
    let failedOnce = false;
    const { written, call } = await this.retrying(
      () => this.deps.calls.markAnswered(businessId, callId, at),
      () => (failedOnce = true),
    );
    // A failed attempt may have landed all the same (a server error after the write): its answer is ours.
    if (written || (failedOnce && call?.started_at === at)) await this.publish('call.started', call!);
    return call;
  }

  /**
   * The assistant handed the caller to a person: `transferred_to` is stored and `call.transferred`
   * published at once; the call ends (`transferred`) when the carrier stops our media stream.
   */
  async markTransferred(businessId: number, callId: number, toNumber: string): Promise<void> {
    const at = this.deps.now().toISOString();
    const updated = await this.retrying(() => this.deps.calls.recordTransfer(businessId, callId, toNumber, at));
    if (updated) await this.publish('call.transferred', updated);
  }

  /** The carrier refused the transfer: `transferred_to` is taken back, so the record never shows a transfer that did not happen. */
  async transferFailed(businessId: number, callId: number, toNumber: string): Promise<void> {
    const at = this.deps.now().toISOString();
    await this.retrying(() => this.deps.calls.clearTransfer(businessId, callId, toNumber, at));
  }

  /**
   * Ends the call once; returns false when it had already ended. The ended state and the call's
   * detail (transcript, metrics, recording) are written together, conditional on the call not
   * having ended, so the first reason wins and never lands without its transcript. The rest (the
   * slot given back, the minutes settled, `call.ended` published) is {@link finish}: each step is
   * idempotent, and if one fails the call keeps `finish_pending`, so the next ending attempt or
   * the sweeper completes it. Nothing is lost or leaked by a crash or a throttle at any step.
   *
   * A step that fails transiently (DynamoDB throttling the business item, a server error, a
   * transaction conflict past the SDK's own retries) is retried here with jittered backoff, so
   * endings landing together under load complete in this process rather than waiting for the
   * sweeper. The ending's event id is fixed up front: a retried write that finds the call ended
   * with it knows the earlier attempt landed, and finishes its own ending.
   */
  async end(businessId: number, callId: number, ending: CallEnding): Promise<boolean> {
    const eventId = this.deps.newEventId();
    let call: CallRecord | undefined = ending.call ?? (await this.retrying(() => this.deps.calls.getCallRecord(businessId, callId)));
    if (!call) return false;
    const config = ending.config ?? (await this.retrying(() => this.configFor(businessId, call!.assistant_id)));
    // HIPAA: the transcript is not stored, so the analysis gets it (redacted) from call.ended alone.
    const analysisTranscript = config.advanced.hipaa ? transcriptForAnalysisEvent(ending.transcript ?? []) : undefined;
    // Set once a write of ours failed transiently: it may have landed all the same.
    let mayHaveLanded = false;
    for (let attempt = 0; attempt < 4; attempt++) {
      if (!call) return false;
      if (call.status === 'ended' && mayHaveLanded && call.ended_event_id === eventId) {
        // Our own write landed although its request failed: finish it like any ending of ours.
        return this.finished(call, analysisTranscript);
      }
      if (call.status === 'ended') {
        // An earlier ending that stopped before giving the slot back: give it back now (once). The
        // rest of an unfinished ending is the sweeper's (it waits a minute, so it never races the
        // ending's own writer and publishes call.ended twice).
        if (holdsSlot(call)) await this.retrying(() => this.deps.slots?.release(businessId, callId) ?? Promise.resolve(false));
        return false;
      }
      const current: CallRecord = call;
      const written: Written = await this.retrying(
        () => this.writeEnding(current, ending, config, eventId),
        () => (mayHaveLanded = true),
      );
      if (written.ended) return this.finished(written.ended, analysisTranscript);
      // Ended by someone else (or by our own write whose answer was lost), or its slot or
      // reservation moved since we read it: the failed write brought the call back as it now stands (no read).
      call = written.current;
    }
    throw new Error(`Could not end call ${callId}: it kept changing.`);
  }

  /**
   * Completes an ending: gives the slot back and settles the minutes (one transaction), publishes `call.ended` (always
   * with the event id the ending stored, so a repeat is recognisable), then clears
   * `finish_pending`. Safe to run any number of times, concurrently too. `analysisTranscript` is a
   * HIPAA call's redacted transcript for the analysis, carried by `call.ended` (only the ending that
   * ran the call has it; a finish the sweeper completes publishes without it). Each step is
   * retried on a transient failure; one that still fails throws and leaves `finish_pending` for
   * the sweeper.
   */
  async finish(call: CallRecord, analysisTranscript?: AnalysisTranscriptLine[]): Promise<void> {
    const slots = this.deps.slots;
    if (call.finish_pending !== true) {
      if (holdsSlot(call) && slots) await this.retrying(() => slots.release(call.business_id, call.id));
      return;
    }
    const known = {
      slot_held: call.slot_held,
      slot_released: call.slot_released,
      reserved_minutes: call.reserved_minutes,
      settled: call.settled,
    };
    // With the cap, the slot and the minutes go back in one write on the business item. A retry
    // after a write that landed finds the call settled and does nothing.
    await this.retrying(() =>
      slots
        ? slots.giveBack(call.business_id, call.id, call.duration_s, known)
        : this.deps.minutes.settle(call.business_id, call.id, call.duration_s, known),
    );
    await this.retrying(() => this.publish('call.ended', call, call.ended_event_id, analysisTranscript));
    await this.retrying(() => this.deps.calls.markEndingFinished(call.business_id, call.id));
  }

  /** This process's ending of `call` was written: finish it and count it. */
  private async finished(call: CallRecord, analysisTranscript: AnalysisTranscriptLine[] | undefined): Promise<true> {
    await this.finish(call, analysisTranscript);
    this.deps.onEnded?.(call);
    return true;
  }

  /** `step`, retried while it fails transiently ({@link retryTransient}). */
  private retrying<T>(step: () => Promise<T>, onRetry?: () => void): Promise<T> {
    return retryTransient(step, ENDING_RETRY.tries, this.#pause, () => {
      this.stats.transientRetries++;
      onRetry?.();
    });
  }

  /** The one conditional write of an ending (state + detail): the ended call, or the call as it stands when the write lost. */
  private async writeEnding(call: CallRecord, ending: CallEnding, config: AssistantConfig, eventId: string): Promise<Written> {
    const now = this.deps.now().toISOString();
    const endedAt = lastSignOfLife(ending.endedAt, call.started_at, now) ?? now;
    const expiresAt = expiryFor(endedAt, config.advanced.keep_days);
    const fields: EndingFields = {
      ended_at: endedAt,
      ended_reason: ending.endedReason,
      duration_s: durationSeconds(call.started_at, endedAt),
      outcome: outcomeForEndedReason(ending.endedReason),
      updated_at: now,
      ended_event_id: eventId,
      ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
      ...ending.notices,
    };
    const hipaa = config.advanced.hipaa;
    const detail = {
      transcript: hipaa ? [] : redactDeep(ending.transcript ?? [], config.advanced.redact),
      // A call the engine never ran has no metrics of its own: it gets the documented empty ones.
      metrics: ending.metrics && Object.keys(ending.metrics).length > 0 ? ending.metrics : metricsOfUnconnectedCall(fields.duration_s),
      recording_key: hipaa ? null : (ending.recordingKey ?? null),
      actions: actionsToStore(ending.actions ?? [], config),
      ...(ending.workflow && { workflow: workflowToStore(ending.workflow, config) }),
      ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
    };
    const seen = { slotHeld: call.slot_held === true, reservedMinutes: call.reserved_minutes };
    const written = await this.deps.calls.endCall(call.business_id, call.id, fields, detail, seen);
    if (written === 'ended') return { ended: { ...call, ...fields, status: 'ended', finish_pending: true } };
    return written.lost ? { current: written.lost } : {};
  }

  private async configFor(businessId: number, assistantId: number): Promise<AssistantConfig> {
    return (await this.deps.assistants.findAssistant(businessId, assistantId))?.config ?? defaultAssistantConfig();
  }

  private async publish(type: CallEvent['type'], call: CallRecord, eventId?: string, transcript?: AnalysisTranscriptLine[]): Promise<void> {
    const webhook = type === 'call.ended' ? undefined : await this.#subscriptions.has(call.business_id, call.assistant_id, type);
    await this.deps.events.publish([
      {
        type,
        detail: {
          event_id: eventId ?? this.deps.newEventId(),
          business_id: call.business_id,
          call_id: call.id,
          assistant_id: call.assistant_id,
          occurred_at: this.deps.now().toISOString(),
          ...(webhook !== undefined && { webhook }),
          ...(transcript && { transcript }),
        },
      },
    ]);
  }
}

/**
 * A call's actions as stored: redacted per `advanced.redact`; under HIPAA the arguments and
 * results (names, numbers, notes) are dropped and only what ran, when and whether it worked stays.
 */
function actionsToStore(actions: ToolAction[], config: AssistantConfig): ToolAction[] {
  if (config.advanced.hipaa) return actions.map((action) => ({ ...action, arguments: {}, result: '' }));
  return redactDeep(actions, config.advanced.redact);
}

/** A call's workflow run as stored: its variables redacted per `advanced.redact`, dropped under HIPAA (the path stays). */
function workflowToStore(workflow: CallWorkflow, config: AssistantConfig): CallWorkflow {
  if (config.advanced.hipaa) return { ...workflow, variables: {} };
  return { ...workflow, variables: redactDeep(workflow.variables, config.advanced.redact) };
}

/** `endedAt` clamped between the answer and now (an ending can precede neither), or undefined when unusable. */
function lastSignOfLife(endedAt: string | undefined, startedAt: string | null | undefined, now: string): string | undefined {
  if (endedAt === undefined || Number.isNaN(Date.parse(endedAt))) return undefined;
  if (Date.parse(endedAt) > Date.parse(now)) return now;
  if (startedAt && Date.parse(endedAt) < Date.parse(startedAt)) return startedAt;
  return endedAt;
}
