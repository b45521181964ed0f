import { isSupportedCountry, parsePhoneNumberFromString, type NumberType } from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/max/metadata';
import type { TextingRules } from '../domain/business-settings';

/**
 * Who a line may text: the one rule every text the platform sends obeys (`send_sms`, payment
 * links, booking confirmations, team notices), decided by region and number type with Google's
 * numbering plans (libphonenumber-js, `max` metadata: the only set that knows premium-rate,
 * shared-cost and the other types), never by calling code: `+1` alone spans the US, Canada and
 * twenty-odd Caribbean and Pacific regions, where a text costs many times more and SMS pumping
 * fraud pays out (docs/decisions.md "Texts by region and number type").
 */

/**
 * The types a text may go to: a mobile, or a number whose plan cannot tell mobile from fixed
 * (every NANP number). Everything else is refused: premium-rate, shared-cost, toll-free (it
 * cannot take a text in most plans and is a pumping target), VoIP, personal, pager, UAN and
 * voicemail numbers (non-geographic or forwarded, billed as the carrier likes), and landlines
 * (a text cannot reach them). A number no plan knows has no type and is refused too.
 */
export const TEXTABLE_TYPES: ReadonlySet<NumberType> = new Set<NumberType>(['MOBILE', 'FIXED_LINE_OR_MOBILE']);

const TYPE_NAMES: Record<NonNullable<NumberType>, string> = {
  MOBILE: 'mobile',
  FIXED_LINE_OR_MOBILE: 'fixed-line or mobile',
  FIXED_LINE: 'landline',
  PREMIUM_RATE: 'premium-rate',
  TOLL_FREE: 'toll-free',
  SHARED_COST: 'shared-cost',
  VOIP: 'VoIP',
  PERSONAL_NUMBER: 'personal (follow-me)',
  PAGER: 'pager',
  UAN: 'universal access (company)',
  VOICEMAIL: 'voicemail access',
};

/** True for an ISO 3166 alpha-2 code (upper case) that has a numbering plan: what `sms_regions` takes. */
export function isSmsRegion(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && isSupportedCountry(code);
}

/** Why a text may not go to a number: `unknown` (no plan knows it), `type` (not a mobile), `region` (not a region the line texts). */
export interface TextRefusal {
  reason: 'unknown' | 'type' | 'region';
  /** One sentence naming the number, for a 422 or a log-free refusal. */
  detail: string;
}

/** The line a text would come from, and what it may text. */
export interface TextingLine {
  /** The business's own number on the call (E.164). */
  number: string;
  /** The business's `sms_regions` (besides the line's own region); empty: the line's region only. */
  regions: readonly string[];
  /**
   * Texts go to the sandbox carrier (SANDBOX_CARRIER=true: the local stack and tests, never with
   * Twilio credentials). Then a number that no numbering plan knows (the sandbox's `+1555…` lines,
   * the tests' 13-digit numbers) counts as a number of the line's region when it has the line's
   * calling code. A number a plan knows is judged by the real rule, sandbox or not.
   */
  sandbox: boolean;
}

/** `+15550100001`'s calling code's main region (`US` for `1`, `GB` for `44`), for a sandbox line no plan knows. */
function mainRegionOf(callingCode: string): string | undefined {
  // Non-geographic codes (`+800`, `+882`, …) list the pseudo-region `001`, which no line is in.
  const main: string | undefined = metadata.country_calling_codes[callingCode]?.[0];
  return main === '001' ? undefined : main;
}

/**
 * The region of a line, `undefined` when no plan knows the number (outside the sandbox, such a
 * line texts nobody).
 *
 * @example
 * lineRegion('+14155550100', false); // 'US'
 * lineRegion('+15550100001', true); // 'US' (a sandbox line)
 */
export function lineRegion(number: string, sandbox: boolean): string | undefined {
  const parsed = parsePhoneNumberFromString(number);
  if (parsed?.isValid()) return parsed.country;
  return sandbox && parsed ? mainRegionOf(parsed.countryCallingCode) : undefined;
}

/**
 * Whether a number may be texted at all, and from which region: `{ region }` for a valid mobile
 * (or NANP) number, else the refusal. Regions are not checked here (see {@link textRefusal}).
 */
export function textableRegion(number: string): { region: string } | TextRefusal {
  const parsed = parsePhoneNumberFromString(number);
  if (!parsed?.isValid())
    return { reason: 'unknown', detail: `${number} is not a phone number of any numbering plan, so it cannot take texts.` };
  const type = parsed.getType();
  if (!TEXTABLE_TYPES.has(type) || parsed.country === undefined) {
    const name = type === undefined ? 'non-geographic' : TYPE_NAMES[type];
    return { reason: 'type', detail: `${number} is a ${name} number, and texts go to mobile numbers only.` };
  }
  return { region: parsed.country };
}

function regionsText(regions: readonly string[]): string {
  return [...new Set(regions)].join(', ');
}

/**
 * The one rule: `null` when the line may text `to`, else why not. A line texts valid mobile (or
 * NANP) numbers of its own region, plus the business's `sms_regions`; never premium-rate and the
 * other special types, never a number no plan knows (except in the sandbox, see {@link TextingLine}).
 *
 * @example
 * textRefusal('+18095550123', { number: '+14155550100', regions: [], sandbox: false });
 * // { reason: 'region', detail: '+18095550123 is a DO number; this line texts only US numbers.' }
 */
export function textRefusal(to: string, line: TextingLine): TextRefusal | null {
  const home = lineRegion(line.number, line.sandbox);
  if (home === undefined)
    return { reason: 'unknown', detail: `The line ${line.number} is not a number of any numbering plan, so it sends no texts.` };
  const found = textableRegion(to);
  if ('reason' in found) {
    const sandboxed =
      line.sandbox &&
      found.reason === 'unknown' &&
      parsePhoneNumberFromString(to)?.countryCallingCode === parsePhoneNumberFromString(line.number)?.countryCallingCode;
    return sandboxed ? null : found;
  }
  const allowed = [home, ...line.regions];
  if (allowed.includes(found.region)) return null;
  return { reason: 'region', detail: `${to} is a ${found.region} number; this line texts only ${regionsText(allowed)} numbers.` };
}

/**
 * What is wrong with a team phone when the profile is saved (`null`: nothing): a number no plan
 * knows, a type that takes no texts, or a region outside `allowed` (the regions of the business's
 * lines and its `sms_regions`; empty when neither is known yet: the send-time rule still holds).
 */
export function teamPhoneProblem(number: string, allowed: readonly string[]): string | null {
  const found = textableRegion(number);
  if ('reason' in found) return found.detail;
  if (allowed.length === 0 || allowed.includes(found.region)) return null;
  return `${number} is a ${found.region} number; this business texts only ${regionsText(allowed)} numbers (add ${found.region} to sms_regions to text it).`;
}

/**
 * The regions of a business's own numbers, which its team phones may be in without `sms_regions`
 * (a number on the sandbox carrier is read as a sandbox line; a number no plan knows adds none).
 */
export function lineRegions(lines: readonly { number: string; provider: string }[]): string[] {
  return [...new Set(lines.flatMap((line) => lineRegion(line.number, line.provider === 'sandbox') ?? []))];
}

/** The rules PATCH /business checks the texting settings with (`applyBusinessPatch`'s `texting`). */
export const TEXTING_RULES: TextingRules = { isSmsRegion, teamPhoneProblem };
