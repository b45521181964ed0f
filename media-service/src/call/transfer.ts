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
  let marked = false;
  try {
    // Stored before the redirect: the carrier may stop the stream (and the call be recorded) before it answers.
    await d.lifecycle.markTransferred(call.business_id, call.id, transferNumber);
    marked = true;
    await d.telephony.transfer(d.callSid, transferNumber, ourNumber);
    timers.set('transfer', TRANSFERRED_END_MS, () => d.finish('transferred'));
    return true;
  } catch (error) {
    d.log.error('call.transfer.failed', { call_id: call.id, error: String(error) });
    // The carrier refused (a web call has none): the record must not say the call was transferred.
    if (marked)
      await d.lifecycle
        .transferFailed(call.business_id, call.id, transferNumber)
        .catch((undo: unknown) => d.log.error('call.transfer.undo_failed', { call_id: call.id, error: String(undo) }));
    return false;
  }
}
