/**
 * Plain words for the API's values, shared by the pages. Pure (no DOM), so the unit tests import it.
 */

/** An enum value as a person reads it: `in_progress` → "in progress". */
export function words(value: string | null | undefined): string {
  return value ? value.replaceAll('_', ' ') : '—';
}

/** Seconds as `m:ss` (or `h:mm:ss` past an hour): how long a call lasted. */
export function duration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** Milliseconds from the call's start as `m:ss.s`: where a transcript line or a tool call sits. */
export function offset(ms: number): string {
  const tenths = Math.max(0, Math.round(ms / 100));
  const [m, s] = [Math.floor(tenths / 600), (tenths % 600) / 10];
  return `${m}:${s.toFixed(1).padStart(4, '0')}`;
}

/** A latency as people quote it: `840 ms`, or `—` when there is none. */
export function ms(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${Math.round(value).toLocaleString('en-US')} ms`;
}

/** Any JSON value as indented text, for read-only views. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'null';
}
