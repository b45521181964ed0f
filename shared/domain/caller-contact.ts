import * as v from 'valibot';
import { E164_PATTERN } from './phone-number';
import { strictDict, stringField } from './validation';

/**
 * How much an assistant may send a caller on one call (docs/decisions.md "Texts, emails and team
 * notifications"). Texts go only to the caller's own number, so a prompt-injected model can neither pick a
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
