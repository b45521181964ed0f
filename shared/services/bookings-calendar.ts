import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { BookingRecord } from '../db/booking-repository';

/** Calendar apps are asked to poll this often (REFRESH-INTERVAL, X-PUBLISHED-TTL); Google polls on its own schedule. */
const REFRESH_SECONDS = 15 * 60;

/** What the feed needs to name itself and its events. */
export interface CalendarInfo {
  /** Shown as the calendar's name (X-WR-CALNAME). */
  businessName: string;
  /** The domain in every UID (`booking-<id>@<domain>`), stable forever so updates never duplicate events. */
  uidDomain: string;
}

function describe(booking: BookingRecord): string {
  const lines = [`Booked by phone, ref ${booking.id}`];
  if (booking.phone) lines.push(`Phone: ${booking.phone}`);
  if (booking.email) lines.push(`Email: ${booking.email}`);
  if (booking.notes) lines.push(`Notes: ${booking.notes}`);
  return lines.join('\n');
}

/**
 * The bookings as one iCalendar (RFC 5545) object, built by ical-generator: times in UTC (no
 * VTIMEZONE needed), one VEVENT per booking with a stable UID, SEQUENCE bumped on every change and
 * STATUS:CANCELLED (summary prefixed "Cancelled:") for cancelled ones; CRLF line ends, folded at
 * 75 octets, TEXT escaped. Deterministic for the same bookings (DTSTAMP is the last change).
 *
 * @example
 * const ics = bookingsCalendar(records, { businessName: 'Acme Dental', uidDomain: 'voice.example.com' });
 */
export function bookingsCalendar(bookings: readonly BookingRecord[], info: CalendarInfo): string {
  const calendar = ical({
    name: `Bookings – ${info.businessName || 'business'}`,
    prodId: { company: 'Voice Agent Platform', product: 'Bookings', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    ttl: REFRESH_SECONDS,
  });
  for (const booking of bookings) {
    const cancelled = booking.status === 'cancelled';
    calendar.createEvent({
      id: `booking-${booking.id}@${info.uidDomain}`,
      start: new Date(booking.start_ms),
      end: new Date(booking.end_ms),
      stamp: new Date(booking.updated_at),
      lastModified: new Date(booking.updated_at),
      created: new Date(booking.created_at),
      sequence: booking.sequence,
      summary: `${cancelled ? 'Cancelled: ' : ''}${booking.service} – ${booking.name}`,
      description: describe(booking),
      status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    });
  }
  // RFC 5545 §3.1: every content line ends with CRLF, the last one too.
  const text = calendar.toString();
  return text.endsWith('\r\n') ? text : `${text}\r\n`;
}
