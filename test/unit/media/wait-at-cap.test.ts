import { describe, expect, it } from 'vitest';
import { waitAfterFailureS, waitAtCapS } from '../../../media-service/src/calls/outbound-consumer';

describe('waitAtCapS', () => {
  it('a call waiting at the cap waits 1–2 s first, doubling to at most 60 s (whole seconds)', () => {
    // Act
    const shortest = [0, 1, 2, 3, 4, 5, 6, 30].map((attempt) => waitAtCapS(attempt, () => 0));
    const longest = [0, 1, 2, 3, 4, 5, 6, 30].map((attempt) => waitAtCapS(attempt, () => 0.999));
    // Assert
    expect(shortest).toEqual([1, 2, 4, 8, 16, 30, 30, 30]);
    expect(longest).toEqual([2, 4, 8, 16, 32, 60, 60, 60]);
  });
});

describe('waitAfterFailureS', () => {
  it('a dial that placed nothing comes back after 2.5–5 s first, doubling to at most 60 s (below the sweeper’s 2 minutes)', () => {
    // Act
    const shortest = [0, 1, 2, 3, 4, 30].map((attempt) => waitAfterFailureS(attempt, () => 0));
    const longest = [0, 1, 2, 3, 4, 30].map((attempt) => waitAfterFailureS(attempt, () => 0.999));
    // Assert
    expect(shortest).toEqual([3, 5, 10, 20, 30, 30]);
    expect(longest).toEqual([5, 10, 20, 40, 60, 60]);
  });
});
