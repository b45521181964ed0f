import type { BusinessRepository } from '../../../shared/db/business-repository';
import type { CallRecord, CallRepository } from '../../../shared/db/call-repository';
import type { CatalogRepository } from '../../../shared/db/catalog-repository';
import type { IdAllocator } from '../../../shared/db/ids';
import type { CallLifecycle } from '../../../shared/services/call-lifecycle';
import { initialCallRecord } from '../../../shared/services/call-views';

export interface InboundCallDeps {
  catalog: CatalogRepository;
  businesses: BusinessRepository;
  calls: CallRepository;
  ids: IdAllocator;
  lifecycle: CallLifecycle;
  now: () => Date;
}

/** What the voice webhook should answer. */
export type InboundDecision =
  | { kind: 'connect'; call: CallRecord }
  | { kind: 'refuse'; reason: 'unknown_number' | 'no_assistant' | 'no_minutes'; call?: CallRecord };

/**
 * An inbound call reached one of our numbers: find the owning business (the global number lookup),
 * its assistant (the number's, else the business default), and record the call. A business without
 * minutes gets a short apology and the call ends `failed`.
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
  if (business.minutes_balance - business.minutes_reserved <= 0) {
    await deps.lifecycle.end(business.id, call.id, { endedReason: 'failed' });
    return { kind: 'refuse', reason: 'no_minutes', call };
  }
  await deps.lifecycle.markAnswered(business.id, call.id);
  return { kind: 'connect', call };
}
