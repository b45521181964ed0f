import { GetCommand, QueryCommand, TransactWriteCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import type { BusyInterval } from '../domain/availability';
import type { BookingStatus } from '../domain/booking';
import { MAX_BOOKING_SPAN_MINUTES } from '../domain/business-settings';
import type { Db } from './client';
import { isCancelledTransaction, isTransactionConflict } from './conditions';
import { fromItem } from './items';
import { readKeyPage, type KeyPage, type KeyPageRequest } from './key-pages';
import { GSI1, GSI2, TTL_ATTRIBUTE, keys, pageKeyAttributes } from './table';

/** A stored booking: instants in ms, the zone it was made in, and a sequence bumped on every change (iCalendar). */
export interface BookingRecord {
  id: number;
  call_id: number | null;
  assistant_id: number | null;
  service: string;
  start_ms: number;
  end_ms: number;
  /** End plus the buffer in force when it was booked: what its slot locks cover. */
  blocked_until_ms: number;
  timezone: string;
  name: string;
  phone: string | null;
  email: string | null;
  notes: string | null;
  status: BookingStatus;
  created_at: string;
  updated_at: string;
  sequence: number;
}

/** The span a booking moves to (reschedule). */
export interface BookingSpan {
  start_ms: number;
  end_ms: number;
  blocked_until_ms: number;
}

/** Lock items outlive their booking's end by this long, then DynamoDB's TTL removes them (past slots are never offered). */
const LOCK_TTL_AFTER_END_S = 7 * 86_400;
/** Attempts of a transaction that lost only to a concurrent one (not to a condition). */
const CONFLICT_ATTEMPTS = 6;

const iso = (ms: number) => new Date(ms).toISOString();

/** The last instant whose ISO text (`9999-12-31T23:59:59.999Z`) still sorts with the others: later years print as `+010000-…`. */
const LAST_SORTABLE_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * A queried start range as GSI1 sort keys: instants before 1970 or after year 9999 (a client's
 * `from`/`to`, a date far ahead) clamped to where ISO text sorts as time does; null when nothing
 * can lie in it, so DynamoDB is never asked for a BETWEEN whose bounds are reversed.
 */
function startKeyRange(fromMs: number, toMs: number): { from: string; to: string } | null {
  const from = Math.max(0, fromMs);
  const to = Math.min(LAST_SORTABLE_MS, toMs);
  if (!Number.isFinite(from) || !Number.isFinite(to) || from > to) return null;
  return { from: iso(from), to: iso(to) };
}

/** The UTC starts of the 5-minute locks covering `[startMs, blockedUntilMs)` (see `lockInstants`). */
export type LockInstants = readonly number[];

/**
 * Bookings and their slot locks, in the business's partition. Every write that takes, moves or
 * gives back time is one transaction over the booking and its locks: a lock is put only if absent,
 * so two bookings overlapping by even five minutes can never both be written, however many calls
 * try at the same instant (docs/design.md "Bookings").
 */
export class BookingRepository {
  constructor(
    private readonly db: Db,
    private readonly random: () => number = Math.random,
  ) {}

  private lockPut(businessId: number, bookingId: number, at: number, blockedUntilMs: number) {
    return {
      Put: {
        TableName: this.db.tableName,
        Item: {
          ...keys.slotLock(businessId, iso(at)),
          entity: 'slot_lock',
          booking_id: bookingId,
          [TTL_ATTRIBUTE]: Math.ceil(blockedUntilMs / 1000) + LOCK_TTL_AFTER_END_S,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }

  private lockDelete(businessId: number, bookingId: number, at: number) {
    return {
      Delete: {
        TableName: this.db.tableName,
        Key: keys.slotLock(businessId, iso(at)),
        // A lock already expired by TTL is fine; one held by another booking is never ours to drop.
        ConditionExpression: 'attribute_not_exists(pk) OR booking_id = :id',
        ExpressionAttributeValues: { ':id': bookingId },
      },
    };
  }

  /** Runs a transaction, retrying with full jitter while it loses only to concurrent transactions. */
  private async transact(items: Record<string, unknown>[]): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.db.doc.send(new TransactWriteCommand({ TransactItems: items as never }));
        return;
      } catch (error) {
        if (!isTransactionConflict(error) || attempt === CONFLICT_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, this.random() * 10 * 2 ** attempt));
      }
    }
  }

  /** Writes a new booking with every lock of its span; `slot_taken` when any lock is held. */
  async insertBooking(businessId: number, booking: BookingRecord, locks: LockInstants): Promise<'ok' | 'slot_taken'> {
    const item = {
      ...keys.booking(businessId, booking.id),
      ...keys.bookingByStart(businessId, iso(booking.start_ms), booking.id),
      ...(booking.phone ? keys.bookingByPhone(businessId, booking.phone, iso(booking.start_ms), booking.id) : {}),
      entity: 'booking',
      ...booking,
    };
    try {
      await this.transact([
        { Put: { TableName: this.db.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
        ...locks.map((at) => this.lockPut(businessId, booking.id, at, booking.blocked_until_ms)),
      ]);
      return 'ok';
    } catch (error) {
      if (isCancelledTransaction(error) || isTransactionConflict(error)) return 'slot_taken';
      throw error;
    }
  }

  /** One booking, or undefined. */
  async getBooking(businessId: number, bookingId: number): Promise<BookingRecord | undefined> {
    // Strongly consistent: a confirmation reads the booking right after changing it (its new SEQUENCE).
    const result = await this.db.doc.send(
      new GetCommand({ TableName: this.db.tableName, Key: keys.booking(businessId, bookingId), ConsistentRead: true }),
    );
    return result.Item ? fromItem<BookingRecord>(result.Item) : undefined;
  }

  /** Marks a confirmed booking cancelled and gives back its locks, together; `not_confirmed` when it was not confirmed. */
  async cancelBooking(businessId: number, booking: BookingRecord, locks: LockInstants, now: string): Promise<'ok' | 'not_confirmed'> {
    try {
      await this.transact([
        {
          Update: {
            TableName: this.db.tableName,
            Key: keys.booking(businessId, booking.id),
            UpdateExpression: 'SET #status = :cancelled, updated_at = :now, #sequence = #sequence + :one',
            ConditionExpression: '#status = :confirmed',
            ExpressionAttributeNames: { '#status': 'status', '#sequence': 'sequence' },
            ExpressionAttributeValues: { ':cancelled': 'cancelled', ':confirmed': 'confirmed', ':now': now, ':one': 1 },
          },
        },
        ...locks.map((at) => this.lockDelete(businessId, booking.id, at)),
      ]);
      return 'ok';
    } catch (error) {
      if (isCancelledTransaction(error, 0)) return 'not_confirmed';
      throw error;
    }
  }

  /**
   * Moves a confirmed booking to `span` in one transaction: the booking (still at its old start),
   * the locks only the old span held given back, the locks only the new span needs taken. At most
   * 2 × 48 locks + 1 (MAX_BOOKING_SPAN_MINUTES), inside DynamoDB's 100 items.
   */
  async moveBooking(
    businessId: number,
    booking: BookingRecord,
    span: BookingSpan,
    locks: { old: LockInstants; new: LockInstants },
    now: string,
  ): Promise<'ok' | 'slot_taken' | 'not_confirmed'> {
    const release = locks.old.filter((at) => !locks.new.includes(at));
    const take = locks.new.filter((at) => !locks.old.includes(at));
    const startIso = iso(span.start_ms);
    const phoneKeys = booking.phone ? keys.bookingByPhone(businessId, booking.phone, startIso, booking.id) : {};
    const sets = { ...span, ...keys.bookingByStart(businessId, startIso, booking.id), ...phoneKeys, updated_at: now };
    const names = Object.fromEntries(Object.keys(sets).map((field, i) => [`#f${i}`, field]));
    const values = Object.fromEntries(Object.values(sets).map((value, i) => [`:v${i}`, value]));
    try {
      await this.transact([
        {
          Update: {
            TableName: this.db.tableName,
            Key: keys.booking(businessId, booking.id),
            UpdateExpression: `SET ${Object.keys(sets)
              .map((_, i) => `#f${i} = :v${i}`)
              .join(', ')}, #sequence = #sequence + :one`,
            ConditionExpression: '#status = :confirmed AND start_ms = :old',
            ExpressionAttributeNames: { ...names, '#status': 'status', '#sequence': 'sequence' },
            ExpressionAttributeValues: { ...values, ':confirmed': 'confirmed', ':old': booking.start_ms, ':one': 1 },
          },
        },
        ...release.map((at) => this.lockDelete(businessId, booking.id, at)),
        ...take.map((at) => this.lockPut(businessId, booking.id, at, span.blocked_until_ms)),
      ]);
      return 'ok';
    } catch (error) {
      if (isCancelledTransaction(error, 0)) return 'not_confirmed';
      if (isCancelledTransaction(error) || isTransactionConflict(error)) return 'slot_taken';
      throw error;
    }
  }

  /** Bookings starting in `[fromMs, toMs)` (GSI1), earliest first; every page read. */
  async listBookingsByStart(businessId: number, fromMs: number, toMs: number, projection?: string): Promise<BookingRecord[]> {
    const records: BookingRecord[] = [];
    const range = startKeyRange(fromMs, toMs);
    if (range === null) return records;
    const pages = paginateQuery(
      { client: this.db.doc },
      {
        TableName: this.db.tableName,
        IndexName: GSI1,
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': keys.bookingByStartPartition(businessId), ':from': range.from, ':to': range.to },
        ...(projection ? { ProjectionExpression: projection, ExpressionAttributeNames: { '#status': 'status' } } : {}),
      },
    );
    for await (const page of pages) records.push(...(page.Items ?? []).map((item) => fromItem<BookingRecord>(item)));
    return records.filter((record) => record.start_ms < toMs);
  }

  /**
   * GET /bookings: one page of bookings starting in `[fromMs, toMs)`, earliest first, matching the
   * filters (applied by DynamoDB), read by key (at most `MAX_EXAMINED_PER_PAGE` examined per page).
   */
  async pageBookings(
    businessId: number,
    filter: { fromMs: number; toMs: number; status?: BookingStatus; callId?: number },
    request: KeyPageRequest,
  ): Promise<KeyPage<BookingRecord>> {
    const range = startKeyRange(filter.fromMs, filter.toMs);
    if (range === null) return { entries: [], next: undefined };
    const conditions: string[] = [];
    const values: Record<string, unknown> = {
      ':pk': keys.bookingByStartPartition(businessId),
      ':from': range.from,
      ':to': range.to,
      ':toMs': filter.toMs,
    };
    if (filter.status) {
      conditions.push('#status = :status');
      values[':status'] = filter.status;
    }
    if (filter.callId) {
      conditions.push('call_id = :call');
      values[':call'] = filter.callId;
    }
    const query = {
      IndexName: GSI1,
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
      FilterExpression: ['start_ms < :toMs', ...conditions].join(' AND '),
      ...(filter.status ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
      ExpressionAttributeValues: values,
    };
    return readKeyPage<BookingRecord>(this.db, query, pageKeyAttributes(GSI1), request);
  }

  /**
   * What confirmed bookings hold between two instants: those starting up to the longest span
   * before `fromMs` can still reach into it.
   */
  async listBusy(businessId: number, fromMs: number, toMs: number): Promise<BusyInterval[]> {
    const records = await this.listBookingsByStart(
      businessId,
      fromMs - MAX_BOOKING_SPAN_MINUTES * 60_000,
      toMs,
      'start_ms, blocked_until_ms, #status',
    );
    return records
      .filter((record) => record.status === 'confirmed' && record.blocked_until_ms > fromMs)
      .map((record) => ({ startMs: record.start_ms, blockedUntilMs: record.blocked_until_ms }));
  }

  /** A caller's bookings starting at or after `fromMs` (GSI2), earliest first, at most `limit`. */
  async listByPhone(businessId: number, phone: string, fromMs: number, limit: number): Promise<BookingRecord[]> {
    const result = await this.db.doc.send(
      new QueryCommand({
        TableName: this.db.tableName,
        IndexName: GSI2,
        KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk >= :from',
        ExpressionAttributeValues: { ':pk': keys.bookingByPhonePartition(businessId, phone), ':from': iso(fromMs) },
        Limit: limit,
      }),
    );
    return (result.Items ?? []).map((item) => fromItem<BookingRecord>(item));
  }
}
