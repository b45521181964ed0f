import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  BookAppointmentArgsSchema,
  CancelAppointmentArgsSchema,
  CheckAvailabilityArgsSchema,
  FindAppointmentsArgsSchema,
  RescheduleAppointmentArgsSchema,
  todayLine,
} from '../../../shared/domain/booking-tools';

const valid = (schema: v.GenericSchema, input: unknown) => v.safeParse(schema, input).success;

describe('booking tool arguments', () => {
  it.each([
    [CheckAvailabilityArgsSchema, { date: '2026-11-27' }, true],
    [CheckAvailabilityArgsSchema, { date: '2026-11-27', service: 'Cleaning' }, true],
    [CheckAvailabilityArgsSchema, { date: '2026-02-30' }, false],
    [CheckAvailabilityArgsSchema, { date: '27/11/2026' }, false],
    [CheckAvailabilityArgsSchema, { date: '2026-11-27', service: 'x'.repeat(81) }, false],
    [CheckAvailabilityArgsSchema, { date: '2026-11-27', day: 'Friday' }, false],
    [BookAppointmentArgsSchema, { start: '2026-11-27T10:00', name: 'Sam Lee' }, true],
    [
      BookAppointmentArgsSchema,
      { start: '2026-11-27T10:00', name: 'Sam', phone: '+14155550101', email: 'a@b.c', notes: 'first visit' },
      true,
    ],
    [BookAppointmentArgsSchema, { start: '2026-11-27T25:00', name: 'Sam' }, false],
    [BookAppointmentArgsSchema, { start: '2026-11-27T10:00:00-05:00', name: 'Sam' }, false],
    [BookAppointmentArgsSchema, { start: '2026-11-27T10:00', name: 'Sam', call_id: 5 }, false],
    [BookAppointmentArgsSchema, { start: '2026-11-27T10:00' }, false],
    [BookAppointmentArgsSchema, { start: '2026-11-27T10:00', name: 'Sam', notes: 'x'.repeat(1001) }, false],
    [FindAppointmentsArgsSchema, {}, true],
    [FindAppointmentsArgsSchema, { phone: '4155550101' }, false],
    [FindAppointmentsArgsSchema, { phone: '+14155550101', name: 'Sam Lee' }, true],
    [FindAppointmentsArgsSchema, { phone: '+14155550101', name: 'S' }, false],
    [CancelAppointmentArgsSchema, { booking_id: 41 }, true],
    [CancelAppointmentArgsSchema, { booking_id: 0 }, false],
    [CancelAppointmentArgsSchema, { booking_id: '41' }, false],
    [RescheduleAppointmentArgsSchema, { booking_id: 41, start: '2026-11-30T14:00' }, true],
    [RescheduleAppointmentArgsSchema, { booking_id: 41 }, false],
    [CancelAppointmentArgsSchema, [41], false],
  ])('%#: %j → %s', (schema, input, expected) => {
    // Act / Assert
    expect(valid(schema as v.GenericSchema, input)).toBe(expected);
  });
});

describe('todayLine', () => {
  it.each([
    ['2026-11-26T14:05:00Z', 'America/New_York', 'Today is Thursday 2026-11-26 and the time is 09:05'],
    ['2026-11-27T03:00:00Z', 'America/Los_Angeles', 'Today is Thursday 2026-11-26 and the time is 19:00'],
    ['2026-11-26T23:30:00Z', 'Asia/Tokyo', 'Today is Friday 2026-11-27 and the time is 08:30'],
    // The spring change in New York: 07:30 UTC is 03:30 EDT on 8 March 2026.
    ['2026-03-08T07:30:00Z', 'America/New_York', 'Today is Sunday 2026-03-08 and the time is 03:30'],
  ])('%s in %s', (now, zone, expected) => {
    // Act / Assert
    expect(todayLine(new Date(now), zone)).toContain(`${expected} in the business's time zone (${zone}).`);
  });
});
