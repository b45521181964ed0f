import type { BusinessRepository } from '../../../shared/db/business-repository';
import type { CallRecord, CallRepository } from '../../../shared/db/call-repository';
import type { CallSlotsRepository } from '../../../shared/db/call-slots-repository';
import type { CatalogRepository } from '../../../shared/db/catalog-repository';
import type { IdAllocator } from '../../../shared/db/ids';
import type { CallLifecycle } from '../../../shared/services/call-lifecycle';
import { initialCallRecord } from '../../../shared/services/call-views';

export interface InboundCallDeps {
  catalog: CatalogRepository;
  businesses: BusinessRepository;
  calls: CallRepository;
  ids: IdAllocator;
  /** The plan's concurrency cap; without it inbound calls are answered uncapped. */
  slots?: CallSlotsRepository;
  lifecycle: CallLifecycle;
  now: () => Date;
}

/** What the voice webhook should answer. */
export type InboundDecision =
  | { kind: 'connect'; call: CallRecord }
  | { kind: 'refuse'; reason: 'unknown_number' | 'no_assistant' | 'no_minutes' | 'at_capacity'; call?: CallRecord };

/**
 * An inbound call reached one of our numbers: find the owning business (the global number lookup),
 * its assistant (the number's, else the business default), and record the call. A business without
 * minutes, or with `max_concurrent_calls` calls already live, gets a short apology and the call
 * ends `failed` (DESIGN §4).
 */
export async function acceptInboundCall(
  deps: InboundCallDeps,
  input: { to: string; from: string; carrierCallSid: string },
): Promise<InboundDecision> {
  const lookup = await deps.catalog.lookupNumber(input.to);
  if (!lookup) return { kind: 'refuse', reason: 'unknown_number' };
  const [number, business] = await Promise.all([
    deps.catalog.findPhoneNumber(lookup.business_id, lookup.phone_number_id),
    deps.businesses.getBusiness(lookup.business_id),
  ]);
  const assistantId = number?.assistant_id ?? business.default_assistant_id;
  if (!assistantId) return { kind: 'refuse', reason: 'no_assistant' };
  const now = deps.now().toISOString();
  const call: CallRecord = {
    ...initialCallRecord({
      id: await deps.ids.nextId(),
      business_id: business.id,
      assistant_id: assistantId,
      direction: 'inbound',
      from_number: input.from,
      to_number: input.to,
      phone_number_id: lookup.phone_number_id,
      variables: {},
      now,
    }),
    carrier_call_sid: input.carrierCallSid,
  };
  await deps.calls.insertCall(call);
  if (business.minutes_balance - business.minutes_reserved <= 0) return refuseRecorded(deps, call, 'no_minutes');
  if (deps.slots && !(await deps.slots.acquire(business.id, call.id))) return refuseRecorded(deps, call, 'at_capacity');
  await deps.lifecycle.markAnswered(business.id, call.id);
  return { kind: 'connect', call };
}

/** A recorded call we cannot take: it ends `failed` (so it shows in the business's call list). */
async function refuseRecorded(deps: InboundCallDeps, call: CallRecord, reason: 'no_minutes' | 'at_capacity'): Promise<InboundDecision> {
  await deps.lifecycle.end(call.business_id, call.id, { endedReason: 'failed' });
  return { kind: 'refuse', reason, call };
}
