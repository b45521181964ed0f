import * as v from 'valibot';
import * as booking from './booking';
import { BusinessPatchSchema, BusinessViewSchema } from './business-settings';
import { BODY_ERRORS, body, idParam, inline, jsonResponse, op, responses } from './openapi-operations';
import { FEED_RATE_LIMIT, RATE_LIMIT_WINDOW_WORDS } from './rate-limits';
import { strictDict } from './validation';

type Json = Record<string, unknown>;

/**
 * The OpenAPI entries of the business profile, availability, bookings and calendar feed: their
 * paths, schemas and extra responses. Everything here is a function, called while the document is
 * built, so the import cycle with `openapi.ts` (which owns the shared helpers) is harmless.
 */

/** Tags of these operations. */
export const BOOKING_TAGS: Record<string, string> = {
  Business: 'The business profile the assistants use: hours, closed dates, team contacts, booking and payment settings.',
  Bookings: 'Appointments booked by the assistants (or read from the calendar feed), and the free slots they offer.',
};

/** POST /business/calendar-feed: the secret feed, shown once. */
export const CalendarFeedSchema = strictDict({
  token: v.string(),
  path: v.pipe(v.string(), v.metadata({ examples: ['/api/v1/calendars/calf_….ics'] })),
});

/** DELETE /business/calendar-feed. */
export const RevokedSchema = strictDict({ revoked: v.literal(true) });

/** Request bodies (input form). */
export function bookingRequestSchemas(): Record<string, v.GenericSchema> {
  return { BusinessPatch: BusinessPatchSchema };
}

/** Response bodies (output form). */
export function bookingResponseSchemas(): Record<string, v.GenericSchema> {
  return {
    Business: BusinessViewSchema,
    Booking: booking.BookingSchema,
    BookingsPage: booking.BookingsPageSchema,
    Availability: booking.AvailabilitySchema,
    CalendarFeed: CalendarFeedSchema,
    CalendarFeedRevoked: RevokedSchema,
  };
}

/** Responses only these operations give. */
export function bookingErrorResponses(): Record<string, Json> {
  return {
    Conflict: jsonResponse('The booking was cancelled (`booking_cancelled`), or the feed changed meanwhile (`conflict`).', 'ErrorBody'),
  };
}

function queryParams(schema: v.ObjectSchema<v.ObjectEntries, undefined>, required: string[] = []): Json[] {
  return Object.entries(schema.entries).map(([name, entry]) => ({
    name,
    in: 'query',
    required: required.includes(name),
    schema: inline(entry),
  }));
}

function calendarResponse(description: string): Json {
  return {
    description,
    headers: { ETag: { description: 'Send it back as If-None-Match: 304 when nothing changed.', schema: { type: 'string' } } },
    content: {
      'text/calendar': {
        schema: { type: 'string', description: 'RFC 5545: UTC times, one VEVENT per booking, cancelled ones STATUS:CANCELLED.' },
      },
    },
  };
}

const NOT_FOUND = { '404': 'NotFound' };
const INVALID = { '422': 'ValidationFailed' };

function businessPaths(): Json {
  return {
    '/business': {
      get: op('getBusiness', 'Business', 'The business profile.', responses(jsonResponse('The profile.', 'Business'))),
      patch: {
        ...op(
          'updateBusiness',
          'Business',
          'Change the profile: fields given replace theirs (`hours` day by day, `booking` and `payment` field by field); `payment.provider_key` is write-only. ' +
            "Each of `team_phones` must be a mobile number of a region the business texts (its numbers' regions and `sms_regions`): " +
            'a premium-rate, toll-free or other special number, or one of another region, is a 422 item at `["body", "team_phones", i]` naming it.',
          responses(jsonResponse('The profile as stored.', 'Business'), BODY_ERRORS),
        ),
        requestBody: body('BusinessPatch'),
      },
    },
    '/business/calendar-feed': {
      post: op(
        'createCalendarFeed',
        'Business',
        'Create, or rotate, the secret calendar feed URL (shown once; the previous URL stops working).',
        responses(jsonResponse('The feed token and path.', 'CalendarFeed'), { '409': 'Conflict' }),
      ),
      delete: op(
        'revokeCalendarFeed',
        'Business',
        'Revoke the secret calendar feed URL.',
        responses(jsonResponse('Revoked.', 'CalendarFeedRevoked'), NOT_FOUND),
      ),
    },
  };
}

/** Every path of this module, merged into the document's `paths`. */
export function bookingPaths(): Json {
  const id = idParam('booking_id');
  return {
    ...businessPaths(),
    '/availability': {
      get: {
        ...op(
          'getAvailability',
          'Bookings',
          'Free slots of `days` days from `date` (the business’s local dates), as the assistant would offer them.',
          responses(jsonResponse('The free slots, ISO 8601 with the business’s UTC offset.', 'Availability'), INVALID),
        ),
        parameters: queryParams(booking.AvailabilityQuerySchema, ['date']),
      },
    },
    '/bookings': {
      get: {
        ...op(
          'listBookings',
          'Bookings',
          'List bookings by start time, earliest first; `from`/`to` are local dates (inclusive) or ISO 8601 timestamps with an offset.',
          responses(jsonResponse('One page of bookings.', 'BookingsPage'), INVALID),
        ),
        parameters: queryParams(booking.ListBookingsQuerySchema),
      },
    },
    '/bookings/{booking_id}': {
      parameters: [id],
      get: op(
        'getBooking',
        'Bookings',
        'Get one booking.',
        responses(jsonResponse('The booking.', 'Booking'), { ...NOT_FOUND, ...INVALID }),
      ),
    },
    '/bookings/{booking_id}/cancel': {
      parameters: [id],
      post: op(
        'cancelBooking',
        'Bookings',
        'Cancel a booking: its time is free again; cancelling a cancelled booking returns it unchanged.',
        responses(jsonResponse('The cancelled booking.', 'Booking'), { ...NOT_FOUND, ...INVALID }),
      ),
    },
    '/bookings.ics': {
      get: op(
        'getBookingsCalendar',
        'Bookings',
        `The bookings (${booking.CALENDAR_FEED_DAYS.past} days back, ${booking.CALENDAR_FEED_DAYS.future} ahead) as an iCalendar feed.`,
        {
          ...responses(calendarResponse('The iCalendar feed.')),
          '304': { description: 'Unchanged since the ETag sent in If-None-Match.' },
        },
      ),
    },
    '/calendars/{feed_file}': {
      get: {
        ...op('getCalendarFeed', 'Bookings', 'The same feed at its secret URL, for calendar apps (no API key: the token is the secret).', {
          '200': calendarResponse('The iCalendar feed.'),
          '304': { description: 'Unchanged since the ETag sent in If-None-Match.' },
          '404': { $ref: '#/components/responses/NotFound' },
          '429': jsonResponse(
            `More than ${FEED_RATE_LIMIT} requests ${RATE_LIMIT_WINDOW_WORDS} from this address, or for this feed (\`rate_limited\`); wait \`Retry-After\` seconds.`,
            'ErrorBody',
            ['X-API-Version', 'RateLimit-Policy', 'Retry-After'],
          ),
        }),
        security: [],
        parameters: [
          {
            name: 'feed_file',
            in: 'path',
            required: true,
            description: 'The token from POST /business/calendar-feed, then `.ics`.',
            schema: { type: 'string', pattern: '^calf_[A-Za-z0-9_-]{43}\\.ics$' },
          },
        ],
      },
    },
  };
}
