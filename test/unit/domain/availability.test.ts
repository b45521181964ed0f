import { describe, expect, it } from 'vitest';
import { checkSlot, findService, freeSlots, lockInstants, type BusyInterval } from '../../../shared/domain/availability';
import { defaultBusinessProfile, type BusinessProfile } from '../../../shared/domain/business-profile';
import { parseWeeklyHours, type WeeklyHours } from '../../../shared/domain/opening-hours';

function weekOf(text: string): WeeklyHours {
  const week = parseWeeklyHours(text);
  if (typeof week === 'string') throw new Error(week);
  return week;
}

const NEW_YORK: BusinessProfile = { ...defaultBusinessProfile(), timezone: 'America/New_York' };

function profileWith(changes: Partial<BusinessProfile> = {}, booking: Partial<BusinessProfile['booking']> = {}): BusinessProfile {
  return { ...NEW_YORK, ...changes, booking: { ...NEW_YORK.booking, min_notice_min: 0, ...booking } };
}

const starts = (profile: BusinessProfile, from: string, now: Date, busy: BusyInterval[] = [], days = 1) =>
  freeSlots({ profile, service: findService(profile)!, from, days, now, busy }).map((slot) => slot.start);

/** A Wednesday long before every date below, so only the rule under test refuses. */
const EARLY = new Date('2026-11-25T12:00:00Z');

describe('freeSlots', () => {
  it('offers the default week: 30-minute slots 09:00-17:00 with the business offset', () => {
    // Act
    const slots = freeSlots({ profile: profileWith(), service: findService(NEW_YORK)!, from: '2026-11-26', days: 1, now: EARLY, busy: [] });
    // Assert
    expect(slots).toHaveLength(16);
    expect(slots[0]).toMatchObject({ start: '2026-11-26T09:00:00-05:00', end: '2026-11-26T09:30:00-05:00' });
    expect(slots[15]!.start).toBe('2026-11-26T16:30:00-05:00');
  });

  it.each([
    ['Saturday (no hours)', '2026-11-28'],
    ['a closed date', '2026-12-25'],
  ])('offers nothing on %s', (_case, date) => {
    // Arrange
    const profile = profileWith({ closed_dates: ['2026-12-25'] });
    // Act / Assert
    expect(starts(profile, date, EARLY)).toEqual([]);
  });

  it('uses several ranges a day and only slots that fit before each range ends', () => {
    // Arrange
    const profile = profileWith(
      { hours: weekOf('Mon-Fri 09:00-10:00, 13:00-14:15') },
      { services: [{ name: 'Long', duration_min: 45, price: null }], slot_step_min: 15 },
    );
    // Act / Assert
    expect(starts(profile, '2026-11-26', EARLY).map((start) => start.slice(11, 16))).toEqual(['09:00', '09:15', '13:00', '13:15', '13:30']);
  });

  it('keeps the buffer free after every booking and after the slot itself', () => {
    // Arrange: a booking 10:00-10:30 held until 10:40 (a 10-minute buffer); slots every 10 minutes
    const profile = profileWith({ hours: weekOf('Mon-Fri 09:00-11:30') }, { slot_step_min: 10, buffer_min: 10 });
    const booked = Date.parse('2026-11-26T15:00:00Z');
    const busy = [{ startMs: booked, blockedUntilMs: booked + 40 * 60_000 }];
    // Act
    const times = starts(profile, '2026-11-26', EARLY, busy).map((start) => start.slice(11, 16));
    // Assert: 09:20 + 30 + 10 ends at 10:00 (fits); 09:30 would hold until 10:10
    expect(times).toContain('09:20');
    expect(times).not.toContain('09:30');
    expect(times).not.toContain('10:30');
    expect(times).toContain('10:40');
  });

  it('leaves out slots within the minimum notice', () => {
    // Arrange: now is 10:10 New York time, two hours' notice
    const profile = profileWith({}, { min_notice_min: 120 });
    // Act
    const first = starts(profile, '2026-11-26', new Date('2026-11-26T15:10:00Z'))[0];
    // Assert
    expect(first).toBe('2026-11-26T12:30:00-05:00');
  });

  it('offers nothing beyond the horizon', () => {
    // Arrange
    const profile = profileWith({}, { max_days_ahead: 7 });
    // Act / Assert
    expect(starts(profile, '2026-12-02', EARLY)).toHaveLength(16);
    expect(starts(profile, '2026-12-03', EARLY)).toEqual([]);
  });

  describe('across daylight-saving changes (America/New_York)', () => {
    const allDay = profileWith({ hours: weekOf('Sun 00:00-05:00') }, { slot_step_min: 30, max_days_ahead: 365 });
    const now = new Date('2026-01-01T00:00:00Z');

    it('never offers a wall time that does not exist (spring forward, 8 March 2026)', () => {
      // Act
      const times = starts(allDay, '2026-03-08', now);
      // Assert: 02:00 and 02:30 do not exist that night; 01:30 EST is followed by 03:00 EDT
      expect(times).toContain('2026-03-08T01:30:00-05:00');
      expect(times).toContain('2026-03-08T03:00:00-04:00');
      expect(times.some((start) => start.includes('T02:'))).toBe(false);
    });

    it('gives each slot its real duration and the offset in force (fall back, 1 November 2026)', () => {
      // Act
      const slots = freeSlots({ profile: allDay, service: findService(allDay)!, from: '2026-11-01', days: 1, now, busy: [] });
      // Assert
      const before = slots.find((slot) => slot.start.startsWith('2026-11-01T00:30'))!;
      const after = slots.find((slot) => slot.start.startsWith('2026-11-01T03:00'))!;
      expect(before.start).toBe('2026-11-01T00:30:00-04:00');
      expect(after.start).toBe('2026-11-01T03:00:00-05:00');
      for (const slot of slots) expect(slot.endMs - slot.startMs).toBe(30 * 60_000);
    });

    it('keeps weekday hours at the same wall time on both sides of the change', () => {
      // Arrange: a Friday before and a Monday after the spring change
      const profile = profileWith({}, { max_days_ahead: 365 });
      // Act / Assert
      expect(starts(profile, '2026-03-06', now)[0]).toBe('2026-03-06T09:00:00-05:00');
      expect(starts(profile, '2026-03-09', now)[0]).toBe('2026-03-09T09:00:00-04:00');
    });
  });

  it('covers several days with days=N', () => {
    // Act / Assert: Thursday, Friday, Saturday (closed)
    expect(starts(profileWith(), '2026-11-26', EARLY, [], 3)).toHaveLength(32);
  });
});

describe('checkSlot', () => {
  const service = findService(NEW_YORK)!;

  it.each([
    ['a grid slot', '2026-11-26T09:30', undefined],
    ['a weekend day', '2026-11-28T10:00', 'closed'],
    ['a time off the grid', '2026-11-26T09:10', 'outside_hours'],
    ['a time after closing', '2026-11-26T17:00', 'outside_hours'],
    ['a malformed time', '2026-11-26 09:00', 'outside_hours'],
    ['a slot in the past', '2026-11-24T09:00', 'too_soon'],
    ['a slot past the horizon', '2027-06-01T09:00', 'too_far'],
  ])('%s → %s', (_case, start, reason) => {
    // Act
    const result = checkSlot(profileWith(), service, start, EARLY);
    // Assert
    if (reason === undefined) expect(result).toMatchObject({ start: '2026-11-26T09:30:00-05:00' });
    else expect(result).toEqual({ reason });
  });

  it('refuses a wall time skipped by the spring change', () => {
    // Arrange
    const profile = profileWith({ hours: weekOf('Sun 00:00-05:00') }, { max_days_ahead: 365 });
    // Act / Assert
    expect(checkSlot(profile, service, '2026-03-08T02:30', new Date('2026-01-01T00:00:00Z'))).toEqual({ reason: 'outside_hours' });
  });
});

describe('findService and lockInstants', () => {
  it('finds a service by name ignoring case, the first when none is named', () => {
    // Arrange
    const profile = profileWith(
      {},
      {
        services: [
          { name: 'Cleaning', duration_min: 30, price: 80 },
          { name: 'Whitening', duration_min: 60, price: null },
        ],
      },
    );
    // Act / Assert
    expect(findService(profile)?.name).toBe('Cleaning');
    expect(findService(profile, ' whitening ')?.name).toBe('Whitening');
    expect(findService(profile, 'Surgery')).toBeUndefined();
  });

  it('covers a booking with 5-minute locks, so overlapping bookings share one', () => {
    // Arrange
    const at = Date.parse('2026-11-26T14:00:00Z');
    // Act
    const first = lockInstants(at, at + 40 * 60_000);
    const second = lockInstants(at + 35 * 60_000, at + 65 * 60_000);
    const clear = lockInstants(at + 40 * 60_000, at + 70 * 60_000);
    // Assert
    expect(first).toHaveLength(8);
    expect(first.filter((lock) => second.includes(lock))).toHaveLength(1);
    expect(first.filter((lock) => clear.includes(lock))).toHaveLength(0);
  });
});
