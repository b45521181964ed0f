import type { BookingRecord } from '../../shared/db/booking-repository';

/**
 * A stored booking for pure tests: #41, a 30-minute Cleaning on Friday 27 November 2026 at 10:00
 * in New York (15:00Z), booked on call 2 by Sam Lee from +14155550100, SEQUENCE 0, unless
 * `changes` say otherwise.
 */
export function bookingRecord(changes: Partial<BookingRecord> = {}): BookingRecord {
  return {
    id: 41,
    call_id: 2,
    assistant_id: 3,
    service: 'Cleaning',
    start_ms: Date.parse('2026-11-27T15:00:00Z'),
    end_ms: Date.parse('2026-11-27T15:30:00Z'),
    blocked_until_ms: Date.parse('2026-11-27T15:30:00Z'),
    timezone: 'America/New_York',
    name: 'Sam Lee',
    phone: '+14155550100',
    email: null,
    notes: null,
    status: 'confirmed',
    created_at: '2026-11-26T14:00:00.000Z',
    updated_at: '2026-11-26T14:00:00.000Z',
    sequence: 0,
    ...changes,
  };
}
