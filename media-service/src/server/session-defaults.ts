import type { CallerMemoryRepository } from '../../../shared/db/caller-memory-repository';
import type { CallRepository } from '../../../shared/db/call-repository';
import { memoryContext } from '../../../shared/domain/memory-prompt';
import { writeHeartbeat } from '../calls/heartbeat';
import type { CallSessionDeps, SessionTimers } from '../call/session-types';

/** Node's timers as the session sees them. */
export const realTimers: SessionTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * The session dependencies every composition (the media runtime, the test stack, the benchmark)
 * builds the same way: memory recall, heartbeats and end requests from the table, the monotonic clock, real timers.
 */
export function tableBackedSessionDeps(
  calls: CallRepository,
  memory: CallerMemoryRepository,
): Pick<CallSessionDeps, 'recallMemory' | 'heartbeat' | 'endRequested' | 'now' | 'timers'> {
  return {
    recallMemory: async (businessId, callerNumber) => memoryContext(await memory.recall(businessId, callerNumber)),
    heartbeat: async (businessId, callId) => void (await writeHeartbeat(calls, businessId, callId, new Date())),
    endRequested: (businessId, callId) => calls.endRequested(businessId, callId),
    now: () => performance.now(),
    timers: realTimers,
  };
}
