import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsSandboxServer } from '../../../media-service/src/sandbox/payments-server';

/**
 * The sandbox payment server answers the official `stripe` SDK as Stripe does for
 * `checkout.sessions.list` (a list object, newest first, `limit` and `starting_after`, auto-paging)
 * and `checkout.sessions.expire` (only an `open` session; else a 400 invalid_request_error).
 */

let payments: PaymentsSandboxServer;

beforeAll(async () => {
  payments = await PaymentsSandboxServer.start();
});

afterAll(async () => {
  await payments?.close();
});

/** A client on its own test key: sessions are per key, so each test sees only its own. */
const freshClient = () => new Stripe(`sk_test_${randomUUID().replace(/-/g, '')}`, { ...payments.sdkTarget, maxNetworkRetries: 0 });

const createSession = (stripe: Stripe, name: string) =>
  stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 4500, product_data: { name } } }],
    success_url: 'https://example.com/paid',
  });

describe('checkout.sessions.list', () => {
  it('is Stripe’s list object: newest first, limit and has_more, starting_after for the next page', async () => {
    // Arrange
    const stripe = freshClient();
    const created = [];
    for (const name of ['first', 'second', 'third']) created.push(await createSession(stripe, name));
    // Act
    const page = await stripe.checkout.sessions.list({ limit: 2 });
    const rest = await stripe.checkout.sessions.list({ limit: 2, starting_after: page.data[1]!.id });
    const everything = await stripe.checkout.sessions.list({ limit: 1 }).autoPagingToArray({ limit: 10 });
    // Assert
    expect(page).toMatchObject({ object: 'list', has_more: true, url: '/v1/checkout/sessions' });
    expect(page.data.map((session) => session.id)).toEqual([created[2]!.id, created[1]!.id]);
    expect(rest.data.map((session) => session.id)).toEqual([created[0]!.id]);
    expect(rest.has_more).toBe(false);
    expect(everything.map((session) => session.id)).toEqual(created.map((session) => session.id).reverse());
  });

  it('filters by status', async () => {
    // Arrange
    const stripe = freshClient();
    const open = await createSession(stripe, 'stays open');
    const expired = await createSession(stripe, 'expires');
    await stripe.checkout.sessions.expire(expired.id);
    // Act
    const openOnes = await stripe.checkout.sessions.list({ status: 'open' });
    const expiredOnes = await stripe.checkout.sessions.list({ status: 'expired' });
    // Assert
    expect(openOnes.data.map((session) => session.id)).toEqual([open.id]);
    expect(expiredOnes.data.map((session) => session.id)).toEqual([expired.id]);
  });

  it.each([
    ['a limit over 100', { limit: 101 }, 'limit'],
    ['an unknown cursor', { starting_after: 'cs_test_nothere' }, 'starting_after'],
  ])('refuses %s with a 400 StripeInvalidRequestError naming the parameter', async (_, params, param) => {
    const error = await freshClient()
      .checkout.sessions.list(params)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', param });
  });
});

describe('checkout.sessions.expire', () => {
  it('expires an open session: status expired, no URL, and its page says so', async () => {
    // Arrange
    const stripe = freshClient();
    const session = await createSession(stripe, 'to expire');
    // Act
    const expired = await stripe.checkout.sessions.expire(session.id);
    const page = await fetch(session.url!);
    // Assert
    expect(expired).toMatchObject({ id: session.id, object: 'checkout.session', status: 'expired', url: null });
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('expired');
    expect(page.status).toBe(410);
  });

  it.each([
    ['already expired', 'expired'],
    ['paid', 'complete'],
  ])('refuses a session that is %s: 400 invalid_request_error, the session unchanged', async (_, status) => {
    // Arrange
    const stripe = freshClient();
    const session = await createSession(stripe, 'not expirable');
    if (status === 'expired') await stripe.checkout.sessions.expire(session.id);
    else await fetch(session.url!, { method: 'POST' });
    // Act
    const error = await stripe.checkout.sessions.expire(session.id).catch((e: unknown) => e);
    // Assert
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 400, rawType: 'invalid_request_error' });
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe(status);
  });

  it('an unknown session, or another key’s, is a 404 resource_missing', async () => {
    const other = await createSession(freshClient(), 'someone else’s');
    const error = await freshClient()
      .checkout.sessions.expire(other.id)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing', rawType: 'invalid_request_error' });
  });
});
