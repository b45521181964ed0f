import type * as v from 'valibot';
import { FindAppointmentsArgsSchema, nameMatches } from '../../../shared/domain/booking-tools';
import { bookingView, callerPhone, phoneParameter } from './booking-view';
import type { BuiltinTool } from './tool-types';

type Args = v.InferOutput<typeof FindAppointmentsArgsSchema>;

/**
 * `find_appointments` (builtin `booking`): the upcoming bookings under the caller's number (or one
 * they give); what it finds, this call may then move or cancel. Under another number only the
 * bookings made in the name the caller gives are found (at most
 * `OTHER_NUMBER_LOOKUPS_PER_CALL` other numbers a call), so a number alone shows no one's
 * appointments and lets no one cancel them; names are shown only for the caller's own number.
 */
export const findAppointments: BuiltinTool<Args> = {
  offeredBy: 'booking',
  definition: {
    name: 'find_appointments',
    description:
      "Look up the caller's upcoming appointments, before moving or cancelling one, or when they ask when their appointment is. " +
      'It searches the number they are calling from; only when they booked under another number, pass that phone and the name ' +
      'they booked under. Confirm with the ' +
      'caller which appointment they mean before changing it.',
    parameters: {
      type: 'object',
      properties: {
        phone: phoneParameter('Only when the caller booked under another number: E.164, like +14155550199.'),
        name: {
          type: 'string',
          description: 'With phone only: the name the appointment was booked under, as the caller says it.',
          minLength: 2,
          maxLength: 120,
        },
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
    let found = await context.ports.bookings.findByPhone(context.businessId, phone);
    if (phone !== own) {
      if (args.name === undefined)
        return {
          output: { appointments: [], detail: 'Ask the caller for the name the appointment was booked under, then look again with it.' },
          summary: 'refused: name needed',
        };
      if (!context.allowance.take('lookup'))
        return {
          output: { appointments: [], detail: 'This call cannot look up any more numbers. Offer to take a message for the team.' },
          summary: 'refused: lookups used',
        };
      const name = args.name;
      found = found.filter((booking) => nameMatches(name, booking.name));
    }
    for (const booking of found) context.knownBookings.add(booking.id);
    const appointments = found.map((booking) => bookingView(booking, { withName: phone === own }));
    return { output: { appointments }, summary: `${found.length} upcoming found` };
  },
};
