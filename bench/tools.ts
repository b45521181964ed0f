/**
 * Booking back end benchmark (`npm run bench:tools`): (1) the pure availability computation for
 * one day with 500 bookings over 60 days (target ≤ 10 ms), and for a 14-day window; (2)
 * BookingService.book() against DynamoDB Local, one at a time (p50/p95 of the whole use case:
 * profile read, id, one transaction of the booking and its slot locks); (3) checkAvailability the
 * same way (profile read + one index query + the computation). Numbers go to docs/performance.md.
 */
import { BookingRepository } from '../shared/db/booking-repository';
import { BusinessRepository } from '../shared/db/business-repository';
import { createDb } from '../shared/db/client';
import { ensureTable } from '../shared/db/create-table';
import { IdAllocator } from '../shared/db/ids';
import { findService, freeSlots, type BusyInterval } from '../shared/domain/availability';
import { defaultBusinessProfile, type BusinessProfile } from '../shared/domain/business-profile';
import { BookingService } from '../shared/services/booking-service';
import { startDynamoDbLocal } from '../scripts/local/stand-ins/dynamodb-local';
import { seedBusiness } from './lib/bench-business';

const pct = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const report = (label: string, values: number[]) =>
  console.log(
    `  ${label}: p50 ${pct(values, 50).toFixed(2)} ms  p95 ${pct(values, 95).toFixed(2)} ms  max ${Math.max(...values).toFixed(2)} ms`,
  );

const NOW = new Date('2026-11-25T12:00:00Z');
const PROFILE: BusinessProfile = {
  ...defaultBusinessProfile(),
  timezone: 'America/New_York',
  booking: { ...defaultBusinessProfile().booking, slot_step_min: 15, buffer_min: 5, min_notice_min: 0, max_days_ahead: 90 },
};

/** 500 bookings spread over the 60 days after NOW, in opening hours, some overlapping nothing. */
function busyIntervals(): BusyInterval[] {
  const busy: BusyInterval[] = [];
  for (let i = 0; i < 500; i += 1) {
    const day = Math.floor(i / 8.4);
    const startMs = NOW.getTime() + day * 86_400_000 + (2 + (i % 8)) * 3_600_000;
    busy.push({ startMs, blockedUntilMs: startMs + 35 * 60_000 });
  }
  return busy;
}

function benchAvailability(): void {
  const busy = busyIntervals();
  const service = findService(PROFILE)!;
  const run = (days: number) => {
    const times: number[] = [];
    for (let i = 0; i < 1000; i += 1) {
      const started = performance.now();
      freeSlots({ profile: PROFILE, service, from: '2026-12-10', days, now: NOW, busy });
      times.push(performance.now() - started);
    }
    return times;
  };
  run(1); // warm up
  console.log('availability computation, 500 bookings over 60 days (1,000 runs each):');
  report('one day', run(1));
  report('14 days', run(14));
}

async function benchDynamo(): Promise<void> {
  // BENCH_DYNAMODB_ENDPOINT: a DynamoDB Local already running (its JVM already warm).
  const external = process.env.BENCH_DYNAMODB_ENDPOINT;
  const dynamo = external ? { endpoint: external, stop: async () => undefined } : await startDynamoDbLocal();
  try {
    const db = createDb({ tableName: `bench-tools-${Date.now()}`, region: 'local', endpoint: dynamo.endpoint });
    await ensureTable(db);
    const businesses = new BusinessRepository(db);
    const ids = new IdAllocator(db);
    const businessId = await ids.nextId();
    await seedBusiness(
      db,
      businessId,
      { ...PROFILE, hours: { ...PROFILE.hours, sat: [{ start: '09:00', end: '17:00' }], sun: [{ start: '09:00', end: '17:00' }] } },
      NOW,
    );
    const service = new BookingService({ businesses, bookings: new BookingRepository(db), ids, now: () => NOW });
    const booked: number[] = [];
    const checked: number[] = [];
    for (let i = 0; i < 300; i += 1) {
      const day = new Date(NOW.getTime() + (1 + Math.floor(i / 30)) * 86_400_000).toISOString().slice(0, 10);
      const minute = 9 * 60 + (i % 30) * 15;
      const start = `${day}T${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
      let started = performance.now();
      await service.checkAvailability(businessId, day);
      checked.push(performance.now() - started);
      started = performance.now();
      const result = await service.book(businessId, { start, name: `Caller ${i}` });
      booked.push(performance.now() - started);
      if ('reason' in result && result.reason !== 'slot_taken') throw new Error(`unexpected refusal ${result.reason} at ${start}`);
    }
    console.log('against DynamoDB Local, one at a time (300 each, after 0..300 bookings):');
    report('checkAvailability()', checked.slice(20));
    report('book()', booked.slice(20));
  } finally {
    await dynamo.stop();
  }
}

benchAvailability();
await benchDynamo();
