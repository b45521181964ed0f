import { DateTime } from 'luxon';
import * as v from 'valibot';
import { LOCAL_START_PATTERN } from './availability';
import { BookInputSchema } from './booking';
import { DATE_PATTERN } from './business-settings';
import { E164_PATTERN } from './phone-number';
import { idField, strictDict, stringField } from './validation';

/**
 * The booking tools' arguments as the model sends them (the documented contract: `check_availability`,
 * `book_appointment`, `find_appointments`, `cancel_appointment`, `reschedule_appointment`), and the
 * line that tells the model what day it is. Dates and times are the business's wall clock.
 */

/** A calendar date `YYYY-MM-DD` that exists (no 30 February). */
const localDate = () =>
  v.pipe(
    stringField({ pattern: DATE_PATTERN }),
    v.check((date) => DateTime.fromISO(date).isValid, 'expected a real date, YYYY-MM-DD'),
  );

/** A wall-clock start `YYYY-MM-DDTHH:MM` that reads as a date and time. */
const localStart = () =>
  v.pipe(
    stringField({ pattern: LOCAL_START_PATTERN }),
    v.check((start) => DateTime.fromISO(start).isValid, 'expected a real date and time, YYYY-MM-DDTHH:MM'),
  );

/** `check_availability` arguments. */
export const CheckAvailabilityArgsSchema = strictDict({
  date: localDate(),
  service: v.optional(stringField({ max: 80 })),
});

/** `book_appointment` arguments: what `book` takes (booking.ts) but the call's ids; `phone` defaults to the caller's number. */
export const BookAppointmentArgsSchema = strictDict({
  ...v.omit(BookInputSchema, ['call_id', 'assistant_id']).entries,
  start: localStart(),
});

/**
 * `find_appointments` arguments; `phone` defaults to the caller's number. Another number needs
 * `name`, the name its booking was made under: a number alone lets no caller see or change
 * someone else's appointments.
 */
export const FindAppointmentsArgsSchema = strictDict({
  phone: v.optional(stringField({ pattern: E164_PATTERN })),
  name: v.optional(stringField({ min: 2, max: 120 })),
});

/** The lower-case words of a name, accents dropped (`José  Ruiz` → `jose`, `ruiz`). */
function nameWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/** True when every word the caller gave is a word of the booking's name (`Ana` matches `Ana Ruiz`). */
export function nameMatches(given: string, booked: string): boolean {
  const words = nameWords(given);
  const bookedWords = new Set(nameWords(booked));
  return words.length > 0 && words.every((word) => bookedWords.has(word));
}

/** `cancel_appointment` arguments. */
export const CancelAppointmentArgsSchema = strictDict({ booking_id: idField() });

/** `reschedule_appointment` arguments. */
export const RescheduleAppointmentArgsSchema = strictDict({ booking_id: idField(), start: localStart() });

/**
 * The prompt line that anchors dates for the booking tools: today's weekday and date and the time
 * now, in the business's zone. Models resolve "tomorrow" or "Friday" from it (and the sandbox model
 * reads it back: `sandbox/spoken-dates.ts`).
 *
 * @example todayLine(new Date('2026-11-26T14:05:00Z'), 'America/New_York')
 * // 'Today is Thursday 2026-11-26 and the time is 09:05 in the business's time zone (America/New_York). …'
 */
export function todayLine(now: Date, zone: string): string {
  const local = DateTime.fromJSDate(now, { zone }).setLocale('en');
  return (
    `Today is ${local.toFormat('cccc yyyy-MM-dd')} and the time is ${local.toFormat('HH:mm')} in the business's time zone (${zone}). ` +
    'Give the booking tools dates as YYYY-MM-DD and times as YYYY-MM-DDTHH:MM in that zone.'
  );
}
