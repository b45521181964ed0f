import { DateTime } from 'luxon';
import * as v from 'valibot';
import { ValidationError } from '../errors';
import { LOCAL_START_PATTERN } from './availability';
import { DATE_PATTERN } from './business-settings';
import { nextCursorField, offsetWithCursorItems, pageQueryFields, parseListQuery } from './paging';
import { E164_PATTERN } from './phone-number';
import { idField, intField, strictDict, stringField, timestampField } from './validation';
import { parseWith } from './validation-errors';

/** The days of bookings GET /bookings.ics and the secret calendar feed show: this many back from now, and ahead. */
export const CALENDAR_FEED_DAYS = { past: 90, future: 400 } as const;

/** A booking's `status`: cancelled bookings stay listed (and in the calendar feed, as cancelled). */
export const BOOKING_STATUSES = ['confirmed', 'cancelled'] as const;

/** One of {@link BOOKING_STATUSES}. */
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Why `book` or `reschedule` refused: what the assistant tells the caller. */
export const BOOKING_REFUSALS = ['slot_taken', 'outside_hours', 'too_soon', 'too_far', 'unknown_service', 'closed'] as const;

/** One of {@link BOOKING_REFUSALS}. */
export type BookingRefusal = (typeof BOOKING_REFUSALS)[number];

const localStart = () => v.pipe(stringField({ pattern: LOCAL_START_PATTERN }), v.metadata({ examples: ['2026-11-26T09:30'] }));

/**
 * What `book` takes (the booking tool's arguments plus the call it is made on): `start` is the
 * business's wall-clock time, `YYYY-MM-DDTHH:MM`.
 */
export const BookInputSchema = strictDict({
  start: localStart(),
  name: stringField({ min: 1, max: 120 }),
  service: v.optional(stringField({ max: 80 })),
  phone: v.optional(stringField({ pattern: E164_PATTERN })),
  email: v.optional(stringField({ max: 254 })),
  notes: v.optional(stringField({ max: 1000, lines: true })),
  call_id: v.optional(idField()),
  assistant_id: v.optional(idField()),
});

/** A `book` request before validation. */
export type BookInput = v.InferInput<typeof BookInputSchema>;

/** Validates a `book` request (422 items under `loc`, `['body']` by default). */
export function parseBookInput(input: unknown, loc: (string | number)[] = ['body']): v.InferOutput<typeof BookInputSchema> {
  return parseWith(BookInputSchema, input, loc);
}

/** A local start time as `reschedule` takes it. */
export function parseLocalStart(start: unknown, loc: (string | number)[] = ['body', 'start']): string {
  return parseWith(localStart(), start, loc);
}

/** A booking as the API returns it; `start`/`end` ISO 8601 with the business's UTC offset. */
export const BookingSchema = strictDict({
  id: idField(),
  call_id: v.nullable(idField()),
  assistant_id: v.nullable(idField()),
  service: v.string(),
  start: v.pipe(v.string(), v.metadata({ examples: ['2026-11-26T09:00:00-05:00'] })),
  end: v.pipe(v.string(), v.metadata({ examples: ['2026-11-26T09:30:00-05:00'] })),
  timezone: v.string(),
  name: v.string(),
  phone: v.nullable(v.string()),
  email: v.nullable(v.string()),
  notes: v.nullable(v.string()),
  status: v.picklist(BOOKING_STATUSES),
  created_at: timestampField(),
});

/** A booking. */
export type Booking = v.InferOutput<typeof BookingSchema>;

/** GET /bookings: one page, by start time (earliest first). */
export const BookingsPageSchema = strictDict({
  data: v.array(BookingSchema),
  limit: intField(),
  offset: intField(),
  has_more: v.boolean(),
  next_cursor: nextCursorField(),
});

/** GET /availability: the free slots of the days asked, as the assistant offers them. */
export const AvailabilitySchema = strictDict({
  timezone: v.string(),
  data: v.array(strictDict({ start: v.string(), end: v.string() })),
});

/** `YYYY-MM-DD` (the business's local day) or an ISO 8601 timestamp with an offset. */
const instantOrDate = () => v.pipe(stringField({ max: 40 }), v.metadata({ examples: ['2026-11-26', '2026-11-26T09:00:00-05:00'] }));

/** GET /bookings query parameters. */
export const ListBookingsQuerySchema = v.object({
  from: v.optional(instantOrDate()),
  to: v.optional(instantOrDate()),
  status: v.optional(v.picklist(BOOKING_STATUSES)),
  call_id: v.optional(idField()),
  ...pageQueryFields(200, 50),
});

/** GET /availability query parameters. */
export const AvailabilityQuerySchema = v.object({
  date: v.pipe(stringField({ pattern: DATE_PATTERN }), v.metadata({ examples: ['2026-11-26'] })),
  service: v.optional(stringField({ max: 80 })),
  days: v.optional(intField({ ge: 1, le: 14 }), 1),
});

/** A validated GET /bookings query, `from`/`to` as instants (ms). */
export interface ListBookingsQuery {
  fromMs?: number;
  toMs?: number;
  status?: BookingStatus;
  callId?: number;
  limit: number;
  offset: number;
  cursor?: string;
}

/** `from` (a date: its start) or `to` (a date: its end) in the business's zone, as ms; undefined when unreadable. */
function boundMs(value: string, zone: string, edge: 'from' | 'to'): number | undefined {
  const parsed = DATE_PATTERN.test(value) ? DateTime.fromISO(value, { zone }) : DateTime.fromISO(value, { setZone: true });
  if (!parsed.isValid || (!DATE_PATTERN.test(value) && !/(?:Z|[+-]\d{2}:?\d{2})$/.test(value))) return undefined;
  return edge === 'to' && DATE_PATTERN.test(value) ? parsed.endOf('day').toMillis() + 1 : parsed.toMillis();
}

/** Parses GET /bookings (dates read in the business's `zone`; timestamps need an offset). */
export function parseListBookingsQuery(query: Record<string, string | undefined>, zone: string): ListBookingsQuery {
  const parsed = parseListQuery(ListBookingsQuerySchema, new Set(['call_id', 'limit', 'offset']), query, (values) =>
    offsetWithCursorItems(values, query),
  );
  const range: Pick<ListBookingsQuery, 'fromMs' | 'toMs'> = {};
  for (const edge of ['from', 'to'] as const) {
    const raw = parsed[edge];
    if (raw === undefined) continue;
    const ms = boundMs(raw, zone, edge);
    if (ms === undefined) {
      const error = 'expected YYYY-MM-DD or an ISO 8601 timestamp with an offset';
      throw new ValidationError([{ loc: ['query', edge], msg: `Value error, ${error}`, type: 'value_error', input: raw, ctx: { error } }]);
    }
    range[edge === 'from' ? 'fromMs' : 'toMs'] = ms;
  }
  if (range.fromMs !== undefined && range.toMs !== undefined && range.fromMs > range.toMs) {
    const error = 'from must not be after to';
    throw new ValidationError([
      { loc: ['query', 'from'], msg: `Value error, ${error}`, type: 'value_error', input: parsed.from, ctx: { error } },
    ]);
  }
  return { ...range, status: parsed.status, callId: parsed.call_id, limit: parsed.limit, offset: parsed.offset, cursor: parsed.cursor };
}

/** Parses GET /availability; `date` must exist (no 30 February, no month 13). */
export function parseAvailabilityQuery(query: Record<string, string | undefined>): v.InferOutput<typeof AvailabilityQuerySchema> {
  const parsed = parseListQuery(AvailabilityQuerySchema, new Set(['days']), query);
  if (!DateTime.fromISO(parsed.date).isValid) {
    const error = 'expected a real date, YYYY-MM-DD';
    throw new ValidationError([
      { loc: ['query', 'date'], msg: `Value error, ${error}`, type: 'value_error', input: parsed.date, ctx: { error } },
    ]);
  }
  return parsed;
}
