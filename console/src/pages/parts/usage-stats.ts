import type { components } from '../../api/schema';

type Call = components['schemas']['Call'];
type CallDetail = components['schemas']['CallDetail'];

/** A count by label, in a fixed order, for one bar chart. */
export interface Bar {
  label: string;
  value: number;
}

/** What the usage page says about a window of calls. */
export interface CallStats {
  calls: number;
  /** Minutes billed (settled calls only). */
  minutesUsed: number;
  byOutcome: Bar[];
  byChannel: Bar[];
  byDirection: Bar[];
}

function countBy<T extends string>(calls: readonly Call[], key: (call: Call) => T | null, order: readonly T[]): Bar[] {
  const counts = new Map<T, number>(order.map((label) => [label, 0]));
  for (const call of calls) {
    const value = key(call);
    if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts].map(([label, value]) => ({ label, value }));
}

/** Counts a window of calls: how many, the minutes they were billed, and their outcomes, channels and directions. */
export function callStats(calls: readonly Call[], outcomes: readonly NonNullable<Call['outcome']>[]): CallStats {
  return {
    calls: calls.length,
    minutesUsed: calls.reduce((sum, call) => sum + (call.billed_minutes ?? 0), 0),
    byOutcome: countBy(calls, (call) => call.outcome, outcomes),
    byChannel: countBy(calls, (call) => call.channel, ['phone', 'web'] as const),
    byDirection: countBy(calls, (call) => call.direction, ['inbound', 'outbound'] as const),
  };
}

/** Nearest-rank percentile, as the call engine computes a call's own `latency_ms` (null for no values). */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? null;
}

/** Latency percentiles over every answered turn of the given calls (not an average of each call's percentiles). */
export function turnLatency(calls: readonly Pick<CallDetail, 'metrics'>[]): {
  turns: number;
  p50: number | null;
  p95: number | null;
  max: number | null;
} {
  const values: number[] = [];
  for (const call of calls) {
    const turns = 'turns' in call.metrics ? call.metrics.turns : [];
    for (const turn of turns) if (typeof turn.latency_ms === 'number') values.push(turn.latency_ms);
  }
  return { turns: values.length, p50: percentile(values, 50), p95: percentile(values, 95), max: percentile(values, 100) };
}
