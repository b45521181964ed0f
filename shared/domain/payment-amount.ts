import type { PaymentSettings } from './business-profile';
import { numberField, strictDict, stringField } from './validation';

/**
 * Payment amounts as callers say them (major units: 45.5 dollars) and as payment providers take
 * them (minor units: 4550 cents). Pure, so every rule is table-tested.
 */

/** Currencies without a minor unit (Stripe's zero-decimal list): 500 JPY is sent as 500. */
const ZERO_DECIMAL = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);
/** Currencies with three decimals: 1.5 KWD is sent as 1500. */
const THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

/** How many decimals a currency's major unit has (2 for most). */
export function currencyDecimals(currency: string): number {
  const code = currency.toLowerCase();
  if (ZERO_DECIMAL.has(code)) return 0;
  return THREE_DECIMAL.has(code) ? 3 : 2;
}

/** An amount the assistant may request, or why not (a sentence the model can say). */
export type CheckedAmount = { ok: true; minor: number; text: string } | { ok: false; reason: string };

/**
 * Checks an amount in major units against the business's payment settings: above 0, at most
 * `max_amount`, and no finer than the currency's minor unit; returns it in minor units and as the
 * caller should hear it (`45.00 USD`).
 *
 * @example checkAmount(45, { currency: 'usd', max_amount: 500 }) // { ok: true, minor: 4500, text: '45.00 USD' }
 */
export function checkAmount(amount: number, settings: PaymentSettings): CheckedAmount {
  const decimals = currencyDecimals(settings.currency);
  const code = settings.currency.toUpperCase();
  const limit = `${settings.max_amount.toFixed(decimals)} ${code}`;
  if (!Number.isFinite(amount) || amount <= 0) return { ok: false, reason: 'The amount must be more than zero.' };
  if (amount > settings.max_amount)
    return {
      ok: false,
      reason: `The amount is above the most this business accepts by payment link (${limit}), so no link was sent. Tell the caller, and offer to take a message for the team instead.`,
    };
  const scaled = amount * 10 ** decimals;
  const minor = Math.round(scaled);
  // Binary floats: 19.99 * 100 is 1998.9999999999998, which is still a whole number of cents.
  if (Math.abs(scaled - minor) > 1e-6)
    return { ok: false, reason: `The amount has more decimals than ${code} allows (${decimals}). Ask the caller for the exact amount.` };
  return { ok: true, minor, text: `${amount.toFixed(decimals)} ${code}` };
}

/** The longest description a payment page shows (what the caller pays for). */
export const PAYMENT_DESCRIPTION_MAX_CHARS = 200;

/**
 * What `send_payment_link` accepts from the model: an amount in major units (the business's own
 * limits are checked by {@link checkAmount}, so the model hears why) and what it is for.
 */
export const SendPaymentLinkArgsSchema = strictDict({
  amount: numberField({ le: 1_000_000_000 }),
  description: stringField({ min: 1, max: PAYMENT_DESCRIPTION_MAX_CHARS }),
});
