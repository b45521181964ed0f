import type { AssistantRecord, AssistantRepository } from '../../../shared/db/assistant-repository';
import type { Business, BusinessRepository } from '../../../shared/db/business-repository';
import type { CallRecord, CallRepository } from '../../../shared/db/call-repository';
import type { CallSlotsRepository } from '../../../shared/db/call-slots-repository';
import type { CatalogRepository } from '../../../shared/db/catalog-repository';
import type { IdAllocator } from '../../../shared/db/ids';
import type { MinutesRepository } from '../../../shared/db/minutes-repository';
import type { PhoneNumber } from '../../../shared/domain/phone-number';
import type { CallLifecycle } from '../../../shared/services/call-lifecycle';
import { initialCallRecord } from '../../../shared/services/call-views';

export interface InboundCallDeps {
  catalog: CatalogRepository;
  businesses: BusinessRepository;
  assistants: AssistantRepository;
  calls: CallRepository;
  ids: IdAllocator;
  minutes: MinutesRepository;
  /** The plan's concurrency cap; without it inbound calls are answered uncapped. */
  slots?: CallSlotsRepository;
  lifecycle: CallLifecycle;
  now: () => Date;
}

/** Why an inbound call is not connected. */
export type RefusalReason = 'unknown_number' | 'no_assistant' | 'no_minutes' | 'at_capacity' | 'bad_call_sid' | 'replay_of_ended_call';

/** What the voice webhook should answer. */
export type InboundDecision =
  | { kind: 'connect'; call: CallRecord }
  /** `language`: the answering assistant's, when one was found (the apology is said in it). */
  | { kind: 'refuse'; reason: RefusalReason; call?: CallRecord; language?: string };

/** Twilio CallSids are `CA` + 32 hex; a value outside this bound never becomes part of a key. */
const CALL_SID = /^[A-Za-z0-9_-]{1,64}$/;

/** How long a CallSid is remembered: far longer than the carrier retries a webhook (seconds). */
const CALL_SID_MEMORY_S = 7 * 24 * 3600;

/**
 * An inbound call reached one of our numbers: find the owning business (the global number
 * lookup) and its assistant (the number's, or the business default when the number has none or
 * its assistant was deleted), then record the call once per carrier CallSid (a replayed webhook
 * answers for the call it already made, with no new call or charge). The call then takes a
 * concurrency slot and reserves its possible length from the plan in one write, exactly as an
 * outbound call does, before the stream is accepted, with its time limit capped at what was reserved. A call
 * that cannot be taken (no minutes, at capacity) is recorded and ends `failed`, and the caller
 * hears a short apology.
 */
export async function acceptInboundCall(
  deps: InboundCallDeps,
  input: { to: string; from: string; carrierCallSid: string },
): Promise<InboundDecision> {
  if (!CALL_SID.test(input.carrierCallSid)) return { kind: 'refuse', reason: 'bad_call_sid' };
  const lookup = await deps.catalog.lookupNumber(input.to);
  if (!lookup) return { kind: 'refuse', reason: 'unknown_number' };
  const [number, business] = await Promise.all([
    deps.catalog.findPhoneNumber(lookup.business_id, lookup.phone_number_id),
    deps.businesses.getBusiness(lookup.business_id),
  ]);
  const assistant = await answeringAssistant(deps, business, number);
  if (!assistant) return { kind: 'refuse', reason: 'no_assistant' };
  const now = deps.now();
  const call: CallRecord = {
    ...initialCallRecord({
      id: await deps.ids.nextId(),
      business_id: business.id,
      assistant_id: assistant.id,
      direction: 'inbound',
      from_number: input.from,
      to_number: input.to,
      phone_number_id: lookup.phone_number_id,
      variables: {},
      now: now.toISOString(),
    }),
    carrier_call_sid: input.carrierCallSid,
  };
  const inserted = await deps.calls.insertInboundCall(call, input.carrierCallSid, Math.floor(now.getTime() / 1000) + CALL_SID_MEMORY_S);
  if (inserted !== 'inserted') return replayed(deps, business.id, inserted.existingCallId);
  const maxDurationS = assistant.config.advanced.max_duration_s;
  const wanted = Math.ceil(maxDurationS / 60);
  const language = assistant.config.language;
  if (deps.slots) {
    const admission = await deps.slots.admit(business.id, call.id, wanted, maxDurationS);
    if (admission.kind === 'at_capacity' || admission.kind === 'refused') return refuseRecorded(deps, call, 'at_capacity', language);
    if (admission.kind === 'no_minutes' || admission.reservedMinutes <= 0) return refuseRecorded(deps, call, 'no_minutes', language);
  } else if ((await deps.minutes.reserve(business.id, call.id, wanted, maxDurationS)) <= 0) {
    return refuseRecorded(deps, call, 'no_minutes', language);
  }
  const answered = await deps.lifecycle.markAnswered(business.id, call.id);
  return { kind: 'connect', call: answered ?? call };
}

/** The number's assistant if it still exists, else the business default (none: undefined). */
async function answeringAssistant(
  deps: InboundCallDeps,
  business: Business,
  number: PhoneNumber | undefined,
): Promise<AssistantRecord | undefined> {
  const assigned = number?.assistant_id ? await deps.assistants.findAssistant(business.id, number.assistant_id) : undefined;
  if (assigned) return assigned;
  return business.default_assistant_id ? deps.assistants.findAssistant(business.id, business.default_assistant_id) : undefined;
}

/** The carrier sent this CallSid before: answer for the call it made (connect again only while it is live). */
async function replayed(deps: InboundCallDeps, businessId: number, callId: number): Promise<InboundDecision> {
  const call = await deps.calls.getCallRecord(businessId, callId);
  if (!call || call.status === 'ended') return { kind: 'refuse', reason: 'replay_of_ended_call', ...(call && { call }) };
  return { kind: 'connect', call };
}

/** A recorded call we cannot take: it ends `failed` (so it shows in the business's call list). */
async function refuseRecorded(
  deps: InboundCallDeps,
  call: CallRecord,
  reason: 'no_minutes' | 'at_capacity',
  language: string,
): Promise<InboundDecision> {
  await deps.lifecycle.end(call.business_id, call.id, { endedReason: 'failed' });
  return { kind: 'refuse', reason, call, language };
}
