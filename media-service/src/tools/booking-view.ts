import { DateTime } from 'luxon';
import type { Slot } from '../../../shared/domain/availability';
import type { Booking } from '../../../shared/domain/booking';
import { E164_PATTERN } from '../../../shared/domain/phone-number';
import { NotFoundError } from '../../../shared/errors';
import type { BookingRefused } from '../../../shared/services/booking-service';
import type { ToolContext } from './tool-types';

/**
 * What the booking tools hand the model: dates and times on the business's wall clock (the way the
 * caller says them and the tools take them back), never the caller's phone, email or notes.
 */

/** The JSON Schema of `booking_id` (cancel and reschedule). */
export const BOOKING_ID_PARAMETER = {
  type: 'integer',
  description: 'The booking_id from find_appointments or book_appointment.',
  minimum: 1,
} as const;

/** The JSON Schema of a wall-clock start, `YYYY-MM-DDTHH:MM`. */
export const startParameter = (description: string) => ({ type: 'string', description, pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}$' });

/** The JSON Schema of a phone number the caller gives (E.164). */
export const phoneParameter = (description: string) => ({ type: 'string', description, pattern: '^\\+[1-9]\\d{1,14}$' });

/** At most this many free times of one day go to the model (a 24-hour day on a 5-minute grid has 288). */
export const MAX_FREE_TIMES = 24;

/** The English weekday of a local date, so the model never works it out itself. */
export function weekdayOf(date: string): string {
  return DateTime.fromISO(date).setLocale('en').toFormat('cccc');
}

/** A slot list as local `HH:MM` start times (slots carry the business's offset, so the clock is local). */
export function freeTimes(slots: readonly Slot[]): { free_times: string[]; more_free_times: number } {
  const times = slots.map((slot) => slot.start.slice(11, 16));
  return { free_times: times.slice(0, MAX_FREE_TIMES), more_free_times: Math.max(0, times.length - MAX_FREE_TIMES) };
}

/** A booking as the model sees it; the name only when the booking is the caller's own. */
export function bookingView(booking: Booking, options: { withName: boolean }) {
  const date = booking.start.slice(0, 10);
  return {
    booking_id: booking.id,
    service: booking.service,
    date,
    weekday: weekdayOf(date),
    time: booking.start.slice(11, 16),
    end_time: booking.end.slice(11, 16),
    ...(options.withName && { name: booking.name }),
    status: booking.status,
  };
}

/** A refusal as the model gets it: the reason code and a sentence it can say. */
export function refusalView(refused: BookingRefused | { reason: string; detail: string }) {
  return { reason: refused.reason, detail: refused.detail };
}

/** The caller's own number when it is a phone number (not `anonymous` or empty), else undefined. */
export function callerPhone(context: ToolContext): string | undefined {
  return E164_PATTERN.test(context.partyNumber) ? context.partyNumber : undefined;
}

/**
 * The booking `bookingId`, when this call may change it: made with the caller's own number, or
 * made or found on this call. Another customer's booking (or another business's) reads as not
 * found, so guessing ids reveals nothing.
 */
export async function reachableBooking(context: ToolContext, bookingId: number): Promise<Booking | undefined> {
  const booking = await context.ports.bookings.get(context.businessId, bookingId).catch((error: unknown) => {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  });
  if (booking === undefined) return undefined;
  const own = booking.phone !== null && booking.phone === callerPhone(context);
  return own || context.knownBookings.has(bookingId) ? booking : undefined;
}

/** What the model hears about a booking it cannot reach. */
export const NOT_FOUND = {
  reason: 'not_found',
  detail: "No booking with that id was found for this caller. Use find_appointments to look up the caller's bookings; never guess an id.",
} as const;
