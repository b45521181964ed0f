import { describe, expect, it } from 'vitest';
import { LatenessHistogram, PacerScheduler } from '../../../../media-service/src/pipeline/pacer-scheduler';

describe('LatenessHistogram', () => {
  it('reports 0 before anything is recorded', () => {
    // Arrange
    const histogram = new LatenessHistogram();
    // Act
    const p99 = histogram.percentile(99);
    // Assert
    expect(p99).toBe(0);
  });

  it('gives the nearest-rank percentile as the upper edge of its 0.5 ms bucket', () => {
    // Arrange: 98 on-time ticks, one 3.2 ms late, one 7.9 ms late
    const histogram = new LatenessHistogram();
    for (let i = 0; i < 98; i++) histogram.record(0.1);
    histogram.record(3.2);
    histogram.record(7.9);
    // Act
    const percentiles = [50, 98, 99, 100].map((p) => histogram.percentile(p));
    // Assert: rank 99 of 100 falls in [3.0, 3.5); the max is never exceeded
    expect(percentiles).toEqual([0.5, 0.5, 3.5, 7.9]);
    expect(histogram.count).toBe(100);
  });

  it('counts negative lateness as on time and reports the overflow bucket as the largest sample', () => {
    // Arrange
    const histogram = new LatenessHistogram();
    histogram.record(-4);
    histogram.record(1234.5);
    // Act
    const [p50, p100] = [histogram.percentile(50), histogram.percentile(100)];
    // Assert: the on-time tick sits in the first bucket, reported as its upper edge
    expect(p50).toBe(0.5);
    expect(p100).toBe(1234.5);
  });
});

describe('PacerScheduler lateness percentile', () => {
  it('records every tick so p99 reflects the rare late one', () => {
    // Arrange: 99 ticks on time, then one 42 ms late
    let now = 0;
    let fire: (() => void) | undefined;
    const scheduler = new PacerScheduler({
      now: () => now,
      ticker: { start: (_ms, onTick) => ((fire = onTick), () => undefined) },
      tickMs: 10,
    });
    scheduler.add({ tick: () => undefined });
    // Act
    for (let i = 1; i <= 99; i++) {
      now = i * 10;
      fire!();
    }
    now = 990 + 10 + 42;
    fire!();
    // Assert: on-time ticks fall in the first 0.5 ms bucket
    expect(scheduler.latePercentileMs(99)).toBe(0.5);
    expect(scheduler.latePercentileMs(100)).toBe(42);
    expect(scheduler.stats()).toMatchObject({ ticks: 100, maxLateMs: 42 });
  });
});
