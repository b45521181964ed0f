import { currencyDecimals } from '../../../shared/domain/payment-amount';

/**
 * The Stripe wire as the sandbox payment server reads and writes it: bracket-notation form bodies
 * (`line_items[0][price_data][currency]=usd`, as stripe-node encodes them), the Checkout Session
 * create parameters it accepts, and Stripe's error body. Pure, so the rules are table-tested.
 */

/** A parsed form value: a string, or nested objects (arrays arrive as objects keyed `0`, `1`, …). */
export type FormValue = string | { [key: string]: FormValue };

/** Bounds of one form body: fields, nesting depth, and a key's length. */
const FORM_LIMITS = { fields: 200, depth: 5, keyChars: 200 } as const;

/** Thrown for a body the server cannot read; answered as a 400 `invalid_request_error`. */
export class WireError extends Error {
  constructor(
    message: string,
    readonly param?: string,
    readonly code = 'parameter_invalid',
  ) {
    super(message);
    this.name = 'WireError';
  }
}

/** Reads `a[b][0][c]=v&…` into nested objects; a repeated or conflicting key is refused. */
export function parseBracketForm(body: string): Record<string, FormValue> {
  const root: Record<string, FormValue> = {};
  const pairs = body === '' ? [] : body.split('&');
  if (pairs.length > FORM_LIMITS.fields) throw new WireError(`Too many parameters (at most ${FORM_LIMITS.fields}).`);
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const rawKey = decodeForm(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decodeForm(pair.slice(eq + 1));
    const path = keyPath(rawKey);
    let node: Record<string, FormValue> = root;
    for (const [i, part] of path.entries()) {
      if (i === path.length - 1) {
        if (Object.hasOwn(node, part)) throw new WireError(`Parameter ${rawKey} is given twice.`, rawKey);
        node[part] = value;
        break;
      }
      const next = Object.hasOwn(node, part) ? node[part]! : {};
      if (typeof next === 'string') throw new WireError(`Parameter ${rawKey} conflicts with another.`, rawKey);
      node[part] = next;
      node = next;
    }
  }
  return root;
}

function decodeForm(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw new WireError('The body is not valid form encoding.');
  }
}

function keyPath(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match || key.length > FORM_LIMITS.keyChars) throw new WireError(`Invalid parameter name ${key.slice(0, 60)}.`);
  const parts = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
  if (parts.length > FORM_LIMITS.depth || parts.some((part) => part === '' || part === '__proto__'))
    throw new WireError(`Invalid parameter name ${key.slice(0, 60)}.`, key);
  return parts;
}

/** What a valid create request asks for. */
export interface SessionParams {
  currency: string;
  unitAmount: number;
  quantity: number;
  name: string;
  expiresAt: number | undefined;
  clientReferenceId: string | null;
  metadata: Record<string, string>;
  successUrl: string | null;
}

const text = (form: Record<string, FormValue>, key: string): string | undefined => {
  const value = form[key];
  if (value !== undefined && typeof value !== 'string') throw new WireError(`Invalid string: ${key}.`, key);
  return value;
};
const object = (value: FormValue | undefined, param: string): Record<string, FormValue> => {
  if (value === undefined) throw new WireError(`Missing required param: ${param}.`, param, 'parameter_missing');
  if (typeof value === 'string') throw new WireError(`Invalid object: ${param}.`, param);
  return value;
};
function integer(value: string | undefined, param: string, min: number, max: number): number {
  if (value === undefined) throw new WireError(`Missing required param: ${param}.`, param, 'parameter_missing');
  if (!/^\d{1,12}$/.test(value) || Number(value) < min || Number(value) > max)
    throw new WireError(`Invalid integer: ${param} must be from ${min} to ${max}.`, param);
  return Number(value);
}
function bounded(value: string | undefined, param: string, max: number): string | undefined {
  if (value !== undefined && value.length > max) throw new WireError(`${param} must be at most ${max} characters.`, param);
  return value;
}

/** The smallest charge in minor units Stripe takes in a two-decimal currency (USD 0.50); a zero-decimal one takes 50 too here. */
const MIN_CHARGE_MINOR = 50;

/**
 * Validates `POST /v1/checkout/sessions` as far as the sandbox supports it: mode `payment`, one
 * line item with inline `price_data`, `expires_at` 30 min to 24 h ahead of `nowS`, bounded
 * metadata (50 keys, 40-char keys, 500-char values) and strings.
 */
export function sessionParams(form: Record<string, FormValue>, nowS: number): SessionParams {
  if (text(form, 'mode') !== 'payment') throw new WireError('The sandbox supports mode=payment only.', 'mode');
  const items = object(form.line_items, 'line_items');
  if (Object.keys(items).join() !== '0') throw new WireError('The sandbox takes exactly one line item.', 'line_items');
  const item = object(items['0'], 'line_items[0]');
  const price = object(item.price_data, 'line_items[0][price_data]');
  const currency = text(price, 'currency');
  if (currency === undefined || !/^[a-z]{3}$/.test(currency))
    throw new WireError('Invalid currency.', 'line_items[0][price_data][currency]', 'invalid_currency');
  const unitAmount = integer(text(price, 'unit_amount'), 'line_items[0][price_data][unit_amount]', 1, 99_999_999);
  const quantity = integer(text(item, 'quantity'), 'line_items[0][quantity]', 1, 99);
  if (unitAmount * quantity < MIN_CHARGE_MINOR * (currencyDecimals(currency) === 3 ? 10 : 1))
    throw new WireError('The amount is below the smallest charge allowed.', 'line_items[0][price_data][unit_amount]', 'amount_too_small');
  const product = object(price.product_data, 'line_items[0][price_data][product_data]');
  const name = bounded(text(product, 'name'), 'line_items[0][price_data][product_data][name]', 250);
  if (!name)
    throw new WireError('Missing required param: product name.', 'line_items[0][price_data][product_data][name]', 'parameter_missing');
  const expires = text(form, 'expires_at');
  const expiresAt = expires === undefined ? undefined : integer(expires, 'expires_at', nowS + 1800, nowS + 86_400);
  return {
    currency,
    unitAmount,
    quantity,
    name,
    expiresAt,
    clientReferenceId: bounded(text(form, 'client_reference_id'), 'client_reference_id', 200) ?? null,
    metadata: metadataOf(form.metadata),
    successUrl: bounded(text(form, 'success_url'), 'success_url', 2048) ?? null,
  };
}

function metadataOf(value: FormValue | undefined): Record<string, string> {
  if (value === undefined) return {};
  const entries = Object.entries(object(value, 'metadata'));
  if (entries.length > 50) throw new WireError('metadata takes at most 50 keys.', 'metadata');
  return Object.fromEntries(
    entries.map(([key, item]) => {
      if (typeof item !== 'string' || key.length > 40 || item.length > 500)
        throw new WireError('metadata keys are at most 40 characters and values 500.', `metadata[${key.slice(0, 40)}]`);
      return [key, item];
    }),
  );
}

/** Stripe's error envelope: the SDK sees a failure only through the top-level `error` key. */
export function stripeError(type: string, message: string, extra: { code?: string; param?: string } = {}) {
  return { error: { type, message, ...extra } };
}

/** What `GET /v1/checkout/sessions` asks for: a page size, a cursor, and the filters the sandbox can apply. */
export interface ListParams {
  limit: number;
  startingAfter: string | undefined;
  endingBefore: string | undefined;
  status: string | undefined;
  paymentIntent: string | undefined;
}

const LIST_FILTERS = new Set(['limit', 'starting_after', 'ending_before', 'status', 'payment_intent', 'expand']);

/**
 * Validates a list query (stripe-node sends list params in the query string): `limit` 1–100
 * (default 10), `starting_after` xor `ending_before`, `status` one of Stripe's three. A parameter
 * the sandbox does not filter by (customer, created, …) is refused as Stripe refuses unknown ones.
 */
export function listParams(query: Record<string, FormValue>): ListParams {
  const unknown = Object.keys(query).find((key) => !LIST_FILTERS.has(key));
  if (unknown !== undefined) throw new WireError(`Received unknown parameter: ${unknown.slice(0, 60)}`, unknown);
  const limit = text(query, 'limit');
  const startingAfter = text(query, 'starting_after');
  const endingBefore = text(query, 'ending_before');
  if (startingAfter !== undefined && endingBefore !== undefined)
    throw new WireError('You may only specify one of these parameters: ending_before, starting_after.', 'ending_before');
  const status = text(query, 'status');
  if (status !== undefined && !['open', 'complete', 'expired'].includes(status))
    throw new WireError('Invalid status: must be one of open, complete, or expired', 'status');
  return {
    limit: limit === undefined ? 10 : integer(limit, 'limit', 1, 100),
    startingAfter,
    endingBefore,
    status,
    paymentIntent: text(query, 'payment_intent'),
  };
}
