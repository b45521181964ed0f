import type { SessionHandle } from '../../media-service/src/call/session-types';
import type { SessionRegistry } from '../../media-service/src/server/session-registry';

/**
 * A call session with no media that holds a seat on a task until `end()`: the admission cap counts
 * the registry's sessions, so tests fill a task without running real calls.
 */
export function holdSeat(registry: SessionRegistry, callId: number): { end(): void } {
  let end!: () => void;
  const done = new Promise<void>((resolve) => (end = resolve));
  const handle: SessionHandle = { callId, businessId: 1, onAmd: () => undefined, stop: () => end(), done };
  registry.add(handle);
  return { end };
}
