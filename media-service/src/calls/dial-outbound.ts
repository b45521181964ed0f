import type { AssistantRepository } from '../../../shared/db/assistant-repository';
import type { CallRecord, CallRepository } from '../../../shared/db/call-repository';
import type { CallSlotsRepository } from '../../../shared/db/call-slots-repository';
import type { MinutesRepository } from '../../../shared/db/minutes-repository';
import { defaultAssistantConfig } from '../../../shared/domain/assistant-config';
import { ENDING_RETRY, jitteredPause, retryTransient } from '../../../shared/db/transient';
import { ProviderError } from '../../../shared/errors';
import type { CallLifecycle } from '../../../shared/services/call-lifecycle';
import type { Telephony } from '../ports/telephony';
import { signStreamToken } from '../telephony/stream-token';
import type { Logger } from '../../../shared/log';

/** Seconds the carrier's hard limit leaves after ours, for the end-call message to play. */
export const CARRIER_GRACE_S = 15;

export interface DialOutboundDeps {
  telephony: Telephony;
  calls: CallRepository;
  assistants: AssistantRepository;
  minutes: MinutesRepository;
  /** The plan's concurrency cap; without it calls are dialled uncapped (tests and benches that skip the cap). */
  slots?: CallSlotsRepository;
  lifecycle: CallLifecycle;
  publicBaseUrl: string;
  streamTokenSecret: string;
  now: () => Date;
  log: Logger;
  /** Ring time before no-answer (seconds). */
  ringTimeoutS?: number;
}

/** What became of a claimed call: placed with the carrier, left queued at the concurrency cap, or ended. */
export type DialResult = 'dialled' | 'deferred' | 'ended';

/**
 * Dials a claimed outbound call: takes one of the plan's concurrent-call slots and reserves its
 * possible length from the plan (up to `max_duration_s`, capped by what is left), in one write (at
 * the cap the call stays `queued` and the result is `deferred`, for the consumer to retry; nothing
 * left ends the call `failed`), asks the carrier to call with a stream back to us and the call's signed
 * token, and stores the carrier's call sid. A carrier refusal ends the call `failed`; a retryable
 * carrier error is thrown so the job is redelivered (the slot and the reservation stay with the
 * call and are given back when it ends).
 */
export function dialOutbound(deps: DialOutboundDeps) {
  const pause = jitteredPause(ENDING_RETRY);
  return async function dial(call: CallRecord): Promise<DialResult> {
    const config = (await deps.assistants.findAssistant(call.business_id, call.assistant_id))?.config ?? defaultAssistantConfig();
    const wanted = Math.ceil(config.advanced.max_duration_s / 60);
    let reserved: number;
    if (deps.slots) {
      // One transaction on the business item takes the slot and reserves the minutes.
      const admission = await deps.slots.admit(call.business_id, call.id, wanted);
      if (admission.kind === 'at_capacity' || admission.kind === 'refused') return 'deferred';
      reserved = admission.kind === 'admitted' ? admission.reservedMinutes : 0;
    } else {
      reserved = await deps.minutes.reserve(call.business_id, call.id, wanted);
    }
    if (reserved <= 0) {
      await deps.lifecycle.end(call.business_id, call.id, { endedReason: 'failed' });
      return 'ended';
    }
    const base = deps.publicBaseUrl.replace(/\/$/, '');
    const token = signStreamToken(deps.streamTokenSecret, {
      callId: call.id,
      businessId: call.business_id,
      expiresAt: deps.now().getTime() + 10 * 60_000,
    });
    // The engine ends the call itself at `limitS` (saying end_call_message); the carrier's TimeLimit is the backstop.
    const limitS = Math.min(config.advanced.max_duration_s, reserved * 60);
    let placed: { callSid: string };
    try {
      placed = await deps.telephony.placeCall({
        to: call.to_number,
        from: call.from_number,
        streamUrl: `${base.replace(/^http/, 'ws')}/twilio/media`,
        parameters: { call_id: String(call.id), token },
        statusCallbackUrl: `${base}/twilio/status/${call.business_id}/${call.id}`,
        machineDetection: config.advanced.voicemail_detection,
        amdCallbackUrl: `${base}/twilio/amd/${call.business_id}/${call.id}`,
        timeoutS: deps.ringTimeoutS ?? 30,
        timeLimitS: limitS + CARRIER_GRACE_S,
      });
    } catch (error) {
      if (error instanceof ProviderError && error.retryable) throw error;
      deps.log.warn(`carrier refused call ${call.id}`, { error });
      await deps.lifecycle.end(call.business_id, call.id, { endedReason: 'failed' });
      return 'ended';
    }
    // The carrier is calling: a throttled write of its sid is retried, never taken for a refusal.
    const dialled = { carrierCallSid: placed.callSid, timeLimitS: limitS, at: deps.now().toISOString() };
    const recorded = await retryTransient(() => deps.calls.recordDialled(call.business_id, call.id, dialled), ENDING_RETRY.tries, pause);
    if (recorded) return 'dialled';
    deps.log.warn(`call ${call.id} vanished while its carrier call ${placed.callSid} was placed`);
    return 'ended';
  };
}
