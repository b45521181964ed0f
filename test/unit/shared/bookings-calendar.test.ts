import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { BookingRecord } from '../../../shared/db/booking-repository';
import { bookingRecord } from '../../support/booking-record';
import { bookingInvitation, bookingsCalendar, bookingUid } from '../../../shared/services/bookings-calendar';

const NOW = new Date('2026-11-26T14:05:00Z');

/** Booking 4711 (Friday 27 November, 10:00 in New York, 15:00Z) with an address and long notes. */
const booking = (changes: Partial<BookingRecord> = {}): BookingRecord =>
  bookingRecord({
    id: 4711,
    name: 'Ana García',
    email: 'ana@example.org',
    notes: 'First visit; bring the x-rays, please, and the old referral letter from the previous dentist.',
    ...changes,
  });

const INFO = { businessName: 'Bright Dental', uidDomain: 'bookings.example.test', organizerEmail: 'desk@bright.test', now: NOW };

function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const vevent = calendar.getFirstSubcomponent('vevent')!;
  return { calendar, vevent, event: new ICAL.Event(vevent) };
}

describe('bookingInvitation', () => {
  it('a new booking is a METHOD:REQUEST with the feed’s UID, UTC times, SEQUENCE 0, the business as organizer', () => {
    // Act
    const text = bookingInvitation(booking(), { ...INFO, method: 'request' });
    const { calendar, vevent, event } = parse(text);
    // Assert
    expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(event.uid).toBe('booking-4711@bookings.example.test');
    expect(event.uid).toBe(bookingUid(4711, 'bookings.example.test'));
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-11-27T15:00:00.000Z');
    expect(event.endDate.toJSDate().toISOString()).toBe('2026-11-27T15:30:00.000Z');
    expect(text).toContain('\r\nDTSTART:20261127T150000Z\r\n');
    expect(event.sequence).toBe(0);
    expect(vevent.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(vevent.getFirstPropertyValue('dtstamp')!.toString()).toBe('2026-11-26T14:05:00Z');
    expect(vevent.getFirstPropertyValue('organizer')).toBe('mailto:desk@bright.test');
    expect(String(vevent.getFirstPropertyValue('attendee')).toLowerCase()).toBe('mailto:ana@example.org');
    expect(event.summary).toBe('Cleaning – Ana García');
  });

  it('a moved booking keeps its UID and raises SEQUENCE; a cancelled one is METHOD:CANCEL, STATUS:CANCELLED', () => {
    // Act
    const moved = parse(
      bookingInvitation(
        booking({ start_ms: Date.parse('2026-11-30T19:00:00Z'), end_ms: Date.parse('2026-11-30T19:30:00Z'), sequence: 1 }),
        { ...INFO, method: 'request' },
      ),
    );
    const cancelled = parse(bookingInvitation(booking({ status: 'cancelled', sequence: 2 }), { ...INFO, method: 'cancel' }));
    // Assert
    expect(moved.event.uid).toBe('booking-4711@bookings.example.test');
    expect(moved.event.sequence).toBe(1);
    expect(moved.event.startDate.toJSDate().toISOString()).toBe('2026-11-30T19:00:00.000Z');
    expect(cancelled.calendar.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(cancelled.event.uid).toBe('booking-4711@bookings.example.test');
    expect(cancelled.event.sequence).toBe(2);
    expect(cancelled.vevent.getFirstPropertyValue('status')).toBe('CANCELLED');
  });

  it('is well-formed: CRLF line ends, the last one too, and no line over 75 octets', () => {
    // Act
    const text = bookingInvitation(booking(), { ...INFO, method: 'request' });
    // Assert
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
  });

  it('a booking without an email has no attendee; the feed builds the same event (same UID and SEQUENCE)', () => {
    // Arrange
    const record = booking({ email: null, sequence: 3 });
    // Act
    const invitation = parse(bookingInvitation(record, { ...INFO, method: 'request' }));
    const feed = parse(bookingsCalendar([record], INFO));
    // Assert
    expect(invitation.vevent.getFirstProperty('attendee')).toBeNull();
    expect(feed.calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect(feed.event.uid).toBe(invitation.event.uid);
    expect(feed.event.sequence).toBe(3);
    expect(feed.event.summary).toBe(invitation.event.summary);
  });
});
