import type { SessionTimers } from './session-types';

/** A call a session runs, by its keys. */
export interface WatchedCall {
  businessId: number;
  callId: number;
}

/** What {@link EndRequestPoller} needs. */
export interface EndRequestPollerOptions {
  /** Which of these calls `POST /calls/{id}/end` asked to end, as `"<business id>/<call id>"` (one batched read). */
  check: (calls: readonly WatchedCall[]) => Promise<Set<string>>;
  timers: SessionTimers;
  /** Between the end of one check and the start of the next. */
  everyMs: number;
  onError: (error: unknown) => void;
}

/**
 * Looks for end requests on every call of the process at once (docs/decisions.md "Listening to a
 * live call, and ending it"): the API cannot reach the task that holds a call, so the task looks,
 * once a second, with one batched read for all its calls. A read per call cost 2.2 ms of CPU,
 * about a third of what a call costs in all (6 to 9 ms a second); one read for 100 calls costs
 * about as much as one.
 * Checks never overlap; a failed one is reported and the next runs. No timer runs while no call is
 * watched.
 */
export class EndRequestPoller {
  readonly #options: EndRequestPollerOptions;
  readonly #watched = new Map<string, { call: WatchedCall; onRequested: () => void }>();
  #timer: unknown;
  #checking = false;

  constructor(options: EndRequestPollerOptions) {
    this.#options = options;
  }

  /** Calls `onRequested` once when the call is asked to end; returns the stop. */
  watch(call: WatchedCall, onRequested: () => void): () => void {
    const key = `${call.businessId}/${call.callId}`;
    const entry = { call, onRequested };
    this.#watched.set(key, entry);
    this.#schedule();
    return () => {
      if (this.#watched.get(key) === entry) this.#watched.delete(key);
      if (this.#watched.size === 0 && !this.#checking) this.#cancel();
    };
  }

  /** Calls watched now. */
  get size(): number {
    return this.#watched.size;
  }

  #schedule(): void {
    if (this.#timer !== undefined || this.#checking || this.#watched.size === 0) return;
    this.#timer = this.#options.timers.setTimeout(() => {
      this.#timer = undefined;
      void this.#check();
    }, this.#options.everyMs);
  }

  #cancel(): void {
    if (this.#timer === undefined) return;
    this.#options.timers.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #check(): Promise<void> {
    this.#checking = true;
    try {
      const asked = await this.#options.check([...this.#watched.values()].map((entry) => entry.call));
      for (const key of asked) {
        const entry = this.#watched.get(key);
        if (!entry) continue;
        this.#watched.delete(key);
        entry.onRequested();
      }
    } catch (error) {
      this.#options.onError(error);
    } finally {
      this.#checking = false;
      this.#schedule();
    }
  }
}
