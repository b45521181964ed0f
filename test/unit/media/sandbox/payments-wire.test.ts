import { describe, expect, it } from 'vitest';
import { parseBracketForm, sessionParams, WireError } from '../../../../media-service/src/sandbox/payments-wire';

const NOW = 1_800_000_000;
const VALID =
  'mode=payment&line_items[0][quantity]=1&line_items[0][price_data][currency]=usd&line_items[0][price_data][unit_amount]=4500' +
  '&line_items[0][price_data][product_data][name]=Deposit%20for%20B-123&client_reference_id=call-1&metadata[call_id]=1' +
  `&expires_at=${NOW + 3600}`;

describe('parseBracketForm', () => {
  it('reads nested brackets and indexed arrays as stripe-node writes them', () => {
    expect(parseBracketForm('a=1&b[c]=x%20y&d[0][e]=2&d[1][e]=3&f=')).toEqual({
      a: '1',
      b: { c: 'x y' },
      d: { 0: { e: '2' }, 1: { e: '3' } },
      f: '',
    });
  });

  it.each([
    ['a repeated key', 'a=1&a=2'],
    ['a key that is both a value and an object', 'a=1&a[b]=2'],
    ['a prototype key', '__proto__[x]=1'],
    ['an unbalanced bracket', 'a[b=1'],
    ['nesting deeper than 5', 'a[b][c][d][e][f]=1'],
    ['bad percent-encoding', 'a=%E0%A4%A'],
    ['more than 200 fields', Array.from({ length: 201 }, (_, i) => `k${i}=1`).join('&')],
  ])('refuses %s', (_case, body) => {
    expect(() => parseBracketForm(body)).toThrow(WireError);
  });

  it('keeps a key named like an Object method as a plain field', () => {
    expect(parseBracketForm('constructor[x]=1')).toEqual({ constructor: { x: '1' } });
  });
});

describe('sessionParams', () => {
  it('reads a valid Checkout Session create', () => {
    expect(sessionParams(parseBracketForm(VALID), NOW)).toEqual({
      currency: 'usd',
      unitAmount: 4500,
      quantity: 1,
      name: 'Deposit for B-123',
      expiresAt: NOW + 3600,
      clientReferenceId: 'call-1',
      metadata: { call_id: '1' },
      successUrl: null,
    });
  });

  it.each([
    ['another mode', VALID.replace('mode=payment', 'mode=subscription'), 'mode'],
    ['a missing currency', VALID.replace('&line_items[0][price_data][currency]=usd', ''), 'line_items[0][price_data][currency]'],
    ['a zero amount', VALID.replace('unit_amount]=4500', 'unit_amount]=0'), 'line_items[0][price_data][unit_amount]'],
    ['an expiry under 30 minutes', VALID.replace(`expires_at=${NOW + 3600}`, `expires_at=${NOW + 60}`), 'expires_at'],
    ['an expiry over 24 hours', VALID.replace(`expires_at=${NOW + 3600}`, `expires_at=${NOW + 90_000}`), 'expires_at'],
    ['a metadata value over 500 characters', `${VALID}&metadata[note]=${'x'.repeat(501)}`, 'metadata[note]'],
    ['two line items', `${VALID}&line_items[1][quantity]=1`, 'line_items'],
  ])('refuses %s, naming the parameter', (_case, body, param) => {
    expect(() => sessionParams(parseBracketForm(body), NOW)).toThrow(expect.objectContaining({ param }));
  });
});
