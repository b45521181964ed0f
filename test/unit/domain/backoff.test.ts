import { describe, expect, it } from 'vitest';
import { backoffCeilingMs, equalJitterMs, fullJitterMs } from '../../../shared/domain/backoff';

const backoff = { baseMs: 10, capMs: 1000 };

describe('backoff', () => {
  it('doubles from the base and stops at the cap', () => {
    // Act
    const ceilings = [0, 1, 2, 3, 6, 7, 20].map((attempt) => backoffCeilingMs(attempt, backoff));
    // Assert
    expect(ceilings).toEqual([10, 20, 40, 80, 640, 1000, 1000]);
  });

  it('full jitter spans 0 to the ceiling; equal jitter half the ceiling to the ceiling', () => {
    // Act
    const full = [fullJitterMs(3, backoff, () => 0), fullJitterMs(3, backoff, () => 0.5), fullJitterMs(3, backoff, () => 0.999)];
    const equal = [equalJitterMs(3, backoff, () => 0), equalJitterMs(3, backoff, () => 0.999)];
    // Assert
    expect(full).toEqual([0, 40, 80 * 0.999]);
    expect(equal).toEqual([40, 40 + 40 * 0.999]);
  });
});
