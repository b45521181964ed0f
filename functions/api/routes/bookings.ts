import { createHash } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { parseIdParam } from '../../../shared/domain/ids';
import type { BookingService } from '../../../shared/services/booking-service';
import type { BusinessService } from '../../../shared/services/business-service';
import type { ApiEnv } from '../env';

/** /bookings: list, read and cancel bookings. */
export function bookingRoutes(service: BookingService) {
  return new Hono<ApiEnv>()
    .get('/', async (c) => c.json(await service.list(c.get('businessId'), c.req.query())))
    .get('/:booking_id', async (c) => c.json(await service.get(c.get('businessId'), parseIdParam(c.req.param('booking_id'), 'booking_id'))))
    .post('/:booking_id/cancel', async (c) =>
      c.json(await service.cancel(c.get('businessId'), parseIdParam(c.req.param('booking_id'), 'booking_id'))),
    );
}

/** /availability: the free slots of one or more days, as the assistant would offer them. */
export function availabilityRoutes(service: BookingService) {
  return new Hono<ApiEnv>().get('/', async (c) => c.json(await service.availability(c.get('businessId'), c.req.query())));
}

/**
 * An iCalendar body (`text/calendar; charset=utf-8`) with a strong ETag; a matching
 * `If-None-Match` is a 304, so a polling calendar app costs no body when nothing changed.
 */
export function icsResponse(c: Context, text: string): Response {
  const etag = `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
  const headers = { etag, 'cache-control': 'private, max-age=300' };
  if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
  return c.body(text, 200, { ...headers, 'content-type': 'text/calendar; charset=utf-8' });
}

/** GET /bookings.ics: the bookings as an iCalendar feed, with the API key. */
export function bookingsIcsRoute(business: BusinessService) {
  return new Hono<ApiEnv>().get('/', async (c) => icsResponse(c, await business.calendar(c.get('businessId'))));
}

/** GET /calendars/{token}.ics: the same feed for calendar apps, which cannot send a key (no auth; the token is the secret). */
export function calendarFeedRoute(business: BusinessService) {
  return new Hono<ApiEnv>().get('/:file', async (c) => {
    const file = c.req.param('file');
    const token = file.endsWith('.ics') ? file.slice(0, -'.ics'.length) : '';
    return icsResponse(c, await business.calendarForToken(token));
  });
}
