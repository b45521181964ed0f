import type { CallerMemoryRepository } from '../../../shared/db/caller-memory-repository';
import type { CallRepository } from '../../../shared/db/call-repository';
import { memoryContext } from '../../../shared/domain/memory-prompt';
import { writeHeartbeat } from '../calls/heartbeat';
import type { CallSessionDeps, SessionTimers } from '../call/session-types';
import { EndRequestPoller } from '../call/end-requests';
import { createLogger, type Logger } from '../../../shared/log';

/** Node's timers as the session sees them. */
export const realTimers: SessionTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * POST /calls/{id}/end must end a call within about 2 s: one batched check a second for all the
 * process's calls leaves the rest for the hang-up (docs/decisions.md "Listening to a live call,
 * and ending it").
 */
export const END_CHECK_MS = 1000;

/** Node's timers, unreferenced: the end-request check never keeps a process alive. */
const unrefTimers: SessionTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * The session dependencies every composition (the media runtime, the test stack, the benchmark)
 * builds the same way: memory recall, heartbeats and end requests from the table, the monotonic clock, real timers.
 */
export function tableBackedSessionDeps(
  calls: CallRepository,
  memory: CallerMemoryRepository,
  log: Logger = createLogger({ service: 'media' }),
): Pick<CallSessionDeps, 'recallMemory' | 'heartbeat' | 'watchEndRequest' | 'now' | 'timers'> {
  const endRequests = new EndRequestPoller({
    check: (watched) => calls.endRequestedAmong(watched),
    timers: unrefTimers,
    everyMs: END_CHECK_MS,
    onError: (error) => log.warn('call.end_check.failed', { error: String(error) }),
  });
  return {
    recallMemory: async (businessId, callerNumber) => memoryContext(await memory.recall(businessId, callerNumber)),
    heartbeat: async (businessId, callId) => void (await writeHeartbeat(calls, businessId, callId, new Date())),
    watchEndRequest: (businessId, callId, onRequested) => endRequests.watch({ businessId, callId }, onRequested),
    now: () => performance.now(),
    timers: realTimers,
  };
}
