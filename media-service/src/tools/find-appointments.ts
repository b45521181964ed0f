import type * as v from 'valibot';
import { FindAppointmentsArgsSchema } from '../../../shared/domain/booking-tools';
import { bookingView, callerPhone, phoneParameter } from './booking-view';
import type { BuiltinTool } from './tool-types';

type Args = v.InferOutput<typeof FindAppointmentsArgsSchema>;

/**
 * `find_appointments` (builtin `booking`): the upcoming bookings under the caller's number (or one
 * they give); what it finds, this call may then move or cancel. Names are shown only for the
 * caller's own number, so trying numbers learns no one's name.
 */
export const findAppointments: BuiltinTool<Args> = {
  offeredBy: 'booking',
  definition: {
    name: 'find_appointments',
    description:
      "Look up the caller's upcoming appointments, before moving or cancelling one, or when they ask when their appointment is. " +
      'It searches the number they are calling from; pass phone only when they booked under another number. Confirm with the ' +
      'caller which appointment they mean before changing it.',
    parameters: {
      type: 'object',
      properties: {
        phone: phoneParameter('Only when the caller booked under another number: E.164, like +14155550199.'),
      },
      additionalProperties: false,
    },
  },
  args: FindAppointmentsArgsSchema,
  timeoutMs: 5000,
  unavailable:
    "The booking system did not answer, so the caller's appointments could not be looked up. Apologise, and offer to take a message.",
  async execute(args, context) {
    const own = callerPhone(context);
    const phone = args.phone ?? own;
    if (phone === undefined) {
      return {
        output: { appointments: [], detail: 'The caller is calling from a hidden number. Ask which number they booked under.' },
        summary: 'no caller number',
      };
    }
    const found = await context.ports.bookings.findByPhone(context.businessId, phone);
    for (const booking of found) context.knownBookings.add(booking.id);
    const appointments = found.map((booking) => bookingView(booking, { withName: phone === own }));
    return { output: { appointments }, summary: `${found.length} upcoming found` };
  },
};
