import { DateTime } from 'luxon';
import * as v from 'valibot';
import { ValidationError, type ValidationItem } from '../errors';
import { isValidTimezone, type BusinessProfile } from './business-profile';
import { CLOCK_PATTERN, dayProblems, GRANULE_MINUTES, WEEKDAYS, type Weekday } from './opening-hours';
import { E164_PATTERN, e164Field } from './phone-number';
import { intField, listField, numberField, readOnlyEcho, REFUSED_IN_TEXT, strictDict, stringField } from './validation';
import { parseWith, type Loc } from './validation-errors';
import { normalizeOrigin, webOriginsField } from './web-call';

/**
 * The longest span one booking may hold (its duration plus the buffer after it), in minutes: a
 * reschedule moves every 5-minute slot lock of the old and new spans in one DynamoDB transaction
 * (at most 100 items), so 2 × 48 locks + the booking is the most it can carry.
 */
export const MAX_BOOKING_SPAN_MINUTES = 240;
/** The longest service and buffer: together exactly {@link MAX_BOOKING_SPAN_MINUTES}, so no pair can exceed it. */
const MAX_DURATION_MINUTES = 180;
const MAX_BUFFER_MINUTES = MAX_BOOKING_SPAN_MINUTES - MAX_DURATION_MINUTES;

/** A team address: one `@`, no whitespace and none of the characters free text refuses. */
const EMAIL_PATTERN = new RegExp(`^[^\\s@${REFUSED_IN_TEXT}]+@[^\\s@${REFUSED_IN_TEXT}]+$`);

/** `YYYY-MM-DD`. */
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** The most regions a business may add with `sms_regions`. */
export const SMS_REGIONS_MAX = 20;

const clock = () => v.pipe(stringField({ pattern: CLOCK_PATTERN }), v.metadata({ examples: ['09:00'] }));
const TimeRangeSchema = strictDict({ start: clock(), end: clock() });
const dayField = () => v.optional(listField(TimeRangeSchema, 6));

/** The week as PATCH /business takes it: the days given replace those days' ranges (`[]` = closed). */
export const WeeklyHoursPatchSchema = strictDict(
  Object.fromEntries(WEEKDAYS.map((day) => [day, dayField()])) as Record<Weekday, ReturnType<typeof dayField>>,
);

/** A service as a client sends it; `price` in the currency's major units. */
export const BookableServiceSchema = strictDict({
  name: stringField({ min: 1, max: 80 }),
  duration_min: intField({ ge: GRANULE_MINUTES, le: MAX_DURATION_MINUTES }),
  price: v.optional(v.nullable(numberField({ ge: 0, le: 1_000_000 })), null),
});

const BookingSettingsPatchSchema = strictDict({
  services: v.optional(v.pipe(listField(BookableServiceSchema, 50), v.minLength(1))),
  slot_step_min: v.optional(intField({ ge: GRANULE_MINUTES, le: 240 })),
  buffer_min: v.optional(intField({ ge: 0, le: MAX_BUFFER_MINUTES })),
  min_notice_min: v.optional(intField({ ge: 0, le: 43_200 })),
  max_days_ahead: v.optional(intField({ ge: 1, le: 365 })),
});

const PaymentSettingsPatchSchema = strictDict({
  currency: v.optional(stringField({ pattern: /^[a-z]{3}$/ })),
  max_amount: v.optional(numberField({ ge: 0, le: 1_000_000 })),
  /** Write-only: stored sealed, `provider_key_set` comes back; null removes it. */
  provider_key: v.optional(v.nullable(stringField({ min: 1, max: 255 }))),
  provider_key_set: readOnlyEcho(),
});

/**
 * PATCH /business: every field optional, merged into the stored profile (nested `booking` and
 * `payment` fields one by one, `hours` day by day; lists replace the stored list). Every string and
 * list is bounded; what a GET returned can be sent back as it is.
 */
export const BusinessPatchSchema = strictDict({
  display_name: v.optional(stringField({ max: 120 })),
  timezone: v.optional(v.pipe(stringField({ min: 1, max: 64 }), v.metadata({ examples: ['America/New_York'] }))),
  hours: v.optional(WeeklyHoursPatchSchema),
  closed_dates: v.optional(listField(stringField({ pattern: DATE_PATTERN }), 366)),
  address: v.optional(stringField({ max: 300, lines: true })),
  transfer_number: v.optional(v.union([e164Field(), v.literal('')])),
  team_emails: v.optional(listField(stringField({ min: 3, max: 254, pattern: EMAIL_PATTERN }), 10)),
  team_phones: v.optional(
    v.pipe(
      listField(stringField({ pattern: E164_PATTERN }), 10),
      v.description(
        "Mobile numbers team notices are texted to, each of a region the business texts (its lines' regions and `sms_regions`); " +
          'premium-rate, toll-free and other special numbers are refused (422 naming the number).',
      ),
    ),
  ),
  sms_regions: v.optional(
    v.pipe(
      listField(v.pipe(stringField({ pattern: /^[A-Z]{2}$/ }), v.metadata({ examples: ['CA'] })), SMS_REGIONS_MAX),
      v.description(
        'Regions (ISO 3166 alpha-2) every line may text besides its own; `[]` (the default): a line texts numbers of its own region only.',
      ),
    ),
  ),
  web_origins: v.optional(webOriginsField()),
  booking: v.optional(BookingSettingsPatchSchema),
  payment: v.optional(PaymentSettingsPatchSchema),
  calendar_feed_enabled: readOnlyEcho(),
});

/** A validated PATCH /business body. */
export type BusinessPatch = v.InferOutput<typeof BusinessPatchSchema>;

const TimeRangeViewSchema = strictDict({ start: v.string(), end: v.string() });

/** GET /business: the whole profile, `payment.provider_key_set` instead of the key. */
export const BusinessViewSchema = strictDict({
  display_name: v.string(),
  timezone: v.string(),
  hours: strictDict(
    Object.fromEntries(WEEKDAYS.map((day) => [day, v.array(TimeRangeViewSchema)])) as Record<
      Weekday,
      v.ArraySchema<typeof TimeRangeViewSchema, undefined>
    >,
  ),
  closed_dates: v.array(v.string()),
  address: v.string(),
  transfer_number: v.string(),
  team_emails: v.array(v.string()),
  team_phones: v.array(v.string()),
  sms_regions: v.array(v.string()),
  web_origins: v.array(v.string()),
  booking: strictDict({
    services: v.array(strictDict({ name: v.string(), duration_min: v.number(), price: v.nullable(v.number()) })),
    slot_step_min: v.number(),
    buffer_min: v.number(),
    min_notice_min: v.number(),
    max_days_ahead: v.number(),
  }),
  payment: strictDict({ currency: v.string(), max_amount: v.number(), provider_key_set: v.boolean() }),
  calendar_feed_enabled: v.boolean(),
});

/** The GET /business body. */
export type BusinessView = v.InferOutput<typeof BusinessViewSchema>;

/** The profile as GET /business shows it. */
export function toBusinessView(profile: BusinessProfile, flags: { paymentKeySet: boolean; calendarFeed: boolean }): BusinessView {
  return {
    ...profile,
    payment: { ...profile.payment, provider_key_set: flags.paymentKeySet },
    calendar_feed_enabled: flags.calendarFeed,
  };
}

function problem(loc: Loc, input: unknown, error: string): ValidationItem {
  return { loc: ['body', ...loc], msg: `Value error, ${error}`, type: 'value_error', input, ctx: { error } };
}

/**
 * The numbering-plan rules the texting settings are checked with. They need Google's numbering
 * plans (libphonenumber-js), which the domain does not import: the services pass
 * `TEXTING_RULES` from shared/phone/texting.ts.
 */
export interface TextingRules {
  /** True for an ISO 3166 alpha-2 code (upper case) that has a numbering plan. */
  isSmsRegion(code: string): boolean;
  /** What is wrong with a team phone given the regions the business texts (`null`: nothing). */
  teamPhoneProblem(number: string, allowed: readonly string[]): string | null;
}

/**
 * The texting settings: `sms_regions` must be regions with a numbering plan, and (when either
 * changes) each team phone a mobile number of a region the business texts: its lines' regions
 * (`lineRegions`) and `sms_regions`.
 */
function textingProblems(
  profile: BusinessProfile,
  patch: BusinessPatch,
  lineRegions: readonly string[],
  { isSmsRegion, teamPhoneProblem }: TextingRules,
): ValidationItem[] {
  const items: ValidationItem[] = [];
  patch.sms_regions?.forEach((code, i) => {
    if (!isSmsRegion(code)) items.push(problem(['sms_regions', i], code, 'not an ISO 3166 alpha-2 region with a telephone numbering plan'));
  });
  if (patch.team_phones === undefined && patch.sms_regions === undefined) return items;
  const allowed = [...lineRegions, ...profile.sms_regions.filter(isSmsRegion)];
  profile.team_phones.forEach((phone, i) => {
    const error = teamPhoneProblem(phone, allowed);
    if (error !== null) items.push(problem(['team_phones', i], phone, error));
  });
  return items;
}

/**
 * `web_origins` as stored: each entry normalised (`normalizeOrigin`), duplicates dropped (the
 * first kept), and a 422 item at the index of each entry that is not an origin.
 */
function webOrigins(list: readonly string[]): { origins: string[]; items: ValidationItem[] } {
  const items: ValidationItem[] = [];
  const origins = new Set<string>();
  list.forEach((entry, i) => {
    const normal = normalizeOrigin(entry);
    if ('error' in normal) items.push(problem(['web_origins', i], entry, normal.error));
    else origins.add(normal.origin);
  });
  return { origins: [...origins], items };
}

/** What the schema cannot see: time zone, dates, the week's ranges, the 5-minute grid, unique names. */
function profileProblems(profile: BusinessProfile, patch: BusinessPatch): ValidationItem[] {
  const items: ValidationItem[] = [];
  if (patch.timezone !== undefined && !isValidTimezone(patch.timezone))
    items.push(problem(['timezone'], patch.timezone, 'not an IANA time zone'));
  patch.closed_dates?.forEach((date, i) => {
    if (!DateTime.fromISO(date).isValid) items.push(problem(['closed_dates', i], date, 'not a calendar date'));
  });
  for (const day of WEEKDAYS) {
    if (patch.hours?.[day] === undefined) continue;
    for (const [i, error] of dayProblems(profile.hours[day])) items.push(problem(['hours', day, i], profile.hours[day][i], error));
  }
  const { booking } = profile;
  for (const field of ['slot_step_min', 'buffer_min'] as const) {
    if (booking[field] % GRANULE_MINUTES !== 0)
      items.push(problem(['booking', field], booking[field], `must be a multiple of ${GRANULE_MINUTES}`));
  }
  const names = new Set<string>();
  booking.services.forEach((service, i) => {
    const loc = ['booking', 'services', i];
    if (service.duration_min % GRANULE_MINUTES !== 0)
      items.push(problem([...loc, 'duration_min'], service.duration_min, `must be a multiple of ${GRANULE_MINUTES}`));
    const key = service.name.trim().toLowerCase();
    if (names.has(key)) items.push(problem([...loc, 'name'], service.name, 'service names must be unique'));
    names.add(key);
  });
  return items;
}

/**
 * Validates a PATCH /business body and merges it into `profile`; a 422 lists every problem
 * (schema bounds first, then the rules that need the merged profile). Returns the new profile and
 * what to do with the payment key (`undefined`: keep, `null`: remove, a string: seal and store).
 * `lineRegions` are the regions of the business's own numbers (`lineRegion`), which its team
 * phones may be in without `sms_regions`; `texting` checks numbers and regions.
 *
 * @example
 * const { profile, paymentKey } = applyBusinessPatch(business.profile, await c.req.json(), ['US'], TEXTING_RULES);
 */
export function applyBusinessPatch(
  profile: BusinessProfile,
  body: unknown,
  lineRegions: readonly string[],
  texting: TextingRules,
): { profile: BusinessProfile; paymentKey: string | null | undefined } {
  const patch = parseWith(BusinessPatchSchema, body, ['body']);
  const { hours, booking, payment, calendar_feed_enabled: _feed, web_origins, ...plain } = patch;
  const origins = web_origins === undefined ? undefined : webOrigins(web_origins);
  const { provider_key: paymentKey, provider_key_set: _set, ...paymentFields } = payment ?? {};
  const definedHours = Object.fromEntries(Object.entries(hours ?? {}).filter(([, ranges]) => ranges !== undefined));
  const next: BusinessProfile = {
    ...profile,
    ...Object.fromEntries(Object.entries(plain).filter(([, value]) => value !== undefined)),
    hours: { ...profile.hours, ...definedHours },
    web_origins: origins?.origins ?? profile.web_origins,
    booking: { ...profile.booking, ...Object.fromEntries(Object.entries(booking ?? {}).filter(([, value]) => value !== undefined)) },
    payment: { ...profile.payment, ...Object.fromEntries(Object.entries(paymentFields).filter(([, value]) => value !== undefined)) },
  };
  const items = [...profileProblems(next, patch), ...(origins?.items ?? []), ...textingProblems(next, patch, lineRegions, texting)];
  if (items.length > 0) throw new ValidationError(items);
  return { profile: next, paymentKey };
}
