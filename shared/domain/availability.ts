import { DateTime } from 'luxon';
import type { BookableService, BusinessProfile } from './business-profile';
import { clockMinutes, GRANULE_MINUTES, WEEKDAYS, type TimeRange } from './opening-hours';

/**
 * Availability rules, pure: profile + existing bookings + now → free slots. Wall-clock times are
 * turned into instants by luxon with the business's IANA zone, so slots on a daylight-saving
 * day are right: a local time that does not exist (spring forward) is never offered, and every
 * slot's end is its start plus the real duration.
 */

const MINUTE_MS = 60_000;

/** Time an existing booking holds: from its start to its end plus the buffer it was booked with. */
export interface BusyInterval {
  startMs: number;
  blockedUntilMs: number;
}

/** A free slot as offered: ISO 8601 with the business's UTC offset. */
export interface Slot {
  start: string;
  end: string;
}

/** A slot with its instants (what a booking stores). */
export interface TimedSlot extends Slot {
  startMs: number;
  endMs: number;
  /** End plus the business's buffer: what the slot locks hold. */
  blockedUntilMs: number;
}

/** Why a start time cannot be booked (before any other booking is looked at). */
export type SlotRefusal = 'closed' | 'outside_hours' | 'too_soon' | 'too_far';

/** ISO 8601 with the zone's offset, `+00:00` rather than `Z` so every business reads alike. */
export function isoInZone(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true })!.replace(/Z$/, '+00:00');
}

/** The service a caller named (case and spacing ignored), the first one when none is named, else undefined. */
export function findService(profile: BusinessProfile, name?: string): BookableService | undefined {
  if (name === undefined || name.trim() === '') return profile.booking.services[0];
  const wanted = name.trim().toLowerCase();
  return profile.booking.services.find((service) => service.name.trim().toLowerCase() === wanted);
}

/** A local date's opening ranges, or undefined when the business is closed that day. */
function rangesOn(profile: BusinessProfile, day: DateTime): TimeRange[] | undefined {
  if (profile.closed_dates.includes(day.toISODate()!)) return undefined;
  const ranges = profile.hours[WEEKDAYS[day.weekday - 1]!];
  return ranges.length === 0 ? undefined : ranges;
}

/** Every grid slot of one local day for `service`, ignoring bookings and the clock. */
function gridSlots(profile: BusinessProfile, service: BookableService, day: DateTime): TimedSlot[] {
  const slots: TimedSlot[] = [];
  const zone = profile.timezone;
  const { slot_step_min: step, buffer_min: buffer } = profile.booking;
  for (const range of rangesOn(profile, day) ?? []) {
    const close = clockMinutes(range.end);
    for (let minute = clockMinutes(range.start); minute + service.duration_min <= close; minute += step) {
      const start = DateTime.fromObject(
        { year: day.year, month: day.month, day: day.day, hour: Math.floor(minute / 60), minute: minute % 60 },
        { zone },
      );
      // luxon moves a time in a spring-forward gap to after it: such a wall time does not exist.
      if (start.hour * 60 + start.minute !== minute || start.day !== day.day) continue;
      const startMs = start.toMillis();
      const endMs = startMs + service.duration_min * MINUTE_MS;
      slots.push({
        start: isoInZone(startMs, zone),
        end: isoInZone(endMs, zone),
        startMs,
        endMs,
        blockedUntilMs: endMs + buffer * MINUTE_MS,
      });
    }
  }
  return slots.sort((a, b) => a.startMs - b.startMs);
}

/** The booking window of `nowMs`: the earliest start (minimum notice) and the last local date (horizon). */
interface Window {
  earliestMs: number;
  lastDate: string;
}

function windowAt(profile: BusinessProfile, nowMs: number): Window {
  return {
    earliestMs: nowMs + profile.booking.min_notice_min * MINUTE_MS,
    lastDate: DateTime.fromMillis(nowMs, { zone: profile.timezone }).plus({ days: profile.booking.max_days_ahead }).toISODate()!,
  };
}

/** Whether the slot is inside the notice and horizon windows. */
function timing(slot: TimedSlot, window: Window): 'too_soon' | 'too_far' | undefined {
  if (slot.startMs < window.earliestMs) return 'too_soon';
  if (slot.start.slice(0, 10) > window.lastDate) return 'too_far';
  return undefined;
}

/** Whether a slot's held time overlaps any busy interval (sorted by start) from index `from` on. */
function overlapsAny(slot: TimedSlot, busy: readonly BusyInterval[], from: number): boolean {
  for (let i = from; i < busy.length; i += 1) {
    const interval = busy[i]!;
    if (interval.startMs >= slot.blockedUntilMs) return false;
    if (interval.blockedUntilMs > slot.startMs) return true;
  }
  return false;
}

/** What {@link freeSlots} needs. */
export interface SlotQuery {
  profile: BusinessProfile;
  service: BookableService;
  /** First local date, `YYYY-MM-DD`. */
  from: string;
  /** How many local days from `from` (1 = that day only). */
  days: number;
  now: Date;
  /** Confirmed bookings; any order. */
  busy: readonly BusyInterval[];
}

/**
 * The free slots of `days` local days from `from`: on the slot-step grid of each opening range,
 * long enough for the service, outside closed dates, at least the minimum notice from now and
 * within the horizon, and clear of every booking (each one's time plus its buffer, and this
 * slot's own buffer after it).
 *
 * @example
 * freeSlots({ profile, service: findService(profile)!, from: '2026-11-26', days: 1, now: new Date(), busy: [] });
 * // → [{ start: '2026-11-26T09:00:00-05:00', end: '2026-11-26T09:30:00-05:00', … }, …]
 */
export function freeSlots(query: SlotQuery): TimedSlot[] {
  const first = DateTime.fromISO(query.from, { zone: query.profile.timezone });
  if (!first.isValid) return [];
  const busy = [...query.busy].sort((a, b) => a.startMs - b.startMs);
  const window = windowAt(query.profile, query.now.getTime());
  const free: TimedSlot[] = [];
  for (let offset = 0; offset < query.days; offset += 1) {
    const day = first.plus({ days: offset });
    if (day.toISODate()! > window.lastDate) break;
    for (const slot of gridSlots(query.profile, query.service, day)) {
      if (timing(slot, window) !== undefined) continue;
      const from = busy.findIndex((interval) => interval.blockedUntilMs > slot.startMs);
      if (from !== -1 && overlapsAny(slot, busy, from)) continue;
      free.push(slot);
    }
  }
  return free;
}

/** A local start time `YYYY-MM-DDTHH:MM`. */
export const LOCAL_START_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/**
 * Whether `startLocal` (the business's wall-clock time) is a slot the business offers for
 * `service` now, bookings aside: a closed day, a time off the grid or outside the hours
 * (including one skipped by a daylight-saving change), too little notice, or too far ahead are
 * refused with their reason.
 */
export function checkSlot(
  profile: BusinessProfile,
  service: BookableService,
  startLocal: string,
  now: Date,
): TimedSlot | { reason: SlotRefusal } {
  const wanted = DateTime.fromISO(startLocal, { zone: profile.timezone });
  if (!LOCAL_START_PATTERN.test(startLocal) || !wanted.isValid) return { reason: 'outside_hours' };
  const day = wanted.startOf('day');
  if (rangesOn(profile, day) === undefined) return { reason: 'closed' };
  const [, clock] = startLocal.split('T');
  const slot = gridSlots(profile, service, day).find((candidate) => candidate.start.slice(11, 16) === clock);
  if (slot === undefined) return { reason: 'outside_hours' };
  const late = timing(slot, windowAt(profile, now.getTime()));
  return late === undefined ? slot : { reason: late };
}

/**
 * The 5-minute slot locks a booking holds (their start instants), covering its start to its
 * end plus buffer: two bookings whose held times overlap always share at least one lock, so
 * one conditional put per lock makes a double booking impossible.
 */
export function lockInstants(startMs: number, blockedUntilMs: number): number[] {
  const granule = GRANULE_MINUTES * MINUTE_MS;
  const instants: number[] = [];
  for (let at = Math.floor(startMs / granule) * granule; at < blockedUntilMs; at += granule) instants.push(at);
  return instants;
}
