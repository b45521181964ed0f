import * as v from 'valibot';
import { E164_PATTERN } from './phone-number';
import { strictDict, stringField } from './validation';

/**
 * How much an assistant may send a caller on one call (docs/decisions.md "Texts and emails per
 * call"). Texts go only to the caller's own number, so a prompt-injected model can neither pick a
 * premium number (toll fraud) nor spam: at most `textsPerCall` texts of `smsBodyMaxChars` (three
 * GSM-7 segments; Twilio recommends 320 or less), whatever tool sends them. Emails go to an
 * address the caller spelled out, at most `emailsPerCall`. The team is told of at most
 * `teamNoticesPerCall` messages per call (further messages are stored, not pushed), so a caller
 * or a looping model cannot flood the team's phones and inbox.
 */
export const CONTACT_LIMITS = {
  textsPerCall: 3,
  smsBodyMaxChars: 480,
  emailsPerCall: 3,
  emailSubjectMaxChars: 150,
  emailBodyMaxChars: 4000,
  emailAddressMaxChars: 254,
  teamNoticesPerCall: 5,
} as const;

/**
 * A plausible single email address: one `@`, a dotted domain of letters, digits and hyphens, no
 * spaces, quotes, commas or angle brackets (so it can never smuggle a second recipient or a
 * display name into a header).
 */
export const EMAIL_ADDRESS_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** True for an address {@link EMAIL_ADDRESS_PATTERN} accepts, within 254 characters. */
export function isEmailAddress(address: string): boolean {
  return address.length <= CONTACT_LIMITS.emailAddressMaxChars && EMAIL_ADDRESS_PATTERN.test(address);
}

/** True for a number a text can go to or come from (E.164; a withheld caller id is not one). */
export function isTextableNumber(number: string): boolean {
  return E164_PATTERN.test(number);
}

/** The ITU country calling codes of two digits; `1` and `7` are the one-digit ones, every other code has three. */
const TWO_DIGIT_CALLING_CODES = new Set(
  '20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58 60 61 62 63 64 65 66 81 82 84 86 90 91 92 93 94 95 98'.split(
    ' ',
  ),
);

/** The country calling code of an E.164 number (`+14155550100` → `1`, `+447700900123` → `44`, `+35312345678` → `353`). */
export function callingCode(number: string): string {
  const digits = number.replace(/^\+/, '');
  if (digits.startsWith('1') || digits.startsWith('7')) return digits.slice(0, 1);
  return TWO_DIGIT_CALLING_CODES.has(digits.slice(0, 2)) ? digits.slice(0, 2) : digits.slice(0, 3);
}

/** What `send_sms` accepts from the model. */
export const SendSmsArgsSchema = strictDict({
  body: stringField({ min: 1, max: CONTACT_LIMITS.smsBodyMaxChars, lines: true }),
});

/** What `email_caller` accepts from the model: the address is trimmed and checked. */
export const EmailCallerArgsSchema = strictDict({
  email: v.pipe(v.string(), v.trim(), v.check(isEmailAddress, 'Not an email address like name@example.com')),
  subject: stringField({ min: 1, max: CONTACT_LIMITS.emailSubjectMaxChars }),
  body: stringField({ min: 1, max: CONTACT_LIMITS.emailBodyMaxChars, lines: true }),
});
