import type { REDACT_KINDS } from './assistant-config-advanced';

/** What `advanced.redact` may mask (spec AdvancedCfg): card, ssn, email, phone, dob. */
export type RedactKind = (typeof REDACT_KINDS)[number];

/**
 * The passes, in the order they run. Order matters: an email may hold digits; a card number holds
 * phone-shaped and SSN-shaped digit groups; a date must be gone before the phone pass so
 * `04.12.1985` is never read as a phone; so the most specific kinds go first.
 */
const PASS_ORDER: readonly RedactKind[] = ['email', 'card', 'ssn', 'dob', 'phone'];

// ---------------------------------------------------------------- email

// The local part is at most 64 characters (RFC 5321 §4.5.3.1.1): bounding it keeps a long run of
// letters with no "@" linear to scan (unbounded, 3,000 letters took 58 ms).
const EMAIL = /[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}/g;

// ---------------------------------------------------------------- card

/** Digit groups joined by single spaces or dashes: the raw material of a card number as typed or transcribed. */
const DIGIT_RUN = /(?<!\d)\d+(?:[ -]\d+)*(?!\d)/g;

/** Luhn mod 10 (ISO/IEC 7812): every payment card number passes it. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** The last group index of the longest Luhn-valid 13–19 digit card starting at group `start`, or -1. */
function longestCardFrom(groups: string[], start: number): number {
  let digits = '';
  let best = -1;
  for (let end = start; end < groups.length; end++) {
    digits += groups[end];
    if (digits.length > 19) break;
    if (digits.length >= 13 && luhnValid(digits)) best = end;
  }
  return best;
}

/**
 * Masks every card inside one digit run, aligned on its groups, so a card followed by more digits
 * ("4111 1111 1111 1111 123", a CVV read out after it) is still found, and the rest is kept.
 */
function maskCardsInRun(run: string): string {
  const tokens = run.split(/([ -])/); // groups at even indices, separators at odd ones
  const groups = tokens.filter((_, index) => index % 2 === 0);
  if (groups.join('').length < 13) return run;
  const out: string[] = [];
  for (let group = 0; group < groups.length;) {
    const end = longestCardFrom(groups, group);
    const last = end === -1 ? group : end;
    const digits = groups.slice(group, last + 1).join('');
    out.push(end === -1 ? digits : `[card ending ${digits.slice(-4)}]`);
    const separator = tokens[2 * last + 1];
    if (last < groups.length - 1 && separator !== undefined) out.push(separator);
    group = last + 1;
  }
  return out.join('');
}

// ---------------------------------------------------------------- ssn

/** ###-##-####, ### ## #### or 9 digits, not inside a longer run of digit groups. */
const SSN = /(?<!\d[- ]?|\+)(\d{3})([- ]?)(\d{2})\2(\d{4})(?![- ]?\d)/g;

/** SSA rules (POMS RM 10201.035): no area 000, 666 or 9xx, no group 00, no serial 0000; there is no check digit. */
export function ssnValid(area: string, group: string, serial: string): boolean {
  return area !== '000' && area !== '666' && !area.startsWith('9') && group !== '00' && serial !== '0000';
}

// ---------------------------------------------------------------- dob

const MONTH = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?`;
const DAY = String.raw`(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?\b`;
const YEAR = String.raw`(?:1[89]|20)\d{2}\b`;

/** "April 12th, 1985", "Apr. 12 1985", "April the 12th 1985". */
const SPELLED_MDY = new RegExp(String.raw`\b${MONTH}\s+(?:the\s+)?${DAY},?\s+(?:of\s+)?${YEAR}`, 'gi');
/** "12 April 1985", "12th of April, 1985", "the 12th of April 1985". */
const SPELLED_DMY = new RegExp(String.raw`\b(?:the\s+)?${DAY}\s+(?:of\s+)?${MONTH},?\s+${YEAR}`, 'gi');
/** 1985-04-12, 1985/4/12; never the date inside an ISO timestamp (2026-11-22T09:21…, 2026-11-22 09:21). */
const NUMERIC_YMD = /(?<!\d[/.-]?)((?:1[89]|20)\d{2})([-/.])(\d{1,2})\2(\d{1,2})(?!\d|[/.-]\d|T\d| \d{1,2}:\d{2})/g;
/** 04/12/1985, 12-04-85, 12.04.1985 (month and day either way round). */
const NUMERIC_DMY = /(?<!\d[/.-]?)(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})(?!\d|[/.-]\d)/g;

const BIRTH_WORD = String.raw`\b(?:born|birth(?:day|date)?|date\s+of\s+birth|d\.?o\.?b)\b`;
const PARTIAL_DATE = String.raw`(?:${MONTH}\s+(?:the\s+)?${DAY}|(?:the\s+)?${DAY}\s+(?:of\s+)?${MONTH}|(?<!\d)\d{1,2}[/-]\d{1,2}(?![\d/-]))`;
/** A date without a year, within 40 characters after a birth word ("born on April 12th", "DOB 4/12"). */
const NEAR_BIRTH_WORD = new RegExp(String.raw`(${BIRTH_WORD}[^\n]{0,40}?)${PARTIAL_DATE}`, 'gi');

const isMonth = (value: number) => value >= 1 && value <= 12;
const isDay = (value: number) => value >= 1 && value <= 31;

function redactDates(text: string): string {
  return text
    .replace(SPELLED_MDY, '[dob]')
    .replace(SPELLED_DMY, '[dob]')
    .replace(NUMERIC_YMD, (match, _y: string, _s: string, month: string, day: string) =>
      isMonth(Number(month)) && isDay(Number(day)) ? '[dob]' : match,
    )
    .replace(NUMERIC_DMY, (match, first: string, separator: string, second: string, year: string) => {
      if (separator === '.' && year.length !== 4) return match; // "3.14.15" is not a date
      const [a, b] = [Number(first), Number(second)];
      return (isMonth(a) && isDay(b)) || (isDay(a) && isMonth(b)) ? '[dob]' : match;
    })
    .replace(NEAR_BIRTH_WORD, (_match, lead: string) => `${lead}[dob]`);
}

// ---------------------------------------------------------------- phone

/** E.164 and international: "+" then 8–15 digits with spaces, dots, dashes or brackets between. */
const INTERNATIONAL = /(?<![\w+])\+\d(?:[ .()-]{0,2}\d){6,14}(?!\d)/g;
/** North American: (415) 555-0100, 415.555.0100, 1-800-555-0199, 4155550100 (NANP area/exchange start 2–9). */
const NANP = /(?<![\w+])(?:1[ .-]?)?(?:\([2-9]\d{2}\)|[2-9]\d{2})[ .-]?[2-9]\d{2}[ .-]?\d{4}(?!\d)/g;
/** National numbers with a trunk 0: 020 7946 0958, 07700 900123, 01 23 45 67 89 (9–12 digits). */
const TRUNK_ZERO = /(?<![\w+])0[1-9]\d{0,3}(?:[ .-]?\d{2,4}){2,4}(?!\d)/g;
/** The SSN shape: an invalid SSN (area 000, group 00…) is a near miss, not a phone number. */
const SSN_SHAPE = /^\d{3}([- ]?)\d{2}\1\d{4}$/;

const digitCount = (text: string) => text.replace(/\D/g, '').length;
const isNationalPhone = (text: string) => digitCount(text) >= 9 && digitCount(text) <= 12 && !SSN_SHAPE.test(text);

function redactPhones(text: string): string {
  return text
    .replace(INTERNATIONAL, (match) => (digitCount(match) >= 8 ? '[phone]' : match))
    .replace(NANP, '[phone]')
    .replace(TRUNK_ZERO, (match) => (isNationalPhone(match) ? '[phone]' : match));
}

// ---------------------------------------------------------------- passes

const PASSES: Record<RedactKind, (text: string) => string> = {
  email: (text) => text.replace(EMAIL, '[email]'),
  card: (text) => text.replace(DIGIT_RUN, maskCardsInRun),
  ssn: (text) =>
    text.replace(SSN, (match, area: string, _s: string, group: string, serial: string) =>
      ssnValid(area, group, serial) ? '[ssn]' : match,
    ),
  dob: redactDates,
  phone: redactPhones,
};

/**
 * Masks the PII kinds a business chose (`advanced.redact`, docs/design.md "Other rules") in one text, before it is
 * stored, logged or sent (what healthcare and payment callers expect of a HIPAA setting):
 * - `card`: 13–19 digits, optionally grouped by spaces or dashes, that pass Luhn → `[card ending 1234]`
 *   (PCI allows showing the last four); Luhn-invalid numbers (order numbers) are left alone.
 * - `ssn`: ###-##-####, ### ## #### or 9 digits obeying the SSA rules → `[ssn]`.
 * - `email` → `[email]`.
 * - `phone`: E.164/international, North American and trunk-0 national formats → `[phone]`.
 * - `dob` → `[dob]`: EVERY full date (day, month and year; numeric or spelled), not only dates
 *   near "born"/"DOB": on a call the question ("What's your date of birth?") is usually in the
 *   assistant's turn and the answer in the caller's, so a keyword window on one text would miss
 *   most birth dates. Appointment dates mostly come without a year ("Tuesday the 14th") and survive;
 *   a year-less date is redacted only within 40 characters after a birth word. ISO timestamps
 *   (`2026-11-22T09:21:23Z`) are never touched.
 * Spoken digits ("four one one one…") are out of scope: the transcriber's numeral formatting
 * turns them into digits first.
 *
 * @example
 * redactText('Card 4111 1111 1111 1111, mail ana@example.com', ['card', 'email']);
 * // → 'Card [card ending 1111], mail [email]'
 */
export function redactText(text: string, kinds: readonly RedactKind[]): string {
  if (kinds.length === 0) return text;
  return PASS_ORDER.filter((kind) => kinds.includes(kind)).reduce((current, kind) => PASSES[kind](current), text);
}

/** Options for {@link redactDeep}. */
export interface RedactDeepOptions {
  /** Object keys whose values are kept as they are (metadata such as `to_number` or `created_at`). */
  skipKeys?: readonly string[];
}

/**
 * Applies {@link redactText} to every string in a JSON value (transcripts, summaries, analysis,
 * webhook payloads) and returns a new value; keys, numbers, booleans and null are unchanged.
 * Numbers are deliberately left alone: ids, times and scores are numbers, and turning a 9-digit id
 * into "[ssn]" would corrupt the record. Pass `skipKeys` for string metadata that must survive.
 *
 * @example
 * redactDeep({ transcript: [{ role: 'user', text: 'my email is a@b.co' }] }, ['email']);
 */
export function redactDeep<T>(value: T, kinds: readonly RedactKind[], options: RedactDeepOptions = {}): T {
  if (kinds.length === 0) return value;
  const skip = new Set(options.skipKeys ?? []);
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return redactText(node, kinds);
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const prototype = Object.getPrototypeOf(node);
    if (prototype !== Object.prototype && prototype !== null) return node;
    return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, skip.has(key) ? child : walk(child)]));
  };
  return walk(value) as T;
}
