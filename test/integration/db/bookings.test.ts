import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { BookingRepository } from '../../../shared/db/booking-repository';
import { BusinessRepository } from '../../../shared/db/business-repository';
import { createDb } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';
import { PageCursors } from '../../../shared/db/page-cursor';
import { keys } from '../../../shared/db/table';
import type { Booking } from '../../../shared/domain/booking';
import { defaultBusinessProfile, type BusinessProfile } from '../../../shared/domain/business-profile';
import { BookingService, type BookingRefused } from '../../../shared/services/booking-service';

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
const ids = new IdAllocator(db);
const businesses = new BusinessRepository(db);
/** Wednesday 25 November 2026, 07:00 in New York. */
const NOW = new Date('2026-11-25T12:00:00Z');
const cursors = new PageCursors(async () => new Uint8Array(32).fill(7));
const service = new BookingService({ businesses, bookings: new BookingRepository(db), ids, now: () => NOW, cursors });

/** A fresh business in New York with the given booking settings. */
async function seedBusiness(booking: Partial<BusinessProfile['booking']> = {}): Promise<number> {
  const id = await ids.nextId();
  const profile = defaultBusinessProfile();
  await businesses.putBusiness({
    id,
    name: 'Bookings',
    created_at: NOW.toISOString(),
    minutes_balance: 10,
    minutes_reserved: 0,
    max_concurrent_calls: 10,
    profile: { ...profile, timezone: 'America/New_York', booking: { ...profile.booking, ...booking } },
    webhook_secret_sealed: 'unused',
  });
  return id;
}

function confirmed(result: Booking | BookingRefused): Booking {
  if ('reason' in result) throw new Error(`refused: ${result.reason}`);
  return result;
}

async function lockCount(businessId: number): Promise<number> {
  const result = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.business(businessId).pk, ':prefix': 'SLOTLOCK#' },
      ConsistentRead: true,
    }),
  );
  return result.Count ?? 0;
}

describe('BookingService against DynamoDB Local', () => {
  it('books one slot exactly once under 25 concurrent attempts', async () => {
    // Arrange
    const businessId = await seedBusiness({ buffer_min: 10 });
    // Act
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        service.book(businessId, { start: '2026-11-26T10:00', name: `Caller ${i}`, phone: '+15550100002' }),
      ),
    );
    // Assert
    const booked = results.filter((result) => !('reason' in result));
    expect(booked).toHaveLength(1);
    expect(results.filter((result) => 'reason' in result && result.reason === 'slot_taken')).toHaveLength(24);
    expect(await lockCount(businessId)).toBe(8);
  });

  it('refuses overlapping starts: a booking holds its end plus the buffer', async () => {
    // Arrange: 30-minute slots every 15 minutes, a 10-minute buffer
    const businessId = await seedBusiness({ slot_step_min: 15, buffer_min: 10 });
    confirmed(await service.book(businessId, { start: '2026-11-26T10:00', name: 'First' }));
    // Act
    const overlapping = await service.book(businessId, { start: '2026-11-26T10:30', name: 'Too close' });
    const before = await service.book(businessId, { start: '2026-11-26T09:30', name: 'Its buffer reaches 10:10' });
    const earlier = await service.book(businessId, { start: '2026-11-26T09:15', name: 'Held until 09:55' });
    const after = await service.book(businessId, { start: '2026-11-26T10:45', name: 'After the buffer' });
    // Assert
    expect(overlapping).toMatchObject({ reason: 'slot_taken' });
    expect(before).toMatchObject({ reason: 'slot_taken' });
    expect(confirmed(after).start).toBe('2026-11-26T10:45:00-05:00');
    expect(confirmed(earlier).start).toBe('2026-11-26T09:15:00-05:00');
  });

  it.each([
    ['closed', { start: '2026-11-28T10:00', name: 'Saturday' }],
    ['outside_hours', { start: '2026-11-26T18:00', name: 'Evening' }],
    ['too_soon', { start: '2026-11-24T10:00', name: 'Yesterday' }],
    ['too_far', { start: '2027-06-01T10:00', name: 'Later' }],
    ['unknown_service', { start: '2026-11-26T10:00', name: 'X', service: 'Surgery' }],
  ])('refuses with %s', async (reason, input) => {
    // Arrange
    const businessId = await seedBusiness();
    // Act / Assert
    expect(await service.book(businessId, input)).toMatchObject({ reason, detail: expect.any(String) });
  });

  it('cancels: the slot is free again and the booking stays, cancelled', async () => {
    // Arrange
    const businessId = await seedBusiness();
    const booking = confirmed(await service.book(businessId, { start: '2026-11-26T11:00', name: 'Ana', call_id: 77 }));
    // Act
    const cancelled = await service.cancel(businessId, booking.id);
    const again = await service.book(businessId, { start: '2026-11-26T11:00', name: 'Ben' });
    // Assert
    expect(cancelled.status).toBe('cancelled');
    expect(confirmed(again).name).toBe('Ben');
    expect((await service.get(businessId, booking.id)).status).toBe('cancelled');
    expect((await service.list(businessId, { call_id: '77' })).data.map((b) => b.id)).toEqual([booking.id]);
  });

  it('reschedules atomically: the new time is taken, the old one freed, a taken time refused', async () => {
    // Arrange
    const businessId = await seedBusiness();
    const booking = confirmed(await service.book(businessId, { start: '2026-11-26T09:00', name: 'Ana' }));
    const other = confirmed(await service.book(businessId, { start: '2026-11-26T14:00', name: 'Ben' }));
    // Act
    const moved = confirmed(await service.reschedule(businessId, booking.id, '2026-11-26T09:30'));
    const refused = await service.reschedule(businessId, booking.id, '2026-11-26T14:00');
    const reuse = await service.book(businessId, { start: '2026-11-26T09:00', name: 'Cleo' });
    // Assert
    expect(moved.start).toBe('2026-11-26T09:30:00-05:00');
    expect(refused).toMatchObject({ reason: 'slot_taken' });
    expect(confirmed(reuse).name).toBe('Cleo');
    expect((await service.get(businessId, booking.id)).start).toBe('2026-11-26T09:30:00-05:00');
    expect((await service.get(businessId, other.id)).status).toBe('confirmed');
    expect(await lockCount(businessId)).toBe(18);
  });

  it('finds a caller’s upcoming bookings by phone', async () => {
    // Arrange
    const businessId = await seedBusiness();
    const mine = confirmed(await service.book(businessId, { start: '2026-11-27T10:00', name: 'Ana', phone: '+15550100009' }));
    confirmed(await service.book(businessId, { start: '2026-11-27T11:00', name: 'Ben', phone: '+15550100008' }));
    // Act / Assert
    expect((await service.findByPhone(businessId, '+15550100009')).map((b) => b.id)).toEqual([mine.id]);
  });

  it('answers a full day with the next day that has a free slot', async () => {
    // Arrange: one slot a day, taken on Thursday
    const businessId = await seedBusiness({ slot_step_min: 30, services: [{ name: 'Day', duration_min: 180, price: null }] });
    await businesses.updateBusiness(businessId, {
      profile: {
        ...defaultBusinessProfile(),
        timezone: 'America/New_York',
        hours: { ...defaultBusinessProfile().hours, thu: [{ start: '09:00', end: '12:00' }], fri: [{ start: '09:00', end: '12:00' }] },
        booking: { ...defaultBusinessProfile().booking, services: [{ name: 'Day', duration_min: 180, price: null }] },
      },
    });
    confirmed(await service.book(businessId, { start: '2026-11-26T09:00', name: 'Ana' }));
    // Act
    const answer = await service.checkAvailability(businessId, '2026-11-26');
    // Assert
    expect(answer).toMatchObject({ slots: [], next_free_day: { date: '2026-11-27', slots: [{ start: '2026-11-27T09:00:00-05:00' }] } });
  });
});
