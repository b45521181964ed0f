import type { AssistantRepository } from '../../../shared/db/assistant-repository';
import type { CallRecord, CallRepository } from '../../../shared/db/call-repository';
import type { CallSlotsRepository } from '../../../shared/db/call-slots-repository';
import type { MinutesRepository } from '../../../shared/db/minutes-repository';
import { defaultAssistantConfig, type AssistantConfig } from '../../../shared/domain/assistant-config';
import { ENDING_RETRY, jitteredPause, retryTransient } from '../../../shared/db/transient';
import { ProviderError } from '../../../shared/errors';
import type { CallLifecycle } from '../../../shared/services/call-lifecycle';
import { PlaceCallError, type Telephony } from '../ports/telephony';
import { signStreamToken } from '../telephony/stream-token';
import type { Logger } from '../../../shared/log';

/** Seconds the carrier's hard limit leaves after ours, for the end-call message to play. */
export const CARRIER_GRACE_S = 15;

/**
 * Times the carrier may refuse to queue a call (429, unreachable) before it ends `failed`: with the
 * consumer's waits between them (5 s doubling, jittered) the last try comes about 40–75 s after
 * the first.
 */
export const MAX_CARRIER_ATTEMPTS = 5;

/** What the dialler needs (the repositories' methods it calls, so tests can put a failure in front of one). */
export interface DialOutboundDeps {
  telephony: Telephony;
  calls: Pick<CallRepository, 'recordDialled' | 'requeueUndialled'>;
  assistants: Pick<AssistantRepository, 'findAssistant'>;
  minutes: Pick<MinutesRepository, 'reserve'>;
  /** The plan's concurrency cap; without it calls are dialled uncapped (tests and benches that skip the cap). */
  slots?: Pick<CallSlotsRepository, 'admit'>;
  lifecycle: Pick<CallLifecycle, 'end'>;
  publicBaseUrl: string;
  streamTokenSecret: string;
  now: () => Date;
  log: Logger;
  /** Ring time before no-answer (seconds). */
  ringTimeoutS?: number;
}

/**
 * What became of a claimed call: placed with the carrier; left queued at the concurrency cap (the
 * claim is still held, for the consumer to give back); ended; or put back to waiting, claim, slot
 * and minutes returned, after a failure that placed nothing (`retry`: the consumer sends its job
 * again later).
 */
export type DialResult = 'dialled' | 'deferred' | 'ended' | 'retry';

/** Why a dial stopped before the carrier placed anything. */
type Undialled = { by: 'us'; error: unknown } | { by: 'carrier'; error: PlaceCallError };

/**
 * Dials a claimed outbound call: takes one of the plan's concurrent-call slots and reserves its
 * possible length from the plan (up to `max_duration_s`, capped by what is left), in one write (at
 * the cap the call stays `queued` and the result is `deferred`, for the consumer to retry; nothing
 * left ends the call `failed`), asks the carrier to call with a stream back to us and the call's
 * signed token, and stores the carrier's call sid.
 *
 * Failures never leave the call stranded with its claim (docs/decisions.md "Outbound dial failures"):
 * - before the carrier is asked (the assistant read, the admission), or when the carrier certainly
 *   placed nothing (`placed: 'no'`: a 429, a connection refused): the claim, slot and minutes go
 *   back in one write and the result is `retry`; the carrier's refusals count, and the
 *   {@link MAX_CARRIER_ATTEMPTS}th ends the call `failed`;
 * - a refusal (4xx): the call ends `failed`;
 * - a failure that may have placed the call (a 5xx, a timeout): the call ends `error` at once,
 *   never dialled twice (the carrier's API has no idempotency key);
 * - a call handed over still holding an admission was admitted by a dial that stopped (its task
 *   died) after which the carrier may have been asked: it ends `error` too.
 */
export function dialOutbound(deps: DialOutboundDeps) {
  const pause = jitteredPause(ENDING_RETRY);
  const retrying = <T>(step: () => Promise<T>) => retryTransient(step, ENDING_RETRY.tries, pause);

  /** Ends the call (slot and minutes given back by the ending) and says why in the log. */
  async function end(call: CallRecord, reason: 'failed' | 'error', event: string, fields: Record<string, unknown>): Promise<'ended'> {
    deps.log.warn(event, { business_id: call.business_id, call_id: call.id, ended_reason: reason, ...fields });
    await deps.lifecycle.end(call.business_id, call.id, { endedReason: reason });
    return 'ended';
  }

  /** Nothing was placed: everything the claim took goes back and the job comes again, or, at the limit, the call ends. */
  async function undialled(call: CallRecord, failure: Undialled): Promise<DialResult> {
    const carrier = failure.by === 'carrier';
    const failures = (call.dial_failures ?? 0) + (carrier ? 1 : 0);
    if (carrier && failures >= MAX_CARRIER_ATTEMPTS) {
      return end(call, 'failed', 'outbound.dial_gave_up', { attempts: failures, error: failure.error });
    }
    const requeue = { owner: call.claimed_by!, at: deps.now().toISOString(), countFailure: carrier };
    const waiting = await retrying(() => deps.calls.requeueUndialled(call.business_id, call.id, requeue));
    deps.log.warn('outbound.dial_retry', {
      business_id: call.business_id,
      call_id: call.id,
      by: failure.by,
      failures,
      error: failure.error,
    });
    return waiting ? 'retry' : 'ended';
  }

  /** The carrier's failure decides: dial again, refused, or maybe placed. */
  function carrierFailed(call: CallRecord, error: unknown): Promise<DialResult> {
    if (error instanceof ProviderError && !error.retryable) return end(call, 'failed', 'outbound.carrier_refused', { error });
    if (error instanceof PlaceCallError && error.placed === 'no') return undialled(call, { by: 'carrier', error });
    return end(call, 'error', 'outbound.dial_ambiguous', { error });
  }

  /** The slot and minutes, in one write (or the minutes alone, uncapped): the minutes reserved, or why not. */
  async function admit(call: CallRecord, config: AssistantConfig): Promise<number | 'deferred'> {
    const wanted = Math.ceil(config.advanced.max_duration_s / 60);
    if (!deps.slots) return deps.minutes.reserve(call.business_id, call.id, wanted);
    const admission = await deps.slots.admit(call.business_id, call.id, wanted);
    if (admission.kind === 'at_capacity' || admission.kind === 'refused') return 'deferred';
    return admission.kind === 'admitted' ? admission.reservedMinutes : 0;
  }

  return async function dial(call: CallRecord): Promise<DialResult> {
    // The claim is what a failed dial gives back, so an unclaimed call could not be retried safely.
    if (!call.claimed_by) throw new Error(`Call ${call.id} must be claimed (CallRepository.claimQueued) before it is dialled.`);
    if (holdsAdmission(call)) return end(call, 'error', 'outbound.dial_interrupted', { reserved_minutes: call.reserved_minutes });
    let config: AssistantConfig;
    let reserved: number | 'deferred';
    try {
      config = (await deps.assistants.findAssistant(call.business_id, call.assistant_id))?.config ?? defaultAssistantConfig();
      reserved = await admit(call, config);
    } catch (error) {
      // The admission may have landed or not: the give-back returns whatever the call holds.
      return undialled(call, { by: 'us', error });
    }
    if (reserved === 'deferred') return 'deferred';
    if (reserved <= 0) {
      await deps.lifecycle.end(call.business_id, call.id, { endedReason: 'failed' });
      return 'ended';
    }
    // The engine ends the call itself at `limitS` (saying end_call_message); the carrier's TimeLimit is the backstop.
    const limitS = Math.min(config.advanced.max_duration_s, reserved * 60);
    let placed: { callSid: string };
    try {
      placed = await deps.telephony.placeCall(placeCallRequest(deps, call, config, limitS));
    } catch (error) {
      return carrierFailed(call, error);
    }
    // The carrier is calling: a throttled write of its sid is retried, never taken for a refusal.
    const dialled = { carrierCallSid: placed.callSid, timeLimitS: limitS, at: deps.now().toISOString() };
    if (await retrying(() => deps.calls.recordDialled(call.business_id, call.id, dialled))) return 'dialled';
    deps.log.warn(`call ${call.id} vanished while its carrier call ${placed.callSid} was placed`);
    return 'ended';
  };
}

/**
 * A call that reaches the dialler holding a slot or minutes was admitted by a dial that never
 * finished: every path that leaves a call queued without dialling gives them back first.
 */
function holdsAdmission(call: CallRecord): boolean {
  return (call.slot_held === true && call.slot_released !== true) || (call.reserved_minutes !== undefined && call.settled !== true);
}

/** What the carrier is asked: the call, a stream back to us with the call's signed token, and the callbacks. */
function placeCallRequest(deps: DialOutboundDeps, call: CallRecord, config: AssistantConfig, limitS: number) {
  const base = deps.publicBaseUrl.replace(/\/$/, '');
  const token = signStreamToken(deps.streamTokenSecret, {
    callId: call.id,
    businessId: call.business_id,
    expiresAt: deps.now().getTime() + 10 * 60_000,
  });
  return {
    to: call.to_number,
    from: call.from_number,
    streamUrl: `${base.replace(/^http/, 'ws')}/twilio/media`,
    parameters: { call_id: String(call.id), token },
    statusCallbackUrl: `${base}/twilio/status/${call.business_id}/${call.id}`,
    machineDetection: config.advanced.voicemail_detection,
    amdCallbackUrl: `${base}/twilio/amd/${call.business_id}/${call.id}`,
    timeoutS: deps.ringTimeoutS ?? 30,
    timeLimitS: limitS + CARRIER_GRACE_S,
  };
}
