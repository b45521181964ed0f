import { DateTime } from 'luxon';
import { checkSlot, findService, freeSlots, isoInZone, lockInstants, type Slot } from '../domain/availability';
import {
  parseAvailabilityQuery,
  parseBookInput,
  parseListBookingsQuery,
  parseLocalStart,
  type BookInput,
  type Booking,
  type BookingRefusal,
} from '../domain/booking';
import type { BookableService, BusinessProfile } from '../domain/business-profile';
import { DATE_PATTERN } from '../domain/business-settings';
import type { BookingRecord, BookingRepository } from '../db/booking-repository';
import type { BusinessRepository } from '../db/business-repository';
import type { IdAllocator } from '../db/ids';
import type { PageCursors } from '../db/page-cursor';
import { listCursors, listPage, openCursor } from './list-page';
import { ConflictError, NotFoundError, ValidationError } from '../errors';

/** What the booking use cases need. */
export interface BookingServiceDeps {
  businesses: BusinessRepository;
  bookings: BookingRepository;
  ids: Pick<IdAllocator, 'nextId'>;
  now: () => Date;
  /** Signs and opens GET /bookings cursors; absent where nothing lists (the call engine's booking tools). */
  cursors?: PageCursors;
}

/** A booking that could not be made, with a sentence the assistant can say. */
export interface BookingRefused {
  reason: BookingRefusal;
  detail: string;
}

/** One day's free slots. */
export interface DaySlots {
  date: string;
  slots: Slot[];
}

/** What `checkAvailability` answers: the day asked, and the next day with a free slot when it has none. */
export interface AvailabilityAnswer {
  timezone: string;
  service: string;
  date: string;
  slots: Slot[];
  /** Only when `slots` is empty: the first later day with a free slot within the horizon, or null. */
  next_free_day?: DaySlots | null;
}

const DETAILS: Record<BookingRefusal, string> = {
  slot_taken: 'That time has just been taken.',
  outside_hours: 'That time is not one of the offered slots (outside opening hours or off the slot grid).',
  too_soon: 'That time is too soon to book.',
  too_far: 'That time is too far ahead to book.',
  unknown_service: 'The business does not offer that service.',
  closed: 'The business is closed that day.',
};

const refused = (reason: BookingRefusal): BookingRefused => ({ reason, detail: DETAILS[reason] });
const MINUTE_MS = 60_000;
/** The furthest the next-free-day search looks (the horizon bounds it too). */
const NEXT_FREE_DAY_SEARCH_DAYS = 60;
/** The next-free-day search reads this many days at a time, stopping at the first with a free slot. */
const SEARCH_WEEK_DAYS = 7;
/** At most this many upcoming bookings come back for one phone number. */
const MAX_FOUND_BY_PHONE = 20;
const END_OF_TIME_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** The API and tool view of a stored booking. */
export function toBooking(record: BookingRecord): Booking {
  return {
    id: record.id,
    call_id: record.call_id,
    assistant_id: record.assistant_id,
    service: record.service,
    start: isoInZone(record.start_ms, record.timezone),
    end: isoInZone(record.end_ms, record.timezone),
    timezone: record.timezone,
    name: record.name,
    phone: record.phone,
    email: record.email,
    notes: record.notes,
    status: record.status,
    created_at: record.created_at,
  };
}

/**
 * Bookings: what the booking tools call during a call (checkAvailability, book, findByPhone,
 * cancel, reschedule) and what the API reads. Time is taken only through slot locks
 * (BookingRepository), so nothing here reads before it writes.
 */
export class BookingService {
  constructor(private readonly deps: BookingServiceDeps) {}

  private async profile(businessId: number): Promise<BusinessProfile> {
    return (await this.deps.businesses.getBusiness(businessId)).profile;
  }

  private async daySlots(
    businessId: number,
    profile: BusinessProfile,
    service: BookableService,
    date: string,
    days: number,
  ): Promise<Slot[]> {
    const zone = profile.timezone;
    const fromMs = DateTime.fromISO(date, { zone }).toMillis();
    const toMs = DateTime.fromISO(date, { zone }).plus({ days }).toMillis();
    const busy = await this.deps.bookings.listBusy(businessId, fromMs, toMs);
    return freeSlots({ profile, service, from: date, days, now: this.deps.now(), busy }).map(({ start, end }) => ({ start, end }));
  }

  /**
   * The first day after `date` with a free slot, within the horizon and {@link NEXT_FREE_DAY_SEARCH_DAYS},
   * read a week at a time: a fully booked business open round the clock on a 5-minute grid would
   * otherwise build ~17,000 slots per call (docs/performance.md, booking tools round trip).
   */
  private async nextFreeDay(
    businessId: number,
    profile: BusinessProfile,
    service: BookableService,
    date: string,
  ): Promise<DaySlots | null> {
    const today = DateTime.fromJSDate(this.deps.now(), { zone: profile.timezone }).startOf('day');
    const first = DateTime.fromISO(date, { zone: profile.timezone }).plus({ days: 1 });
    const last = today.plus({ days: profile.booking.max_days_ahead });
    const days = Math.min(NEXT_FREE_DAY_SEARCH_DAYS, Math.floor(last.diff(first, 'days').days) + 1);
    for (let offset = 0; offset < days; offset += SEARCH_WEEK_DAYS) {
      const from = first.plus({ days: offset }).toISODate()!;
      const slots = await this.daySlots(businessId, profile, service, from, Math.min(SEARCH_WEEK_DAYS, days - offset));
      if (slots.length === 0) continue;
      const day = slots[0]!.start.slice(0, 10);
      return { date: day, slots: slots.filter((slot) => slot.start.startsWith(day)) };
    }
    return null;
  }

  /** The free slots of one local day for a service (default: the first), and the next free day when it has none. */
  async checkAvailability(businessId: number, date: string, serviceName?: string): Promise<AvailabilityAnswer | BookingRefused> {
    if (!DATE_PATTERN.test(date) || !DateTime.fromISO(date).isValid) {
      throw new ValidationError([
        { loc: ['date'], msg: 'Value error, expected YYYY-MM-DD', type: 'value_error', input: date, ctx: { error: 'expected YYYY-MM-DD' } },
      ]);
    }
    const profile = await this.profile(businessId);
    const service = findService(profile, serviceName);
    if (service === undefined) return refused('unknown_service');
    const slots = await this.daySlots(businessId, profile, service, date, 1);
    const answer: AvailabilityAnswer = { timezone: profile.timezone, service: service.name, date, slots };
    if (slots.length === 0) answer.next_free_day = await this.nextFreeDay(businessId, profile, service, date);
    return answer;
  }

  /** GET /availability: `days` days of free slots from `date`. */
  async availability(businessId: number, query: Record<string, string | undefined>): Promise<{ timezone: string; data: Slot[] }> {
    const parsed = parseAvailabilityQuery(query);
    const profile = await this.profile(businessId);
    const service = findService(profile, parsed.service);
    if (service === undefined) {
      const error = `unknown service; offered: ${profile.booking.services.map((s) => s.name).join(', ')}`;
      throw new ValidationError([
        { loc: ['query', 'service'], msg: `Value error, ${error}`, type: 'value_error', input: parsed.service, ctx: { error } },
      ]);
    }
    return { timezone: profile.timezone, data: await this.daySlots(businessId, profile, service, parsed.date, parsed.days) };
  }

  /**
   * Books `input.start` (the business's wall-clock time) for the named service, or says why not.
   * Invalid input (a 5-character name limit, a malformed start) is a ValidationError.
   *
   * @example
   * const result = await bookings.book(7, { start: '2026-11-26T09:30', name: 'Ana', phone: '+15550100002', call_id: 42 });
   * if ('reason' in result) say(result.detail); else confirm(result.start);
   */
  async book(businessId: number, input: BookInput): Promise<Booking | BookingRefused> {
    const args = parseBookInput(input);
    const profile = await this.profile(businessId);
    const service = findService(profile, args.service);
    if (service === undefined) return refused('unknown_service');
    const slot = checkSlot(profile, service, args.start, this.deps.now());
    if ('reason' in slot) return refused(slot.reason);
    const now = this.deps.now().toISOString();
    const record: BookingRecord = {
      id: await this.deps.ids.nextId(),
      call_id: args.call_id ?? null,
      assistant_id: args.assistant_id ?? null,
      service: service.name,
      start_ms: slot.startMs,
      end_ms: slot.endMs,
      blocked_until_ms: slot.blockedUntilMs,
      timezone: profile.timezone,
      name: args.name,
      phone: args.phone ?? null,
      email: args.email ?? null,
      notes: args.notes ?? null,
      status: 'confirmed',
      created_at: now,
      updated_at: now,
      sequence: 0,
    };
    const written = await this.deps.bookings.insertBooking(businessId, record, lockInstants(slot.startMs, slot.blockedUntilMs));
    return written === 'ok' ? toBooking(record) : refused('slot_taken');
  }

  /** A caller's upcoming confirmed bookings (earliest first, at most 20). */
  async findByPhone(businessId: number, phone: string): Promise<Booking[]> {
    const records = await this.deps.bookings.listByPhone(businessId, phone, this.deps.now().getTime(), MAX_FOUND_BY_PHONE * 2);
    return records
      .filter((record) => record.status === 'confirmed')
      .slice(0, MAX_FOUND_BY_PHONE)
      .map(toBooking);
  }

  /** One booking as stored (its SEQUENCE and last change: what a calendar invitation needs), or NotFoundError. */
  async getRecord(businessId: number, bookingId: number): Promise<BookingRecord> {
    const record = await this.deps.bookings.getBooking(businessId, bookingId);
    if (record === undefined) throw new NotFoundError(`Booking ${bookingId} does not exist.`);
    return record;
  }

  /** One booking, or NotFoundError. */
  async get(businessId: number, bookingId: number): Promise<Booking> {
    return toBooking(await this.getRecord(businessId, bookingId));
  }

  /** Cancels a booking and frees its time; cancelling a cancelled booking returns it unchanged. */
  async cancel(businessId: number, bookingId: number): Promise<Booking> {
    const record = await this.getRecord(businessId, bookingId);
    if (record.status === 'cancelled') return toBooking(record);
    const now = this.deps.now().toISOString();
    await this.deps.bookings.cancelBooking(businessId, record, lockInstants(record.start_ms, record.blocked_until_ms), now);
    return toBooking({ ...record, status: 'cancelled', updated_at: now, sequence: record.sequence + 1 });
  }

  /** Moves a confirmed booking to another start (same service), atomically; a refusal leaves it where it was. */
  async reschedule(businessId: number, bookingId: number, start: string): Promise<Booking | BookingRefused> {
    const localStart = parseLocalStart(start);
    const record = await this.getRecord(businessId, bookingId);
    if (record.status !== 'confirmed') throw new ConflictError('booking_cancelled', `Booking ${bookingId} is cancelled.`);
    const profile = await this.profile(businessId);
    const service = findService(profile, record.service) ?? {
      name: record.service,
      duration_min: (record.end_ms - record.start_ms) / MINUTE_MS,
      price: null,
    };
    const slot = checkSlot(profile, service, localStart, this.deps.now());
    if ('reason' in slot) return refused(slot.reason);
    const span = { start_ms: slot.startMs, end_ms: slot.endMs, blocked_until_ms: slot.blockedUntilMs };
    const locks = { old: lockInstants(record.start_ms, record.blocked_until_ms), new: lockInstants(slot.startMs, slot.blockedUntilMs) };
    const now = this.deps.now().toISOString();
    const moved = await this.deps.bookings.moveBooking(businessId, record, span, locks, now);
    if (moved === 'slot_taken') return refused('slot_taken');
    if (moved === 'not_confirmed')
      throw new ConflictError('booking_cancelled', `Booking ${bookingId} is cancelled or was changed meanwhile.`);
    return toBooking({ ...record, ...span, timezone: profile.timezone, updated_at: now, sequence: record.sequence + 1 });
  }

  /** GET /bookings: one page by start time, earliest first: `{data, limit, offset, has_more, next_cursor}`. */
  async list(businessId: number, query: Record<string, string | undefined>) {
    const profile = await this.profile(businessId);
    const { limit, offset, cursor, ...parsed } = parseListBookingsQuery(query, profile.timezone);
    const filter = { fromMs: parsed.fromMs ?? 0, toMs: parsed.toMs ?? END_OF_TIME_MS, status: parsed.status, callId: parsed.callId };
    const cursors = listCursors(this.deps.cursors);
    const scope = { businessId, route: 'bookings', query: filter };
    const after = await openCursor(cursors, scope, cursor);
    const page = await listPage(
      await this.deps.bookings.pageBookings(businessId, filter, { limit, offset, after }),
      toBooking,
      cursors,
      scope,
    );
    return { data: page.data, limit, offset, has_more: page.has_more, next_cursor: page.next_cursor };
  }

  /** Every booking starting in `[fromMs, toMs)`, for the calendar feed. */
  async bookingsBetween(businessId: number, fromMs: number, toMs: number): Promise<BookingRecord[]> {
    return this.deps.bookings.listBookingsByStart(businessId, fromMs, toMs);
  }
}
