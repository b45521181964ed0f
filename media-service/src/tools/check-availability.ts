import type * as v from 'valibot';
import { CheckAvailabilityArgsSchema } from '../../../shared/domain/booking-tools';
import { freeTimes, refusalView, weekdayOf } from './booking-view';
import type { BuiltinTool } from './tool-types';

type Args = v.InferOutput<typeof CheckAvailabilityArgsSchema>;

/**
 * `check_availability` (builtin `booking`): the free start times of one local day, computed exactly
 * as GET /availability does, and the next day with a free time when that day has none.
 */
export const checkAvailability: BuiltinTool<Args> = {
  offeredBy: 'booking',
  definition: {
    name: 'check_availability',
    description:
      'Find the free appointment times on one day. Use it before offering or booking any time, whenever the caller asks what is ' +
      'free or names a day. Times are in the business time zone. When the day has no free time, the result names the next day that ' +
      'has one. Offer the caller two or three of the times returned, never a time it did not return.',
    parameters: {
      type: 'object',
      properties: {
        date: { type: 'string', description: 'The day, YYYY-MM-DD, in the business time zone.', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
        service: {
          type: 'string',
          description: 'The service the caller wants, as the business names it (default: the first).',
          maxLength: 80,
        },
      },
      required: ['date'],
      additionalProperties: false,
    },
  },
  args: CheckAvailabilityArgsSchema,
  timeoutMs: 5000,
  unavailable: 'The booking system did not answer, so no times could be checked. Apologise, and offer to take a message instead.',
  async execute(args, context) {
    const answer = await context.ports.bookings.checkAvailability(context.businessId, args.date, args.service);
    if ('reason' in answer) return { output: { available: false, ...refusalView(answer) }, summary: `refused: ${answer.reason}` };
    const day = { date: answer.date, weekday: weekdayOf(answer.date), ...freeTimes(answer.slots) };
    const next = answer.next_free_day;
    const output = {
      timezone: answer.timezone,
      service: answer.service,
      ...day,
      ...(next !== undefined && {
        next_free_day: next === null ? null : { date: next.date, weekday: weekdayOf(next.date), ...freeTimes(next.slots) },
      }),
    };
    const summary = `${answer.slots.length} free on ${answer.date}${next ? `; next free day ${next.date}` : ''}`;
    return { output, summary };
  },
};
