import { describe, expect, inject, it } from 'vitest';
import { realTimers } from '../../../media-service/src/server/session-defaults';
import { CallAllowance } from '../../../media-service/src/tools/call-allowance';
import { offeredTools } from '../../../media-service/src/tools/registry';
import { tableBackedToolPorts } from '../../../media-service/src/tools/tool-ports';
import { ToolRunner } from '../../../media-service/src/tools/tool-runner';
import { BusinessRepository } from '../../../shared/db/business-repository';
import { createDb } from '../../../shared/db/client';
import { IdAllocator } from '../../../shared/db/ids';
import { defaultAssistantConfig } from '../../../shared/domain/assistant-config';
import { defaultBusinessProfile } from '../../../shared/domain/business-profile';
import { unusedPorts } from '../../support/tool-runner';
import { silentLogger } from '../../../shared/log';

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
const ids = new IdAllocator(db);
/** Thursday 26 November 2026, 09:00 in New York. */
const NOW = new Date('2026-11-26T14:00:00Z');
/** The booking tools send no texts or email: senders that reject if one is ever attempted. */
const NO_TEXTS = { sms: unusedPorts().sms, email: unusedPorts().email };
const ports = tableBackedToolPorts(db, ids, silentLogger, NO_TEXTS, () => NOW);
const CALLER = '+14155550101';
const OTHER = '+14155550102';

/** A fresh business in New York, open Mon–Fri 09:00–17:00, one 30-minute service `Cleaning`. */
async function seedBusiness(closedDates: string[] = []): Promise<number> {
  const id = await ids.nextId();
  const profile = defaultBusinessProfile();
  await new BusinessRepository(db).putBusiness({
    id,
    name: 'Booking tools',
    created_at: NOW.toISOString(),
    minutes_balance: 10,
    minutes_reserved: 0,
    max_concurrent_calls: 10,
    profile: {
      ...profile,
      timezone: 'America/New_York',
      closed_dates: closedDates,
      booking: { ...profile.booking, services: [{ name: 'Cleaning', duration_min: 30, price: null }] },
    },
    webhook_secret_sealed: 'unused',
  });
  return id;
}

/** One call's runner of the booking tools, the way the call engine builds it. */
function callOn(businessId: number, partyNumber = CALLER, callId = 900) {
  const config = defaultAssistantConfig();
  const runner = new ToolRunner({
    tools: offeredTools(config, null).actions,
    context: {
      businessId,
      callId,
      assistantId: 7,
      partyNumber,
      businessNumber: '+15550100001',
      allowance: new CallAllowance(),
      profile: null,
      config,
      ports,
    },
    now: () => performance.now(),
    t0: performance.now(),
    timers: realTimers,
    log: silentLogger,
  });
  return async (name: string, args: object) =>
    JSON.parse(await runner.run({ name, arguments: JSON.stringify(args) })) as Record<string, any>;
}

describe.concurrent('the booking tools on DynamoDB Local', () => {
  it('checks a day, books it under the caller with the call and assistant, and the time is gone', async () => {
    // Arrange
    const businessId = await seedBusiness();
    const tool = callOn(businessId);
    // Act
    const before = await tool('check_availability', { date: '2026-11-27' });
    const booked = await tool('book_appointment', { start: '2026-11-27T10:00', name: 'Sam Lee' });
    const after = await tool('check_availability', { date: '2026-11-27', service: 'cleaning' });
    // Assert
    expect(before).toMatchObject({
      timezone: 'America/New_York',
      service: 'Cleaning',
      date: '2026-11-27',
      weekday: 'Friday',
      more_free_times: 0,
    });
    expect(before.free_times).toHaveLength(16);
    expect(booked).toEqual({
      booked: true,
      booking_id: expect.any(Number),
      service: 'Cleaning',
      date: '2026-11-27',
      weekday: 'Friday',
      time: '10:00',
      end_time: '10:30',
      name: 'Sam Lee',
      status: 'confirmed',
      // Texts off, no address given, no team address: nothing sent, and the model is told to read the details out.
      confirmation: { sms: 'off', email: 'none', team: 'none' },
      confirmation_note:
        'This assistant does not send texts, so no confirmation text was sent. Nothing in writing went to the caller: read the details out.',
    });
    expect(after.free_times).toEqual(before.free_times.filter((time: string) => time !== '10:00'));
    const stored = await ports.bookings.get(businessId, booked.booking_id);
    expect(stored).toMatchObject({ call_id: 900, assistant_id: 7, phone: CALLER, start: '2026-11-27T10:00:00-05:00' });
  });

  it('answers a closed day with the next free day', async () => {
    // Arrange
    const tool = callOn(await seedBusiness());
    // Act
    const saturday = await tool('check_availability', { date: '2026-11-28' });
    // Assert
    expect(saturday).toMatchObject({ date: '2026-11-28', weekday: 'Saturday', free_times: [] });
    expect(saturday.next_free_day).toMatchObject({ date: '2026-11-30', weekday: 'Monday' });
    expect(saturday.next_free_day.free_times[0]).toBe('09:00');
  });

  it('looks past a closed fortnight for the next free day (the search reads a week at a time)', async () => {
    // Arrange: closed from Friday 27 November to Tuesday 8 December
    const closed = Array.from({ length: 12 }, (_, i) => new Date(Date.UTC(2026, 10, 27 + i)).toISOString().slice(0, 10));
    const tool = callOn(await seedBusiness(closed));
    // Act
    const answer = await tool('check_availability', { date: '2026-11-27' });
    // Assert
    expect(answer).toMatchObject({ free_times: [], next_free_day: { date: '2026-12-09', weekday: 'Wednesday' } });
  });

  it.each([
    ['slot taken', '2026-11-27T10:00', 'slot_taken', ['09:00', '09:30', '10:30', '11:00', '11:30', '12:00']],
    ['outside hours', '2026-11-27T18:00', 'outside_hours', ['09:00', '09:30', '10:30', '11:00', '11:30', '12:00']],
    ['too soon', '2026-11-26T09:30', 'too_soon', expect.any(Array)],
    ['closed day', '2026-11-28T10:00', 'closed', undefined],
    ['too far ahead', '2027-03-01T10:00', 'too_far', undefined],
  ])('refuses plainly: %s', async (_name, start, reason, other) => {
    // Arrange: Friday 10:00 is already someone else's
    const businessId = await seedBusiness();
    await callOn(businessId, OTHER, 901)('book_appointment', { start: '2026-11-27T10:00', name: 'Ana Ruiz' });
    // Act
    const answer = await callOn(businessId)('book_appointment', { start, name: 'Sam Lee', service: 'Cleaning' });
    // Assert
    expect(answer).toMatchObject({ booked: false, reason, detail: expect.any(String) });
    expect(answer.other_free_times).toEqual(other);
  });

  it('refuses a service the business does not offer', async () => {
    // Act
    const answer = await callOn(await seedBusiness())('book_appointment', { start: '2026-11-27T10:00', name: 'Sam', service: 'Massage' });
    // Assert
    expect(answer).toEqual({ booked: false, reason: 'unknown_service', detail: 'The business does not offer that service.' });
  });

  it("never reaches another caller's booking, by guessing its id or from another business", async () => {
    // Arrange: Ana's booking, and one of Sam's at another business
    const businessId = await seedBusiness();
    const ana = await callOn(businessId, OTHER, 902)('book_appointment', { start: '2026-11-27T11:00', name: 'Ana Ruiz' });
    const elsewhere = await callOn(await seedBusiness(), CALLER, 903)('book_appointment', { start: '2026-11-27T11:00', name: 'Sam Lee' });
    const sam = callOn(businessId, CALLER, 904);
    // Act
    const cancelAna = await sam('cancel_appointment', { booking_id: ana.booking_id });
    const moveAna = await sam('reschedule_appointment', { booking_id: ana.booking_id, start: '2026-11-30T09:00' });
    const cancelElsewhere = await sam('cancel_appointment', { booking_id: elsewhere.booking_id });
    const found = await sam('find_appointments', {});
    // Assert: refused exactly like an id that does not exist, and nothing changed
    expect(cancelAna).toMatchObject({ cancelled: false, reason: 'not_found' });
    expect(moveAna).toMatchObject({ moved: false, reason: 'not_found' });
    expect(cancelElsewhere).toMatchObject({ cancelled: false, reason: 'not_found' });
    expect(found).toEqual({ appointments: [] });
    expect((await ports.bookings.get(businessId, ana.booking_id)).status).toBe('confirmed');
  });

  it("finds the caller's bookings, moves one and cancels it; a booking found under another number is named without its name", async () => {
    // Arrange
    const businessId = await seedBusiness();
    const booked = await callOn(businessId, CALLER, 905)('book_appointment', { start: '2026-11-27T10:00', name: 'Sam Lee' });
    const sam = callOn(businessId, CALLER, 906);
    // Act
    const found = await sam('find_appointments', {});
    const byOtherLine = await callOn(businessId, OTHER, 907)('find_appointments', { phone: CALLER, name: 'sam' });
    const moved = await sam('reschedule_appointment', { booking_id: booked.booking_id, start: '2026-11-30T14:00' });
    const cancelled = await sam('cancel_appointment', { booking_id: booked.booking_id });
    // Assert
    expect(found.appointments).toEqual([expect.objectContaining({ booking_id: booked.booking_id, time: '10:00', name: 'Sam Lee' })]);
    expect(moved).toMatchObject({ moved: true, date: '2026-11-30', weekday: 'Monday', time: '14:00' });
    expect(cancelled).toMatchObject({ cancelled: true, status: 'cancelled' });
    expect(byOtherLine.appointments).toEqual([expect.objectContaining({ booking_id: booked.booking_id, time: '10:00' })]);
    expect(byOtherLine.appointments[0]).not.toHaveProperty('name');
  });

  it("another number's bookings are found only with the name they were made under, and a call tries at most two numbers", async () => {
    // Arrange: Sam's booking under CALLER; Eve calls from OTHER
    const businessId = await seedBusiness();
    const booked = await callOn(businessId, CALLER, 910)('book_appointment', { start: '2026-11-27T10:00', name: 'Sam Lee' });
    const eve = callOn(businessId, OTHER, 911);
    // Act
    const numberOnly = await eve('find_appointments', { phone: CALLER });
    const wrongName = await eve('find_appointments', { phone: CALLER, name: 'Ana' });
    const cancelAfterGuess = await eve('cancel_appointment', { booking_id: booked.booking_id });
    const rightName = await eve('find_appointments', { phone: CALLER, name: 'Sam Lee' });
    const third = await eve('find_appointments', { phone: '+14155550103', name: 'Sam' });
    // Assert: nothing seen or reachable without the name; the lookups are capped per call
    expect(numberOnly).toEqual({ appointments: [], detail: expect.stringContaining('name the appointment was booked under') });
    expect(wrongName).toEqual({ appointments: [] });
    expect(cancelAfterGuess).toMatchObject({ cancelled: false, reason: 'not_found' });
    expect((await ports.bookings.get(businessId, booked.booking_id)).status).toBe('confirmed');
    expect(rightName.appointments).toEqual([expect.objectContaining({ booking_id: booked.booking_id })]);
    expect(third).toEqual({ appointments: [], detail: expect.stringContaining('cannot look up any more numbers') });
  });

  it('books at most three times a call (a refused time does not count), so one caller cannot fill the calendar', async () => {
    // Arrange
    const businessId = await seedBusiness();
    const tool = callOn(businessId, CALLER, 912);
    await tool('book_appointment', { start: '2026-11-27T10:00', name: 'Sam Lee' });
    // Act
    const taken = await tool('book_appointment', { start: '2026-11-27T10:00', name: 'Sam Lee' });
    const second = await tool('book_appointment', { start: '2026-11-27T11:00', name: 'Sam Lee' });
    const third = await tool('book_appointment', { start: '2026-11-27T12:00', name: 'Sam Lee' });
    const fourth = await tool('book_appointment', { start: '2026-11-27T13:00', name: 'Sam Lee' });
    // Assert
    expect(taken).toMatchObject({ booked: false, reason: 'slot_taken' });
    expect([second.booked, third.booked]).toEqual([true, true]);
    expect(fourth).toEqual({ error: expect.stringContaining('already made 3 bookings') });
    const free = await tool('check_availability', { date: '2026-11-27' });
    expect(free.free_times).toContain('13:00');
  });

  it('a call from a hidden number books without a phone and asks which number to look up', async () => {
    // Arrange
    const businessId = await seedBusiness();
    const hidden = callOn(businessId, 'anonymous', 908);
    // Act
    const booked = await hidden('book_appointment', { start: '2026-11-27T10:00', name: 'Sam Lee' });
    const found = await hidden('find_appointments', {});
    const cancelled = await hidden('cancel_appointment', { booking_id: booked.booking_id });
    // Assert: its own booking stays in reach (made on this call)
    expect((await ports.bookings.get(businessId, booked.booking_id)).phone).toBeNull();
    expect(found.appointments).toEqual([]);
    expect(cancelled).toMatchObject({ cancelled: true });
  });

  it.each([
    ['check_availability', { date: '2026-02-30' }, 'date'],
    ['check_availability', { date: 'Friday' }, 'date'],
    ['book_appointment', { start: '2026-11-27 10:00', name: 'Sam' }, 'start'],
    ['book_appointment', { start: '2026-11-27T10:00', name: '' }, 'name'],
    ['book_appointment', { start: '2026-11-27T10:00', name: 'Sam', phone: '415 555 0101' }, 'phone'],
    ['book_appointment', { start: '2026-11-27T10:00', name: 'x'.repeat(121) }, 'name'],
    ['cancel_appointment', { booking_id: 'seven' }, 'booking_id'],
    ['reschedule_appointment', { booking_id: 1 }, 'start'],
    ['find_appointments', { phone: '+1', extra: true }, 'phone'],
  ])('%s rejects bad arguments by field, without echoing them: %j', async (name, args, field) => {
    // Act
    const answer = await callOn(await seedBusiness())(name, args);
    // Assert
    expect(answer.error).toMatch(new RegExp(`^The arguments were not valid \\(${field}: `));
    expect(answer.error).not.toContain('415 555');
  });

  it('a booking system that does not answer is told in plain words', async () => {
    // Arrange: a table that does not exist
    const broken = tableBackedToolPorts(
      createDb({ tableName: 'no-such-table', region: 'us-east-1', endpoint: inject('dynamoEndpoint') }),
      ids,
      silentLogger,
      NO_TEXTS,
    );
    const config = defaultAssistantConfig();
    const runner = new ToolRunner({
      tools: offeredTools(config, null).actions,
      context: {
        businessId: 1,
        callId: 1,
        assistantId: 1,
        partyNumber: CALLER,
        businessNumber: '+15550100001',
        allowance: new CallAllowance(),
        profile: null,
        config,
        ports: broken,
      },
      now: () => performance.now(),
      t0: 0,
      timers: realTimers,
      log: silentLogger,
    });
    // Act
    const answer = JSON.parse(await runner.run({ name: 'book_appointment', arguments: '{"start":"2026-11-27T10:00","name":"Sam"}' }));
    // Assert
    expect(answer).toEqual({
      error: 'The booking system did not answer, so nothing was booked. Apologise, and offer to take a message so the team can book it.',
    });
    expect(runner.actions()[0]).toMatchObject({ name: 'book_appointment', ok: false });
  });
});
