import type { SessionRegistry } from './session-registry';

/** A cancellable one-shot timer (real `setTimeout`, or a manual one in tests). */
export type AdmissionTimer = (run: () => void, ms: number) => () => void;

const realTimer: AdmissionTimer = (run, ms) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/**
 * How long a call this task dialled counts toward its load before its stream arrives: about the
 * time a person takes to answer. Its stream may land on any task (the load balancer picks), so the
 * count is a brake on dialling, not a seat; counting the call twice for a few seconds (here and
 * as a session where its stream landed) errs toward dialling less, never more.
 */
export const DIAL_PENDING_MS = 20_000;

/** Options of {@link TaskAdmission}. */
export interface TaskAdmissionOptions {
  /** MEDIA_MAX_CALLS: calls this task carries at most. */
  maxCalls: number;
  /** The live sessions of this task. */
  registry: SessionRegistry;
  /** How long a dialled call counts as pending (default {@link DIAL_PENDING_MS}). */
  dialPendingMs?: number;
  timer?: AdmissionTimer;
}

/**
 * The task's admission cap. Its load is its live sessions plus the calls it dialled in the last
 * {@link DIAL_PENDING_MS}; at `maxCalls` the voice webhook answers 503, a media stream is refused
 * at the handshake (the carrier tries elsewhere: docs/decisions.md "Per-task admission cap") and
 * the outbound consumer stops receiving until a session ends or a pending dial lapses.
 *
 * @example
 * const admission = new TaskAdmission({ maxCalls: 60, registry });
 * if (!admission.hasRoom()) return c.body('at capacity', 503);
 */
export class TaskAdmission {
  readonly maxCalls: number;
  readonly #registry: SessionRegistry;
  readonly #timer: AdmissionTimer;
  readonly #dialPendingMs: number;
  readonly #waiters = new Set<() => void>();
  #pendingDials = 0;

  constructor(options: TaskAdmissionOptions) {
    this.maxCalls = options.maxCalls;
    this.#registry = options.registry;
    this.#timer = options.timer ?? realTimer;
    this.#dialPendingMs = options.dialPendingMs ?? DIAL_PENDING_MS;
    options.registry.onLeave(() => this.#wake());
  }

  /** Calls this task carries now: live sessions plus pending dials. */
  get load(): number {
    return this.#registry.size + this.#pendingDials;
  }

  /** How many more calls it may take now (0 at or above the cap). */
  room(): number {
    return Math.max(0, this.maxCalls - this.load);
  }

  hasRoom(): boolean {
    return this.room() > 0;
  }

  /**
   * Counts a call being dialled from now; the returned function settles it: a placed call stays
   * counted for the pending window, one that was not placed (deferred, ended) stops counting at once.
   */
  beginDial(): (placed: boolean) => void {
    this.#pendingDials++;
    let settled = false;
    const release = () => {
      this.#pendingDials--;
      this.#wake();
    };
    return (placed) => {
      if (settled) return;
      settled = true;
      if (placed) this.#timer(release, this.#dialPendingMs);
      else release();
    };
  }

  /** Resolves once there is room, or as soon as `signal` aborts. */
  async whenRoom(signal?: AbortSignal): Promise<void> {
    while (!this.hasRoom() && !signal?.aborted) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#waiters.delete(wake);
          signal?.removeEventListener('abort', wake);
          resolve();
        };
        this.#waiters.add(wake);
        signal?.addEventListener('abort', wake, { once: true });
      });
    }
  }

  #wake(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}
