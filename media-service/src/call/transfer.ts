import type { ConversationBaseDeps } from './session-types';
import type { TimerSet } from './timer-set';

/** The carrier usually ends our leg at once on a transfer; if it does not, end the session anyway after this. */
const TRANSFERRED_END_MS = 10_000;

/**
 * The `transfer` tool: records the transfer, redirects the call to `transferNumber` from our own
 * number, and ends the session `transferred` after a grace period. Returns false (logged) when the
 * transfer failed; the conversation then tells the caller and carries on.
 */
export async function transferCall(d: ConversationBaseDeps, timers: TimerSet): Promise<boolean> {
  const { call, transferNumber } = d.context;
  const ourNumber = call.direction === 'outbound' ? call.from_number : call.to_number;
  try {
    await d.lifecycle.markTransferred(call.business_id, call.id, transferNumber);
    await d.telephony.transfer(d.callSid, transferNumber, ourNumber);
    timers.set('transfer', TRANSFERRED_END_MS, () => d.finish('transferred'));
    return true;
  } catch (error) {
    d.log.error('call.transfer.failed', { call_id: call.id, error: String(error) });
    return false;
  }
}
