import type * as v from 'valibot';
import { BookAppointmentArgsSchema } from '../../../shared/domain/booking-tools';
import { confirmedResult } from './booking-confirmation';
import { callerPhone, freeTimes, phoneParameter, refusalView, startParameter } from './booking-view';
import { BOOKINGS_PER_CALL } from './call-allowance';
import { ToolRefusal, type BuiltinTool, type ToolContext } from './tool-types';

type Args = v.InferOutput<typeof BookAppointmentArgsSchema>;

/** Refusals after which the day's other free times help the caller pick again. */
const RETRY_SAME_DAY = new Set(['slot_taken', 'outside_hours', 'too_soon']);

/** Up to six other free times on the day asked, so the model can offer one at once. */
async function otherTimes(context: ToolContext, args: Args) {
  const answer = await context.ports.bookings.checkAvailability(context.businessId, args.start.slice(0, 10), args.service);
  return 'reason' in answer ? [] : freeTimes(answer.slots).free_times.slice(0, 6);
}

/**
 * `book_appointment` (builtin `booking`): books a start time for the caller, linked to the call and
 * the assistant, under the caller's own number unless they gave another, then confirms it to the
 * caller and the team (booking-confirmation.ts); or says why not. A confirmation that fails never
 * un-books: the output says what was and was not sent.
 */
export const bookAppointment: BuiltinTool<Args> = {
  offeredBy: 'booking',
  definition: {
    name: 'book_appointment',
    description:
      'Book an appointment at a free time from check_availability. First confirm with the caller the day, the time, the service and ' +
      'the name to book under. The booking is made under the number the caller is calling from unless they give another. Then read ' +
      'back what the result says, including how it was confirmed (confirmation_note); if it is refused, tell the caller why in plain words and offer one of the other free times.',
    parameters: {
      type: 'object',
      properties: {
        start: startParameter('The start, YYYY-MM-DDTHH:MM, in the business time zone (a free time from check_availability).'),
        name: { type: 'string', description: "The caller's full name, as they gave it.", minLength: 1, maxLength: 120 },
        service: { type: 'string', description: 'The service, as the business names it (default: the first).', maxLength: 80 },
        phone: phoneParameter('Only when the caller gives a number other than the one they are calling from: E.164, like +14155550199.'),
        email: { type: 'string', description: 'An email address the caller gave, read back to them first.', maxLength: 254 },
        notes: { type: 'string', description: 'Anything the team should know for the appointment.', maxLength: 1000 },
      },
      required: ['start', 'name'],
      additionalProperties: false,
    },
  },
  args: BookAppointmentArgsSchema,
  // The booking (~10–50 ms) and its confirmations (at most CONFIRMATION_TIMEOUT_MS, 4 s).
  timeoutMs: 10_000,
  unavailable: 'The booking system did not answer, so nothing was booked. Apologise, and offer to take a message so the team can book it.',
  async execute(args, context) {
    if (!context.allowance.take('booking'))
      throw new ToolRefusal(
        `This call has already made ${BOOKINGS_PER_CALL} bookings, the most one call may make. Offer to take a message so the team can book more.`,
      );
    const phone = args.phone ?? callerPhone(context);
    const result = await context.ports.bookings
      .book(context.businessId, {
        ...args,
        ...(phone !== undefined && { phone }),
        call_id: context.callId,
        assistant_id: context.assistantId,
      })
      .catch((error: unknown) => {
        context.allowance.giveBack('booking');
        throw error;
      });
    if ('reason' in result) {
      context.allowance.giveBack('booking');
      const other = RETRY_SAME_DAY.has(result.reason) ? { other_free_times: await otherTimes(context, args) } : {};
      return { output: { booked: false, ...refusalView(result), ...other }, summary: `refused: ${result.reason}` };
    }
    context.knownBookings.add(result.id);
    return confirmedResult(context, result, 'booked', { booked: true }, `booking ${result.id} confirmed`);
  },
};
