import { describe, expect, it } from 'vitest';
import type { components } from '../../../console/src/api/schema';
import { OUTCOMES } from '../../../console/src/pages/parts/calls-query';
import { callStats, percentile, turnLatency } from '../../../console/src/pages/parts/usage-stats';

type Call = components['schemas']['Call'];

const call = (change: Partial<Call>): Call =>
  ({ channel: 'phone', direction: 'inbound', outcome: null, billed_minutes: null, ...change }) as Call;

describe('the usage page', () => {
  it('counts calls, billed minutes, outcomes, channels and directions', () => {
    // Arrange
    const calls = [
      call({ outcome: 'resolved', billed_minutes: 2 }),
      call({ outcome: 'resolved', billed_minutes: 1, channel: 'web' }),
      call({ outcome: 'busy', direction: 'outbound', billed_minutes: 0 }),
      call({}),
    ];
    // Act
    const stats = callStats(calls, OUTCOMES);
    // Assert
    expect(stats.calls).toBe(4);
    expect(stats.minutesUsed).toBe(3);
    expect(stats.byOutcome.map((bar) => bar.label)).toEqual([...OUTCOMES]);
    expect(stats.byOutcome.find((bar) => bar.label === 'resolved')?.value).toBe(2);
    expect(stats.byOutcome.find((bar) => bar.label === 'busy')?.value).toBe(1);
    expect(stats.byOutcome.reduce((sum, bar) => sum + bar.value, 0)).toBe(3);
    expect(stats.byChannel).toEqual([
      { label: 'phone', value: 3 },
      { label: 'web', value: 1 },
    ]);
    expect(stats.byDirection).toEqual([
      { label: 'inbound', value: 3 },
      { label: 'outbound', value: 1 },
    ]);
  });

  it.each([
    [[], 50, null],
    [[700], 50, 700],
    [[900, 100, 500, 300, 700], 50, 500],
    [[900, 100, 500, 300, 700], 95, 900],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90, 9],
  ])('takes nearest-rank percentiles, as the call engine does: %j p%i = %s', (values, p, expected) => {
    expect(percentile(values, p)).toBe(expected);
  });

  it('pools latency over every answered turn of the calls, skipping turns without one and calls without metrics', () => {
    const latency = turnLatency([
      { metrics: { turns: [{ latency_ms: 600 }, { latency_ms: null }, { latency_ms: 800 }] } as components['schemas']['CallMetrics'] },
      { metrics: {} },
      { metrics: { turns: [{ latency_ms: 1200 }] } as components['schemas']['CallMetrics'] },
    ]);
    expect(latency).toEqual({ turns: 3, p50: 800, p95: 1200, max: 1200 });
  });
});
