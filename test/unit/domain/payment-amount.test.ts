import { describe, expect, it } from 'vitest';
import { checkAmount, currencyDecimals } from '../../../shared/domain/payment-amount';

const usd = { currency: 'usd', max_amount: 500 };

describe('checkAmount', () => {
  it.each([
    ['45 USD', 45, usd, { ok: true, minor: 4500, text: '45.00 USD' }],
    ['19.99 USD (a float that is not exact)', 19.99, usd, { ok: true, minor: 1999, text: '19.99 USD' }],
    ['exactly the maximum', 500, usd, { ok: true, minor: 50_000, text: '500.00 USD' }],
    ['yen, which has no minor unit', 1200, { currency: 'jpy', max_amount: 50_000 }, { ok: true, minor: 1200, text: '1200 JPY' }],
    ['dinars, with three decimals', 1.5, { currency: 'kwd', max_amount: 100 }, { ok: true, minor: 1500, text: '1.500 KWD' }],
  ])('takes %s', (_case, amount, settings, expected) => {
    expect(checkAmount(amount, settings)).toEqual(expected);
  });

  it.each([
    ['zero', 0, usd, 'The amount must be more than zero.'],
    ['a negative amount', -5, usd, 'The amount must be more than zero.'],
    ['not a number', Number.NaN, usd, 'The amount must be more than zero.'],
    [
      'one cent above the maximum',
      500.01,
      usd,
      'The amount is above the most this business accepts by payment link (500.00 USD), so no link was sent. Tell the caller, and offer to take a message for the team instead.',
    ],
    ['fractions of a cent', 10.005, usd, 'The amount has more decimals than USD allows (2). Ask the caller for the exact amount.'],
    [
      'fractions of a yen',
      10.5,
      { currency: 'jpy', max_amount: 500 },
      'The amount has more decimals than JPY allows (0). Ask the caller for the exact amount.',
    ],
    ['anything, when the maximum is 0', 1, { currency: 'eur', max_amount: 0 }, expect.stringContaining('(0.00 EUR)')],
  ])('refuses %s in plain words', (_case, amount, settings, reason) => {
    expect(checkAmount(amount, settings)).toEqual({ ok: false, reason });
  });

  it('knows each currency family', () => {
    expect([currencyDecimals('USD'), currencyDecimals('jpy'), currencyDecimals('bhd')]).toEqual([2, 0, 3]);
  });
});
