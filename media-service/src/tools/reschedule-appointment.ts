import type * as v from 'valibot';
import { RescheduleAppointmentArgsSchema } from '../../../shared/domain/booking-tools';
import { ConflictError } from '../../../shared/errors';
import { confirmedResult } from './booking-confirmation';
import { BOOKING_ID_PARAMETER, NOT_FOUND, reachableBooking, refusalView, startParameter } from './booking-view';
import type { BuiltinTool } from './tool-types';

type Args = v.InferOutput<typeof RescheduleAppointmentArgsSchema>;

const CANCELLED = { reason: 'cancelled', detail: 'That booking is cancelled, so it cannot be moved. Offer to book a new time.' } as const;

/**
 * `reschedule_appointment` (builtin `booking`): moves one of the caller's bookings to another free
 * start, in one step (a refusal leaves it where it was), then confirms the move to the caller and
 * the team (booking-confirmation.ts).
 */
export const rescheduleAppointment: BuiltinTool<Args> = {
  offeredBy: 'booking',
  definition: {
    name: 'reschedule_appointment',
    description:
      "Move one of the caller's appointments to another time. Find it first with find_appointments and check the new day with " +
      'check_availability; confirm the old and the new day and time with the caller first. If it is refused, the appointment stays ' +
      'where it was: say why and offer another free time.',
    parameters: {
      type: 'object',
      properties: {
        booking_id: BOOKING_ID_PARAMETER,
        start: startParameter('The new start, YYYY-MM-DDTHH:MM, in the business time zone.'),
      },
      required: ['booking_id', 'start'],
      additionalProperties: false,
    },
  },
  args: RescheduleAppointmentArgsSchema,
  // The move (~10–50 ms) and its confirmations (at most CONFIRMATION_TIMEOUT_MS, 4 s).
  timeoutMs: 10_000,
  unavailable: 'The booking system did not answer, so the appointment was not moved. Apologise, and offer to take a message.',
  async execute(args, context) {
    const booking = await reachableBooking(context, args.booking_id);
    if (booking === undefined) return { output: { moved: false, ...NOT_FOUND }, summary: 'refused: not_found' };
    const result = await context.ports.bookings.reschedule(context.businessId, booking.id, args.start).catch((error: unknown) => {
      if (error instanceof ConflictError) return CANCELLED;
      throw error;
    });
    if ('reason' in result) return { output: { moved: false, ...refusalView(result) }, summary: `refused: ${result.reason}` };
    return confirmedResult(context, result, 'moved', { moved: true }, `appointment ${booking.id} moved`);
  },
};
