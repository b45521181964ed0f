import type * as v from 'valibot';
import { CancelAppointmentArgsSchema } from '../../../shared/domain/booking-tools';
import { confirmedResult } from './booking-confirmation';
import { BOOKING_ID_PARAMETER, bookingView, NOT_FOUND, reachableBooking } from './booking-view';
import type { BuiltinTool } from './tool-types';

type Args = v.InferOutput<typeof CancelAppointmentArgsSchema>;

/**
 * `cancel_appointment` (builtin `booking`): cancels one of the caller's bookings (their own number,
 * or made or found on this call) and frees its time, then confirms the cancellation to the caller
 * and the team (booking-confirmation.ts); cancelling a cancelled one sends nothing again.
 */
export const cancelAppointment: BuiltinTool<Args> = {
  offeredBy: 'booking',
  definition: {
    name: 'cancel_appointment',
    description:
      "Cancel one of the caller's appointments. Find it first with find_appointments, read its day and time back and get the caller's " +
      'yes before cancelling. Tell the caller it is cancelled only after this tool confirms it.',
    parameters: {
      type: 'object',
      properties: {
        booking_id: BOOKING_ID_PARAMETER,
      },
      required: ['booking_id'],
      additionalProperties: false,
    },
  },
  args: CancelAppointmentArgsSchema,
  // The cancellation (~10–50 ms) and its confirmations (at most CONFIRMATION_TIMEOUT_MS, 4 s).
  timeoutMs: 10_000,
  unavailable: 'The booking system did not answer, so the appointment was not cancelled. Apologise, and offer to take a message.',
  async execute(args, context) {
    const booking = await reachableBooking(context, args.booking_id);
    if (booking === undefined) return { output: { cancelled: false, ...NOT_FOUND }, summary: 'refused: not_found' };
    const cancelled = await context.ports.bookings.cancel(context.businessId, booking.id);
    if (booking.status === 'cancelled')
      return {
        output: { cancelled: true, ...bookingView(cancelled, { withName: true }) },
        summary: `appointment ${booking.id} already cancelled`,
      };
    return confirmedResult(context, cancelled, 'cancelled', { cancelled: true }, `appointment ${booking.id} cancelled`);
  },
};
