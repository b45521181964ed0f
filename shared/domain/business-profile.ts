import { IANAZone } from 'luxon';
import { defaultWeeklyHours, formatWeeklyHours, parseWeeklyHours, WEEKDAYS, type WeeklyHours } from './opening-hours';

/** A service the business books: how long it takes and, optionally, what it costs. */
export interface BookableService {
  name: string;
  duration_min: number;
  /** In the payment currency's major units (e.g. 80.5 = USD 80.50); null when not said. */
  price: number | null;
}

/** How appointments are offered (docs/design.md "Bookings"). */
export interface BookingSettings {
  /** The first is the default when a caller names none. */
  services: BookableService[];
  /** Slots start every this many minutes from the start of each opening range. */
  slot_step_min: number;
  /** Kept free after every appointment (it may run past closing time). */
  buffer_min: number;
  /** The earliest slot offered is at least this far from now. */
  min_notice_min: number;
  /** The latest slot offered starts at most this many days from now. */
  max_days_ahead: number;
}

/** Payment links (the provider key itself is stored sealed on the business, never here). */
export interface PaymentSettings {
  /** ISO 4217, lower case (`usd`). */
  currency: string;
  /** The largest amount an assistant may request, in major units. */
  max_amount: number;
}

/**
 * The business profile: the facts assistants use (transfer, team messages, bookings, payments),
 * set with `PATCH /business` or `admin set-profile`. Prompts include it when an assistant's
 * `config.business_context` is true.
 */
export interface BusinessProfile {
  /** The name callers know the business by. */
  display_name: string;
  /** IANA time zone, e.g. `America/New_York`; opening hours and appointment times are in this zone. */
  timezone: string;
  hours: WeeklyHours;
  /** `YYYY-MM-DD` local dates the business is closed whatever its weekly hours say. */
  closed_dates: string[];
  /** Street address, as a caller would be told it. */
  address: string;
  /** E.164 number that the transfer tool connects callers to ('' when none). */
  transfer_number: string;
  /** Where team messages and booking notices are emailed. */
  team_emails: string[];
  /** E.164 numbers team messages are texted to: mobile numbers of a region the business texts. */
  team_phones: string[];
  /**
   * Regions (ISO 3166 alpha-2) a line texts besides its own (docs/decisions.md "Texts by region
   * and number type"); empty, the default: each line texts numbers of its own region only.
   */
  sms_regions: string[];
  /**
   * Web pages that may start web calls with this business's tokens (origins, normalised: see
   * `normalizeOrigin` in web-call.ts); the console's own origin is always allowed besides.
   */
  web_origins: string[];
  booking: BookingSettings;
  payment: PaymentSettings;
}

/**
 * Each profile value is clipped to this many characters in the prompt, so a built prompt stays
 * inside the 30000-char `system_prompt` bound whatever the profile holds.
 */
export const PROFILE_FIELD_MAX_CHARS = 300;

/** The time zone of a business that has not set one. */
export const DEFAULT_TIMEZONE = 'UTC';

/** What an assistant may request by payment link until the business sets its own maximum. */
export const DEFAULT_MAX_PAYMENT_AMOUNT = 500;

/** Booking settings of a new business: one 30-minute service, 30-minute slots, an hour's notice, 60 days ahead. */
export function defaultBookingSettings(): BookingSettings {
  return {
    services: [{ name: 'Appointment', duration_min: 30, price: null }],
    slot_step_min: 30,
    buffer_min: 0,
    min_notice_min: 60,
    max_days_ahead: 60,
  };
}

/**
 * The profile of a new business (documented in docs/api-tour.md "Business"): open Monday to Friday
 * 09:00–17:00 in UTC until it sets its zone, the default booking settings, payments in USD up to
 * {@link DEFAULT_MAX_PAYMENT_AMOUNT}; every text field empty.
 */
export function defaultBusinessProfile(): BusinessProfile {
  return {
    display_name: '',
    timezone: DEFAULT_TIMEZONE,
    hours: defaultWeeklyHours(),
    closed_dates: [],
    address: '',
    transfer_number: '',
    team_emails: [],
    team_phones: [],
    sms_regions: [],
    web_origins: [],
    booking: defaultBookingSettings(),
    payment: { currency: 'usd', max_amount: DEFAULT_MAX_PAYMENT_AMOUNT },
  };
}

/** Whether `zone` is an IANA time zone this runtime knows (`Europe/Madrid`, `UTC`). */
export function isValidTimezone(zone: string): boolean {
  return zone.length <= 64 && IANAZone.isValidZone(zone);
}

type StoredProfile = Partial<Omit<BusinessProfile, 'hours'>> & { hours?: unknown; team_email?: unknown };

function storedHours(hours: unknown): WeeklyHours {
  if (typeof hours === 'string') {
    const parsed = parseWeeklyHours(hours);
    return typeof parsed === 'string' ? defaultWeeklyHours() : parsed;
  }
  if (hours === null || typeof hours !== 'object') return defaultWeeklyHours();
  const week = hours as Partial<WeeklyHours>;
  return Object.fromEntries(WEEKDAYS.map((day) => [day, week[day] ?? []])) as WeeklyHours;
}

/**
 * A stored profile with every field present: fields written before they existed take their
 * defaults, the free-text `hours` and single `team_email` of older records are read into their
 * structured forms (free text that does not read as hours gives the default week).
 */
export function readProfile(stored: unknown): BusinessProfile {
  const base = defaultBusinessProfile();
  if (stored === null || typeof stored !== 'object') return base;
  const profile = stored as StoredProfile;
  const legacyEmail = typeof profile.team_email === 'string' && profile.team_email !== '' ? [profile.team_email] : [];
  return {
    display_name: profile.display_name ?? base.display_name,
    timezone: profile.timezone && isValidTimezone(profile.timezone) ? profile.timezone : base.timezone,
    hours: profile.hours === undefined ? base.hours : storedHours(profile.hours),
    closed_dates: profile.closed_dates ?? [],
    address: profile.address ?? '',
    transfer_number: profile.transfer_number ?? '',
    team_emails: profile.team_emails ?? legacyEmail,
    team_phones: profile.team_phones ?? [],
    sms_regions: profile.sms_regions ?? [],
    web_origins: profile.web_origins ?? [],
    booking: { ...base.booking, ...profile.booking },
    payment: { ...base.payment, ...profile.payment },
  };
}

/** Collapses line breaks and runs of whitespace so a value reads as one line of the prompt. */
export function toOneLine(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim().replace(/\s+/g, ' '))
    .filter((line) => line !== '')
    .join('; ');
}

/** Cuts `text` to at most `max` characters, marking the cut with an ellipsis. */
export function clipText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** The business's name as the prompt should say it, or '' when the profile has none. */
export function businessName(profile: BusinessProfile | null): string {
  return profile === null ? '' : clipText(toOneLine(profile.display_name ?? ''), PROFILE_FIELD_MAX_CHARS);
}

function servicesText(profile: BusinessProfile): string {
  const currency = profile.payment.currency.toUpperCase();
  return profile.booking.services
    .map(
      (service) =>
        `${service.name} (${service.duration_min} min${service.price === null ? '' : `, ${service.price.toFixed(2)} ${currency}`})`,
    )
    .join(', ');
}

/** Prompt lines in a fixed order: label, then the value as the assistant should read it. */
const PROFILE_LINES: ReadonlyArray<readonly [string, (profile: BusinessProfile) => string]> = [
  ['Name', (profile) => profile.display_name],
  ['Opening hours', (profile) => formatWeeklyHours(profile.hours)],
  ['Closed on', (profile) => profile.closed_dates.join(', ')],
  ['Time zone (opening hours and appointment times are in this zone)', (profile) => profile.timezone],
  ['Services', servicesText],
  ['Address', (profile) => profile.address],
  ['Team phone line (where transfers go; share it only if a caller asks how to reach the team)', (profile) => profile.transfer_number],
  ['Team email (where messages for the team go)', (profile) => profile.team_emails.join(', ')],
];

/**
 * The prompt block that describes the business: one line per non-empty profile value under an
 * `# About the business` heading (the opening hours line derived from the structured week).
 * Setup-built prompts end with it, and the call engine appends the same string to hand-written
 * prompts when `business_context` is true; because it is deterministic, the engine can skip
 * adding it when the prompt already contains it.
 *
 * @example
 * describeBusiness({ ...defaultBusinessProfile(), display_name: 'Acme Dental' });
 * // '# About the business\n…\nName: Acme Dental\nOpening hours: Mon-Fri 09:00-17:00; Sat-Sun closed\n…'
 */
export function describeBusiness(stored: BusinessProfile): string {
  const profile = readProfile(stored);
  const lines = PROFILE_LINES.flatMap(([label, read]) => {
    const value = clipText(toOneLine(read(profile)), PROFILE_FIELD_MAX_CHARS);
    return value === '' ? [] : [`${label}: ${value}`];
  });
  if (lines.length === 0) return '';
  return ['# About the business', 'Use these facts when callers ask about the business.', ...lines].join('\n');
}
