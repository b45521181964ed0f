import type { SessionHandle } from '../call/session-types';

/** A one-shot timer for the drain deadline (real or fake). */
export type DrainTimer = (run: () => void, ms: number) => () => void;

const realTimer: DrainTimer = (run, ms) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

/**
 * The call sessions running in this process, by call id: the AMD callback and the status
 * callback find a live session here, `/health` and the ActiveCalls metric count them, and SIGTERM
 * drains them. A session leaves the registry by itself when its `done` settles.
 */
export class SessionRegistry {
  /** By call id: the session that claimed the call first (a later stream for it is refused). */
  readonly #byCall = new Map<number, SessionHandle>();
  /** Every running session, refused latecomers included, so draining waits for all of them. */
  readonly #sessions = new Set<SessionHandle>();
  readonly #timer: DrainTimer;
  readonly #leaveListeners = new Set<() => void>();

  constructor(options: { timer?: DrainTimer } = {}) {
    this.#timer = options.timer ?? realTimer;
  }

  /**
   * Registers a started session. A second stream for a call that already has a running session
   * never replaces it in the index: the call's store claim refuses that stream, and until it has,
   * callbacks must still reach the session that owns the call.
   */
  add(handle: SessionHandle): void {
    this.#sessions.add(handle);
    if (!this.#byCall.has(handle.callId)) this.#byCall.set(handle.callId, handle);
    void handle.done.finally(() => {
      this.#sessions.delete(handle);
      if (this.#byCall.get(handle.callId) === handle) this.#byCall.delete(handle.callId);
      for (const listener of [...this.#leaveListeners]) listener();
    });
  }

  /** Calls `listener` each time a session leaves (the task's admission waits on it); returns the unsubscribe. */
  onLeave(listener: () => void): () => void {
    this.#leaveListeners.add(listener);
    return () => void this.#leaveListeners.delete(listener);
  }

  /** The live session of a call, if this process runs it. */
  get(callId: number): SessionHandle | undefined {
    return this.#byCall.get(callId);
  }

  /** Live sessions right now. */
  get size(): number {
    return this.#sessions.size;
  }

  /**
   * Waits for every session to end by itself; whatever still runs after `deadlineMs` is stopped
   * (`canceled`: the caller hears the end message) and waited for. Never rejects.
   */
  async drain(deadlineMs: number): Promise<void> {
    if (this.#sessions.size === 0) return;
    let late = false;
    const cancel = this.#timer(() => {
      late = true;
      for (const handle of this.#sessions.values()) handle.stop('canceled');
    }, deadlineMs);
    try {
      // Sessions added meanwhile (a stream accepted just before draining began) are waited for too.
      while (this.#sessions.size > 0) {
        const running = [...this.#sessions.values()];
        if (late) for (const handle of running) handle.stop('canceled');
        await Promise.allSettled(running.map((handle) => handle.done));
      }
    } finally {
      cancel();
    }
  }
}
