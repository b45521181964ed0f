import ical, { ICalCalendarMethod, ICalEventStatus, type ICalCalendar } from 'ical-generator';
import type { BookingRecord } from '../db/booking-repository';

/** Calendar apps are asked to poll this often (REFRESH-INTERVAL, X-PUBLISHED-TTL); Google polls on its own schedule. */
const REFRESH_SECONDS = 15 * 60;

/** The UID domain when the deployment names none: UIDs must never change, so this stays fixed. */
export const DEFAULT_UID_DOMAIN = 'bookings.voice-agent.local';

const PRODUCT_ID = { company: 'Voice Agent Platform', product: 'Bookings', language: 'EN' } as const;

/** What the feed needs to name itself and its events. */
export interface CalendarInfo {
  /** Shown as the calendar's name (X-WR-CALNAME). */
  businessName: string;
  /** The domain in every UID (`booking-<id>@<domain>`), stable forever so updates never duplicate events. */
  uidDomain: string;
}

/** What an invitation (a confirmation email's .ics) adds: the iTIP method, and who organises and attends. */
export interface InvitationInfo extends CalendarInfo {
  /** REQUEST for a new or moved booking, CANCEL for a cancelled one (RFC 5546). */
  method: 'request' | 'cancel';
  /** The business's address the invitation comes from (ORGANIZER, required by REQUEST and CANCEL). */
  organizerEmail: string;
  /** When this invitation is made (DTSTAMP of an iTIP message: its creation time). */
  now: Date;
}

/** The stable UID of a booking's event, in the feed and in every invitation alike. */
export const bookingUid = (bookingId: number, uidDomain: string) => `booking-${bookingId}@${uidDomain}`;

function describe(booking: BookingRecord): string {
  const lines = [`Booked by phone, ref ${booking.id}`];
  if (booking.phone) lines.push(`Phone: ${booking.phone}`);
  if (booking.email) lines.push(`Email: ${booking.email}`);
  if (booking.notes) lines.push(`Notes: ${booking.notes}`);
  return lines.join('\n');
}

/**
 * Adds one booking's VEVENT: its stable UID, times in UTC (no VTIMEZONE needed), SEQUENCE as
 * stored (bumped on every change), STATUS:CANCELLED with a "Cancelled:" summary once cancelled.
 */
function addBookingEvent(calendar: ICalCalendar, booking: BookingRecord, uidDomain: string, stamp: Date) {
  const cancelled = booking.status === 'cancelled';
  return calendar.createEvent({
    id: bookingUid(booking.id, uidDomain),
    start: new Date(booking.start_ms),
    end: new Date(booking.end_ms),
    stamp,
    lastModified: new Date(booking.updated_at),
    created: new Date(booking.created_at),
    sequence: booking.sequence,
    summary: `${cancelled ? 'Cancelled: ' : ''}${booking.service} – ${booking.name}`,
    description: describe(booking),
    status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
}

/** RFC 5545 §3.1: every content line ends with CRLF, the last one too. */
function text(calendar: ICalCalendar): string {
  const out = calendar.toString();
  return out.endsWith('\r\n') ? out : `${out}\r\n`;
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
    prodId: PRODUCT_ID,
    method: ICalCalendarMethod.PUBLISH,
    ttl: REFRESH_SECONDS,
  });
  for (const booking of bookings) addBookingEvent(calendar, booking, info.uidDomain, new Date(booking.updated_at));
  return text(calendar);
}

/**
 * One booking as an iTIP invitation (RFC 5546) for the caller's confirmation email: METHOD:REQUEST
 * for a new or moved booking, METHOD:CANCEL for a cancelled one, the same VEVENT as the feed (same
 * UID, so calendar apps update the one event; SEQUENCE rises with every change), the business as
 * ORGANIZER and the caller as ATTENDEE when they gave an address.
 *
 * @example
 * const ics = bookingInvitation(record, { businessName: 'Acme', uidDomain, method: 'request', organizerEmail: 'desk@acme.test', now: new Date() });
 */
export function bookingInvitation(booking: BookingRecord, info: InvitationInfo): string {
  const calendar = ical({
    prodId: PRODUCT_ID,
    method: info.method === 'cancel' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  const event = addBookingEvent(calendar, booking, info.uidDomain, info.now);
  event.organizer({ name: info.businessName || 'Bookings', email: info.organizerEmail });
  if (booking.email) event.createAttendee({ email: booking.email, name: booking.name });
  return text(calendar);
}
