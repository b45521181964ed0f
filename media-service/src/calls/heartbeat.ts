import type { CallRepository } from '../../../shared/db/call-repository';

/**
 * Marks the call as alive; the media session calls this every 30 s while it runs. One conditional
 * UpdateItem of `heartbeat_at` (never `updated_at`, which the carrier callbacks own). Returns false
 * when the call has ended (or is gone), so the session can stop: nothing is written then. The
 * sweeper ends a call whose heartbeat went stale.
 */
export async function writeHeartbeat(calls: CallRepository, businessId: number, callId: number, now: Date): Promise<boolean> {
  return calls.heartbeat(businessId, callId, now.toISOString());
}
