import { useCallback, useEffect, useState } from 'preact/hooks';
import type { ApiError } from '../api/client';

/** The state of one API read: its data, its error, and a way to read it again. */
export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | Error | undefined;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs `load` when the page opens and whenever `deps` change; `everyMs` reads it again on a timer
 * (a list that updates itself) while the tab is visible.
 */
export function useApi<T>(load: () => Promise<T>, deps: unknown[], everyMs?: number): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<ApiError | Error>();
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  useEffect(() => {
    let live = true;
    setLoading(true);
    load().then(
      (value) => live && (setData(value), setError(undefined), setLoading(false)),
      (failure: ApiError | Error) => live && (setError(failure), setLoading(false)),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  useEffect(() => {
    if (!everyMs) return;
    const timer = setInterval(() => document.visibilityState === 'visible' && reload(), everyMs);
    return () => clearInterval(timer);
  }, [everyMs, reload]);
  return { data, error, loading, reload };
}
