import ICAL from 'ical.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { paymentKeyContext } from '../../../shared/services/business-service';
import { createApiHarness, type ApiHarness, type TenantClient } from '../../support/api-harness';
import { strictResponseErrors } from '../../support/openapi-strict';

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

/** Wednesday 25 November 2026, 07:00 in New York. */
const NOW = new Date('2026-11-25T12:00:00Z');
let harness: ApiHarness;

beforeAll(async () => {
  harness = await createApiHarness({ clock: () => NOW });
});

async function newYorkTenant(): Promise<TenantClient> {
  const tenant = await harness.newTenant();
  const response = await tenant.request('PATCH', '/business', { timezone: 'America/New_York', display_name: 'Bright, Smile; Dental' });
  expect(response.status).toBe(200);
  return tenant;
}

async function book(tenant: TenantClient, start: string, extra: Json = {}): Promise<Json> {
  const result = await harness.deps.bookings.book(tenant.businessId, { start, name: 'Ana García', ...extra });
  if ('reason' in result) throw new Error(result.reason);
  return result;
}

describe('GET and PATCH /business', () => {
  it('starts with the documented defaults', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const business = await json(await tenant.request('GET', '/business'));
    // Assert
    expect(business).toMatchObject({
      timezone: 'UTC',
      hours: { mon: [{ start: '09:00', end: '17:00' }], fri: [{ start: '09:00', end: '17:00' }], sat: [], sun: [] },
      booking: { services: [{ name: 'Appointment', duration_min: 30, price: null }], slot_step_min: 30, buffer_min: 0 },
      payment: { currency: 'usd', max_amount: 500, provider_key_set: false },
      calendar_feed_enabled: false,
    });
  });

  it('merges: days, nested settings and fields given replace, the rest stays; a GET body can be sent back', async () => {
    // Arrange
    const tenant = await newYorkTenant();
    // Act
    const patched = await json(
      await tenant.request('PATCH', '/business', {
        hours: { sat: [{ start: '10:00', end: '14:00' }] },
        booking: { buffer_min: 10 },
        team_emails: ['desk@acme.test'],
      }),
    );
    const echoed = await tenant.request('PATCH', '/business', patched);
    // Assert
    expect(patched).toMatchObject({
      timezone: 'America/New_York',
      display_name: 'Bright, Smile; Dental',
      hours: { mon: [{ start: '09:00', end: '17:00' }], sat: [{ start: '10:00', end: '14:00' }] },
      booking: { buffer_min: 10, slot_step_min: 30 },
      team_emails: ['desk@acme.test'],
    });
    expect(echoed.status).toBe(200);
    expect(await json(echoed)).toEqual(patched);
  });

  it.each([
    ['an unknown time zone', { timezone: 'Mars/Olympus' }, ['body', 'timezone'], 'value_error'],
    [
      'overlapping ranges',
      {
        hours: {
          mon: [
            { start: '09:00', end: '12:00' },
            { start: '11:00', end: '13:00' },
          ],
        },
      },
      ['body', 'hours', 'mon', 1],
      'value_error',
    ],
    ['a time off the 5-minute grid', { hours: { tue: [{ start: '09:03', end: '12:00' }] } }, ['body', 'hours', 'tue', 0], 'value_error'],
    [
      'a malformed time',
      { hours: { tue: [{ start: '9am', end: '12:00' }] } },
      ['body', 'hours', 'tue', 0, 'start'],
      'string_pattern_mismatch',
    ],
    ['an impossible date', { closed_dates: ['2026-02-30'] }, ['body', 'closed_dates', 0], 'value_error'],
    ['too many closed dates', { closed_dates: Array(367).fill('2026-12-25') }, ['body', 'closed_dates'], 'too_long'],
    [
      'a service past 180 minutes',
      { booking: { services: [{ name: 'Long', duration_min: 185 }] } },
      ['body', 'booking', 'services', 0, 'duration_min'],
      'less_than_equal',
    ],
    ['a buffer past 60 minutes', { booking: { buffer_min: 65 } }, ['body', 'booking', 'buffer_min'], 'less_than_equal'],
    [
      'a duration off the grid',
      { booking: { services: [{ name: 'Odd', duration_min: 32 }] } },
      ['body', 'booking', 'services', 0, 'duration_min'],
      'value_error',
    ],
    [
      'duplicate service names',
      {
        booking: {
          services: [
            { name: 'A', duration_min: 30 },
            { name: 'a', duration_min: 60 },
          ],
        },
      },
      ['body', 'booking', 'services', 1, 'name'],
      'value_error',
    ],
    ['no service', { booking: { services: [] } }, ['body', 'booking', 'services'], 'too_short'],
    ['an unknown field', { opening_hours: 'Mon-Fri' }, ['body', 'opening_hours'], 'extra_forbidden'],
    ['a long name', { display_name: 'x'.repeat(121) }, ['body', 'display_name'], 'string_too_long'],
  ])('refuses %s with a 422 at its loc', async (_case, body, loc, type) => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const response = await tenant.request('PATCH', '/business', body);
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail).toContainEqual(expect.objectContaining({ loc, type }));
  });

  it('keeps the payment key write-only, sealed to the business; null removes it', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const set = await json(await tenant.request('PATCH', '/business', { payment: { provider_key: 'sk_test_secret123', max_amount: 250 } }));
    const stored = await harness.core.businesses.getBusiness(tenant.businessId);
    const kept = await json(await tenant.request('PATCH', '/business', { payment: { currency: 'eur' } }));
    const removed = await json(await tenant.request('PATCH', '/business', { payment: { provider_key: null } }));
    // Assert
    expect(set.payment).toEqual({ currency: 'usd', max_amount: 250, provider_key_set: true });
    expect(JSON.stringify(set)).not.toContain('sk_test_secret123');
    expect(await harness.core.secretBox.open(stored.payment_key_sealed!, paymentKeyContext(tenant.businessId))).toBe('sk_test_secret123');
    expect(kept.payment).toEqual({ currency: 'eur', max_amount: 250, provider_key_set: true });
    expect(removed.payment.provider_key_set).toBe(false);
  });

  it('admin set-profile writes the same record the API reads', async () => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    await harness.admin.setProfile(tenant.businessId, { timezone: 'Europe/Madrid', team_phones: ['+34600000001'], sms_regions: ['ES'] });
    // Assert
    expect(await json(await tenant.request('GET', '/business'))).toMatchObject({
      timezone: 'Europe/Madrid',
      team_phones: ['+34600000001'],
      sms_regions: ['ES'],
    });
    await expect(harness.admin.setProfile(tenant.businessId, { timezone: 'Nowhere/Else' })).rejects.toThrow(/timezone/);
  });
});

describe('GET /availability', () => {
  it('lists the free slots with the business offset, without booked ones', async () => {
    // Arrange
    const tenant = await newYorkTenant();
    await book(tenant, '2026-11-26T09:30');
    // Act
    const answer = await json(await tenant.request('GET', '/availability?date=2026-11-26&days=2'));
    // Assert
    expect(answer.timezone).toBe('America/New_York');
    expect(answer.data[0]).toEqual({ start: '2026-11-26T09:00:00-05:00', end: '2026-11-26T09:30:00-05:00' });
    expect(answer.data.map((slot: Json) => slot.start)).not.toContain('2026-11-26T09:30:00-05:00');
    expect(answer.data).toHaveLength(31);
  });

  it.each([
    ['no date', '', ['query', 'date'], 'missing'],
    ['a malformed date', '?date=26-11-2026', ['query', 'date'], 'string_pattern_mismatch'],
    ['too many days', '?date=2026-11-26&days=15', ['query', 'days'], 'less_than_equal'],
    ['a date that does not exist', '?date=2026-02-30', ['query', 'date'], 'value_error'],
    ['a month 13', '?date=2026-13-01', ['query', 'date'], 'value_error'],
    ['an unknown service', '?date=2026-11-26&service=Surgery', ['query', 'service'], 'value_error'],
  ])('is a 422 with %s', async (_case, query, loc, type) => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const response = await tenant.request('GET', `/availability${query}`);
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0]).toMatchObject({ loc, type });
  });

  it('answers the last days of year 9999 with no free time, never a 500', async () => {
    // Act
    const response = await (await harness.newTenant()).request('GET', '/availability?date=9999-12-31&days=14');
    // Assert
    expect(response.status).toBe(200);
  });
});

describe('/bookings ranges at the edges of time', () => {
  it.each([
    ['from and to in year 9999', '/bookings?from=9999-12-31&to=9999-12-31'],
    ['to before 1970', '/bookings?to=0000-01-01'],
    ['to at the end of year 9999', '/bookings?to=9999-12-31'],
    ['from after to', '/bookings?from=2026-12-02&to=2026-12-01'],
  ])('lists nothing for %s, never a 500', async (_case, path) => {
    // Act
    const response = await (await harness.newTenant()).request('GET', path);
    // Assert
    expect(response.status).toBe(200);
    expect((await json(response)).data).toEqual([]);
  });
});

describe('/bookings', () => {
  it('lists by start with filters and pages, reads one, cancels one', async () => {
    // Arrange
    const tenant = await newYorkTenant();
    const first = await book(tenant, '2026-11-26T10:00', { call_id: 4242, phone: '+15550100002' });
    const second = await book(tenant, '2026-11-27T10:00');
    const third = await book(tenant, '2026-11-30T10:00');
    // Act
    const cancelled = await json(await tenant.request('POST', `/bookings/${second.id}/cancel`));
    const all = await json(await tenant.request('GET', '/bookings?limit=2'));
    const byCall = await json(await tenant.request('GET', '/bookings?call_id=4242'));
    const confirmedFromFriday = await json(await tenant.request('GET', '/bookings?from=2026-11-27&status=confirmed'));
    const thursday = await json(await tenant.request('GET', '/bookings?from=2026-11-26&to=2026-11-26'));
    const one = await json(await tenant.request('GET', `/bookings/${first.id}`));
    // Assert
    expect(cancelled).toMatchObject({ id: second.id, status: 'cancelled' });
    expect(all).toMatchObject({ limit: 2, offset: 0, has_more: true });
    expect(all.data.map((b: Json) => b.id)).toEqual([first.id, second.id]);
    expect(byCall.data.map((b: Json) => b.id)).toEqual([first.id]);
    expect(confirmedFromFriday.data.map((b: Json) => b.id)).toEqual([third.id]);
    expect(thursday.data.map((b: Json) => b.id)).toEqual([first.id]);
    expect(one).toEqual({
      id: first.id,
      call_id: 4242,
      assistant_id: null,
      service: 'Appointment',
      start: '2026-11-26T10:00:00-05:00',
      end: '2026-11-26T10:30:00-05:00',
      timezone: 'America/New_York',
      name: 'Ana García',
      phone: '+15550100002',
      email: null,
      notes: null,
      status: 'confirmed',
      created_at: NOW.toISOString(),
    });
  });

  it.each([
    ['a bad status', '/bookings?status=maybe', ['query', 'status']],
    ['a from without offset', '/bookings?from=2026-11-26T10:00', ['query', 'from']],
    ['a deep offset', '/bookings?offset=1001', ['query', 'offset']],
    ['a non-id', '/bookings/abc', ['path', 'booking_id']],
  ])('is a 422 with %s', async (_case, path, loc) => {
    // Arrange
    const tenant = await harness.newTenant();
    // Act
    const response = await tenant.request('GET', path);
    // Assert
    expect(response.status).toBe(422);
    expect((await json(response)).detail[0].loc).toEqual(loc);
  });
});

/** The raw lines of an iCalendar text, checked against RFC 5545 §3.1 before any parser unfolds them. */
function expectWellFormed(text: string): void {
  expect(text.endsWith('\r\n')).toBe(true);
  for (const line of text.split('\r\n').slice(0, -1)) {
    expect(line).not.toContain('\n');
    expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
  }
}

describe('the OpenAPI document', () => {
  it('describes every new response exactly (strict mode: no undocumented field)', async () => {
    // Arrange
    const tenant = await newYorkTenant();
    const booking = await book(tenant, '2026-11-26T15:00', { phone: '+15550100003', email: 'a@b.test', notes: 'n' });
    // Act
    const bodies: Array<[string, Json]> = [
      ['Business', await json(await tenant.request('PATCH', '/business', { payment: { provider_key: 'sk_x' } }))],
      ['Availability', await json(await tenant.request('GET', '/availability?date=2026-11-26'))],
      ['BookingsPage', await json(await tenant.request('GET', '/bookings'))],
      ['Booking', await json(await tenant.request('POST', `/bookings/${booking.id}/cancel`))],
      ['CalendarFeed', await json(await tenant.request('POST', '/business/calendar-feed'))],
      ['CalendarFeedRevoked', await json(await tenant.request('DELETE', '/business/calendar-feed'))],
      [
        'HTTPValidationError',
        await json(await tenant.request('PATCH', '/business', { hours: { mon: [{ start: '10:00', end: '09:00' }] } })),
      ],
    ];
    // Assert
    for (const [component, body] of bodies) expect(strictResponseErrors(component, body), component).toEqual([]);
  });
});

describe('iCalendar', () => {
  it('GET /bookings.ics is a feed an independent parser (ical.js) reads back', async () => {
    // Arrange
    const tenant = await newYorkTenant();
    const booking = await book(tenant, '2026-11-26T11:00', { notes: 'First visit; bring the x-rays, please. '.repeat(4) });
    const gone = await book(tenant, '2026-11-26T12:00');
    await tenant.request('POST', `/bookings/${gone.id}/cancel`);
    // Act
    const response = await tenant.request('GET', '/bookings.ics');
    const text = await response.text();
    const calendar = new ICAL.Component(ICAL.parse(text));
    const events = calendar.getAllSubcomponents('vevent');
    // Assert
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expectWellFormed(text);
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Bookings – Bright, Smile; Dental');
    const [live, cancelled] = events.map((event) => new ICAL.Event(event));
    expect(live!.uid).toMatch(new RegExp(`^booking-${booking.id}@`));
    expect(live!.startDate.toJSDate().toISOString()).toBe('2026-11-26T16:00:00.000Z');
    expect(live!.endDate.toJSDate().toISOString()).toBe('2026-11-26T16:30:00.000Z');
    expect(live!.summary).toBe('Appointment – Ana García');
    expect(live!.description).toContain('Notes: First visit; bring the x-rays, please.');
    expect(events[0]!.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(cancelled!.summary).toBe('Cancelled: Appointment – Ana García');
    expect(events[1]!.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(cancelled!.sequence).toBe(1);
  });

  it('a secret feed URL works without the key, answers 304 when unchanged, stops on rotation and on revocation', async () => {
    // Arrange
    const tenant = await newYorkTenant();
    await book(tenant, '2026-11-26T13:00');
    const anonymous = (path: string, headers: Record<string, string> = {}) => harness.app.request(path, { headers });
    // Act
    const created = await json(await tenant.request('POST', '/business/calendar-feed'));
    const feed = await anonymous(created.path);
    const etag = feed.headers.get('etag')!;
    const unchanged = await anonymous(created.path, { 'if-none-match': etag });
    const rotated = await json(await tenant.request('POST', '/business/calendar-feed'));
    const old = await anonymous(created.path);
    const enabled = (await json(await tenant.request('GET', '/business'))).calendar_feed_enabled;
    const revoked = await tenant.request('DELETE', '/business/calendar-feed');
    const afterRevoke = await anonymous(rotated.path);
    const revokeAgain = await tenant.request('DELETE', '/business/calendar-feed');
    // Assert
    expect(created.path).toMatch(/^\/api\/v1\/calendars\/calf_[A-Za-z0-9_-]{43}\.ics$/);
    expect(feed.status).toBe(200);
    expect(new ICAL.Component(ICAL.parse(await feed.text())).getAllSubcomponents('vevent')).toHaveLength(1);
    expect(unchanged.status).toBe(304);
    expect(old.status).toBe(404);
    expect(enabled).toBe(true);
    expect(revoked.status).toBe(200);
    expect(afterRevoke.status).toBe(404);
    expect(revokeAgain.status).toBe(404);
    expect((await anonymous('/api/v1/calendars/calf_nothing.ics')).status).toBe(404);
  });
});
