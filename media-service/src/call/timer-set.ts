import type { SessionTimers } from './session-types';

/**
 * Named one-shot timers of one call (greeting, silence, keypad, voicemail…): setting a name again
 * replaces its timer, and `clear()` stops them all, so a finished call never fires a late callback.
 */
export class TimerSet {
  readonly #timers: SessionTimers;
  readonly #handles = new Map<string, unknown>();

  constructor(timers: SessionTimers) {
    this.#timers = timers;
  }

  /** Runs `callback` once after `ms`, replacing any timer of the same name. */
  set(name: string, ms: number, callback: () => void): void {
    this.cancel(name);
    this.#handles.set(
      name,
      this.#timers.setTimeout(() => {
        this.#handles.delete(name);
        callback();
      }, ms),
    );
  }

  /** Stops the timer of that name, if any. */
  cancel(name: string): void {
    const handle = this.#handles.get(name);
    if (handle === undefined) return;
    this.#timers.clearTimeout(handle);
    this.#handles.delete(name);
  }

  /** Stops every timer except those named in `keep`. */
  clear(keep: readonly string[] = []): void {
    for (const name of [...this.#handles.keys()]) if (!keep.includes(name)) this.cancel(name);
  }

  /** Resolves after `ms`, or at once when `done` settles first (bounded waits for goodbyes). */
  async waitAtMost(done: Promise<void>, ms: number): Promise<void> {
    let handle: unknown;
    await Promise.race([done, new Promise<void>((resolve) => (handle = this.#timers.setTimeout(resolve, ms)))]);
    this.#timers.clearTimeout(handle);
  }
}
