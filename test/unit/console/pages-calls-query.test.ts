import { describe, expect, it } from 'vitest';
import {
  callsQuery,
  filtersFromSearch,
  filtersProblem,
  filtersToSearch,
  localMidnight,
  nextDate,
  NO_FILTERS,
} from '../../../console/src/pages/parts/calls-query';

const utc = () => 0;

describe('the calls filters', () => {
  it('send nothing but the page size when none is set', () => {
    expect(callsQuery(NO_FILTERS, { limit: 25 }, utc)).toEqual({ limit: 25 });
  });

  it('send each filter set as its GET /calls parameter, and the cursor of the page shown', () => {
    // Arrange
    const filters = { direction: 'inbound', channel: 'web', status: 'ended', outcome: 'appointment_booked', from: '', to: '' } as const;
    // Act
    const query = callsQuery(filters, { limit: 25, cursor: 'abc' }, utc);
    // Assert
    expect(query).toEqual({
      limit: 25,
      cursor: 'abc',
      direction: 'inbound',
      channel: 'web',
      status: 'ended',
      outcome: 'appointment_booked',
    });
  });

  it('turn the inclusive local dates into created_after (start of "from") and created_before (start of the day after "to")', () => {
    const newYork = (date: string) => (date < '2026-11-01' ? 240 : 300); // EDT until Nov 1, then EST
    const query = callsQuery({ ...NO_FILTERS, from: '2026-10-31', to: '2026-11-30' }, { limit: 50 }, newYork);
    expect(query.created_after).toBe('2026-10-31T00:00:00-04:00');
    expect(query.created_before).toBe('2026-12-01T00:00:00-05:00');
  });

  it.each([
    ['2026-11-29', 0, '2026-11-29T00:00:00+00:00'],
    ['2026-11-29', -60, '2026-11-29T00:00:00+01:00'],
    ['2026-11-29', -330, '2026-11-29T00:00:00+05:30'],
    ['2026-11-29', 570, '2026-11-29T00:00:00-09:30'],
  ])('write local midnight of %s at offset %i as %s', (date, offset, expected) => {
    expect(localMidnight(date, offset)).toBe(expected);
  });

  it.each([
    ['2026-11-29', '2026-11-30'],
    ['2026-11-30', '2026-12-01'],
    ['2026-12-31', '2027-01-01'],
    ['2028-02-28', '2028-02-29'],
  ])('know the day after %s is %s', (date, next) => {
    expect(nextDate(date)).toBe(next);
  });

  it('read back from the address bar what they wrote to it', () => {
    const filters = {
      direction: 'outbound',
      channel: 'phone',
      status: 'in_progress',
      outcome: 'busy',
      from: '2026-11-01',
      to: '2026-11-29',
    } as const;
    const search = filtersToSearch(filters);
    expect(filtersFromSearch(Object.fromEntries(new URLSearchParams(search)))).toEqual(filters);
    expect(filtersToSearch(NO_FILTERS)).toBe('');
  });

  it('drop values from the address bar that are not the API’s', () => {
    expect(
      filtersFromSearch({ direction: 'sideways', channel: 'fax', status: 'done', outcome: 'great', from: '29/11/2026', to: '2026-11-29' }),
    ).toEqual({
      ...NO_FILTERS,
      to: '2026-11-29',
    });
  });

  it('catch a "from" after a "to" before the API does', () => {
    expect(filtersProblem({ ...NO_FILTERS, from: '2026-11-30', to: '2026-11-29' })).toMatch(/after/);
    expect(filtersProblem({ ...NO_FILTERS, from: '2026-11-29', to: '2026-11-29' })).toBeUndefined();
  });
});
