import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_ATTEMPTS,
  MAX_RETRY_AFTER_MS,
  nextAttemptDelayMs,
  parseRetryAfter,
  RETRY_SCHEDULE_MS,
} from '../../../shared/webhooks/schedule';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const middle = () => 0.5;

describe('retry schedule (docs/design.md "Webhooks")', () => {
  it('is now, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h: ten attempts over ~75.6 h', () => {
    expect(RETRY_SCHEDULE_MS).toEqual([0, 5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 14 * H, 20 * H, 24 * H]);
    expect(MAX_ATTEMPTS).toBe(10);
    expect(RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0)).toBe(75 * H + 35 * M + 5 * S);
  });

  it.each(RETRY_SCHEDULE_MS.map((delay, index) => [index + 1, delay]))(
    'attempt %i waits %i ms with no jitter at the midpoint',
    (attempt, delay) => {
      expect(nextAttemptDelayMs(attempt, middle)).toBe(delay);
    },
  );

  it('sends the first attempt at once whatever the random source says', () => {
    expect(nextAttemptDelayMs(1, () => 0.99)).toBe(0);
  });

  it('returns null once the attempts are exhausted', () => {
    expect(nextAttemptDelayMs(MAX_ATTEMPTS + 1, middle)).toBeNull();
  });

  it.each([[0], [-1], [1.5], [Number.NaN]])('refuses attempt number %s', (attempt) => {
    expect(() => nextAttemptDelayMs(attempt, middle)).toThrow(RangeError);
  });

  it('stays within ±10 % of the schedule (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_ATTEMPTS }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, r) => {
          const base = RETRY_SCHEDULE_MS[attempt - 1]!;
          const delay = nextAttemptDelayMs(attempt, () => r)!;
          return delay >= Math.floor(base * 0.9) && delay <= Math.ceil(base * 1.1);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reaches both jitter bounds', () => {
    expect(nextAttemptDelayMs(3, () => 0)).toBe(4.5 * M);
    expect(nextAttemptDelayMs(3, () => 0.999999)).toBeCloseTo(5.5 * M, -2);
  });
});

describe('Retry-After (429/503)', () => {
  it('waits longer when the receiver asks for more than the schedule', () => {
    expect(nextAttemptDelayMs(2, middle, 120)).toBe(120 * S);
  });

  it('never waits less than the schedule', () => {
    expect(nextAttemptDelayMs(3, middle, 1)).toBe(5 * M);
    expect(nextAttemptDelayMs(3, middle, 0)).toBe(5 * M);
  });

  it('caps the requested wait at 24 h', () => {
    expect(nextAttemptDelayMs(2, middle, 7 * 24 * 3600)).toBe(MAX_RETRY_AFTER_MS);
  });

  it('ignores a non-finite value', () => {
    expect(nextAttemptDelayMs(2, middle, Number.POSITIVE_INFINITY)).toBe(5 * S);
    expect(nextAttemptDelayMs(2, middle, null)).toBe(5 * S);
  });

  it('still ends the delivery when the attempts are exhausted', () => {
    expect(nextAttemptDelayMs(MAX_ATTEMPTS + 1, middle, 60)).toBeNull();
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-10-21T07:28:00Z');

  it.each([
    ['120', 120],
    [' 30 ', 30],
    ['0', 0],
    ['Wed, 21 Oct 2026 07:30:00 GMT', 120],
    ['Wed, 21 Oct 2026 07:00:00 GMT', 0],
    ['soon', null],
    ['-5', null],
    ['1.5', null],
    ['', null],
  ])('reads %j as %s', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });

  it('reads a missing header as null', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
