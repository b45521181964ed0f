import type { SessionTimers } from './session-types';

/** What {@link watchEndRequests} needs. */
export interface EndRequestWatch {
  /** Whether `POST /calls/{id}/end` asked for the call to end (one read of the call item). */
  check: () => Promise<boolean>;
  timers: SessionTimers;
  /** Between the end of one check and the start of the next. */
  everyMs: number;
  /** Called once, when a check finds the request. */
  onRequested: () => void;
  onError: (error: unknown) => void;
}

/**
 * Checks the call item for an end request every `everyMs` while the call runs
 * (docs/decisions.md "Listening to a live call, and ending it"): the API cannot reach the task that
 * holds a call, so the task looks. Checks never overlap; a failed one is logged and the next runs.
 * Returns the stop.
 */
export function watchEndRequests(watch: EndRequestWatch): () => void {
  let stopped = false;
  let timer: unknown;
  const schedule = () => {
    timer = watch.timers.setTimeout(() => {
      watch
        .check()
        .then((requested) => {
          if (stopped) return;
          if (requested) return watch.onRequested();
          schedule();
        })
        .catch((error: unknown) => {
          watch.onError(error);
          if (!stopped) schedule();
        });
    }, watch.everyMs);
  };
  schedule();
  return () => {
    stopped = true;
    watch.timers.clearTimeout(timer);
  };
}
