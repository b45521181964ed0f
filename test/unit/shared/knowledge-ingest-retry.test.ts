import { describe, expect, it } from 'vitest';
import { ingestRetryDelayS } from '../../../shared/queue/knowledge-ingest';

describe('ingestRetryDelayS', () => {
  it('waits 60 s after the first failure, doubling, at most 15 minutes', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(ingestRetryDelayS)).toEqual([60, 120, 240, 480, 900, 900, 900]);
  });

  it('gives a document up about half an hour after its first try on AWS (5 receives)', () => {
    // The delays after receives 1-5; the 6th receive dead-letters it.
    const total = [1, 2, 3, 4, 5].map(ingestRetryDelayS).reduce((sum, s) => sum + s, 0);
    expect(total).toBe(1800);
  });
});
