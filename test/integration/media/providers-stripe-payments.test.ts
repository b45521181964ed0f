import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StripePaymentLinks } from '../../../media-service/src/adapters/stripe-payment-links';
import { PaymentLinkError, type PaymentLinkRequest } from '../../../media-service/src/ports/payment-links';
import { PaymentsSandboxServer, SANDBOX_PAYMENT_KEY } from '../../../media-service/src/sandbox/payments-server';
import { CachingSecretBox, LocalSecretBox } from '../../../shared/security/secret-box';
import { paymentKeyContext } from '../../../shared/services/business-service';

/**
 * The Stripe adapter (the official `stripe` SDK) against the sandbox payment server on loopback:
 * sessions, idempotent retries, error mapping, and the payment page a caller opens.
 */

let payments: PaymentsSandboxServer;
const box = new CachingSecretBox(new LocalSecretBox('payments-test'));
let nextBusiness = 1;

beforeAll(async () => {
  payments = await PaymentsSandboxServer.start();
});

afterAll(async () => {
  await payments.close();
});

function adapter(options: { fallbackKey?: string; port?: number } = {}) {
  return new StripePaymentLinks({
    secretBox: box,
    ...payments.sdkTarget,
    ...(options.port && { port: options.port }),
    ...(options.fallbackKey && { fallbackKey: options.fallbackKey }),
    maxNetworkRetries: 1,
    timeoutMs: 5000,
  });
}

/** A business with its own sealed key. */
async function business(key: string) {
  const businessId = nextBusiness++;
  return { businessId, keySealed: await box.seal(key, paymentKeyContext(businessId)) };
}

function request(account: PaymentLinkRequest['account'], extra: Partial<PaymentLinkRequest> = {}): PaymentLinkRequest {
  return {
    account,
    callId: 42,
    amountMinor: 4500,
    currency: 'usd',
    description: 'Deposit <for> the boiler repair',
    idempotencyKey: `test-${Math.random()}`,
    ...extra,
  };
}

const signal = () => new AbortController().signal;

describe('StripePaymentLinks against the sandbox payment server', () => {
  it("creates a Checkout Session on the business's own key: amount, currency, metadata, expiry, a working page", async () => {
    // Arrange
    const account = await business('sk_test_acme_own_key');
    // Act
    const link = await adapter().create(request(account), signal());
    // Assert: the session as the official SDK reads it back with the same key
    const session = await new Stripe('sk_test_acme_own_key', payments.sdkTarget).checkout.sessions.retrieve(link.id);
    expect(session).toMatchObject({
      id: link.id,
      url: link.url,
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 4500,
      currency: 'usd',
      client_reference_id: 'call-42',
      metadata: { call_id: '42', business_id: String(account.businessId) },
    });
    const expiresInS = session.expires_at - Math.floor(Date.now() / 1000);
    expect(expiresInS).toBeGreaterThan(1800);
    expect(expiresInS).toBeLessThanOrEqual(3600);
    expect(link.expiresAt).toBe(new Date(session.expires_at * 1000).toISOString());
    // Another account's key does not see it, as on Stripe.
    await expect(new Stripe('sk_test_someone_else', payments.sdkTarget).checkout.sessions.retrieve(link.id)).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 404,
    });
  });

  it('the page works: GET shows the amount and description (escaped), POST pays it, the session is then complete and paid', async () => {
    // Arrange
    const link = await adapter({ fallbackKey: SANDBOX_PAYMENT_KEY }).create(request({ businessId: 7 }), signal());
    // Act
    const page = await fetch(link.url);
    const html = await page.text();
    const paid = await fetch(link.url, { method: 'POST' });
    // Assert
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html).toContain('45.00 USD');
    expect(html).toContain('Deposit &#60;for&#62; the boiler repair');
    expect(html).toContain(`action="/pay/${link.id}"`);
    expect(paid.status).toBe(200);
    expect(await paid.text()).toContain('Paid. Thank you!');
    const session = await new Stripe(SANDBOX_PAYMENT_KEY, payments.sdkTarget).checkout.sessions.retrieve(link.id);
    expect(session).toMatchObject({ status: 'complete', payment_status: 'paid', payment_intent: expect.stringMatching(/^pi_test_/) });
    expect(await (await fetch(link.url)).text()).toContain('This has been paid.');
  });

  it('a lost response is retried by the SDK with the same idempotency key: one session, the same id', async () => {
    // Arrange
    const account = await business('sk_test_retry_key');
    const before = payments.sessions().length;
    payments.dropNextResponses(1);
    const asked = request(account, { callId: 77, idempotencyKey: 'call-77-tool-1' });
    // Act
    const first = await adapter().create(asked, signal());
    // Assert: the first answer was dropped, so this id came from the replay of the retry
    const made = payments.sessions().filter((session) => session.metadata.call_id === '77');
    expect(made.map((session) => session.id)).toEqual([first.id]);
    expect(payments.sessions().length).toBe(before + 1);
  });

  it.each([
    [
      'a live key (the sandbox takes test keys only)',
      'sk_live_not_here',
      {},
      "The business's payment account refused the request (its key is not valid).",
    ],
    [
      'an amount below the smallest charge',
      'sk_test_small',
      { amountMinor: 10 },
      'The amount is below the smallest card payment the payment system accepts.',
    ],
    ['an empty description', 'sk_test_empty', { description: '' }, 'The payment system refused to create the payment page.'],
  ] as const)('%s is refused in plain words, and nothing is created', async (_case, key, extra, message) => {
    // Arrange
    const account = await business(key);
    const before = payments.sessions().length;
    // Act
    const failure = await adapter()
      .create(request(account, extra), signal())
      .catch((error: unknown) => error);
    // Assert
    expect(failure).toBeInstanceOf(PaymentLinkError);
    expect(failure).toMatchObject({ reason: 'rejected', message });
    expect(String((failure as Error).message)).not.toContain(key);
    expect(payments.sessions().length).toBe(before);
  });

  it('a business without a key is not accepted where there is no fallback key, and creating refuses', async () => {
    const links = adapter();
    expect(links.accepts({ businessId: 9 })).toBe(false);
    expect(adapter({ fallbackKey: SANDBOX_PAYMENT_KEY }).accepts({ businessId: 9 })).toBe(true);
    await expect(links.create(request({ businessId: 9 }), signal())).rejects.toMatchObject({ reason: 'not_configured' });
  });

  it('a key sealed for another business does not open, and no request is sent', async () => {
    const other = await business('sk_test_other_business');
    const before = payments.sessions().length;
    await expect(
      adapter().create(request({ businessId: other.businessId + 1000, keySealed: other.keySealed }), signal()),
    ).rejects.toMatchObject({
      reason: 'unavailable',
      message: "The business's payment account could not be opened just now.",
    });
    expect(payments.sessions().length).toBe(before);
  });

  it('a payment server that does not answer is "did not answer"', async () => {
    const closed = await PaymentsSandboxServer.start();
    const port = closed.port;
    await closed.close();
    const links = new StripePaymentLinks({
      secretBox: box,
      host: '127.0.0.1',
      port,
      protocol: 'http',
      fallbackKey: SANDBOX_PAYMENT_KEY,
      maxNetworkRetries: 0,
    });
    await expect(links.create(request({ businessId: 1 }), signal())).rejects.toMatchObject({
      reason: 'unavailable',
      message: 'The payment system did not answer.',
    });
  });
});

describe('the sandbox payment server speaks the Stripe wire', () => {
  it('answers without a valid Bearer key with 401, an error object and Stripe-Should-Retry: false', async () => {
    const response = await fetch(`${payments.baseUrl}/v1/checkout/sessions`, { method: 'POST', body: 'mode=payment' });
    expect(response.status).toBe(401);
    expect(response.headers.get('stripe-should-retry')).toBe('false');
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    expect(await response.json()).toEqual({
      error: { type: 'invalid_request_error', code: 'api_key_invalid', message: 'Invalid API Key provided.' },
    });
  });

  it('refuses a reused idempotency key with other parameters (idempotency_error), and replays the same one', async () => {
    const post = (body: string) =>
      fetch(`${payments.baseUrl}/v1/checkout/sessions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${SANDBOX_PAYMENT_KEY}`,
          'idempotency-key': 'reused',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body,
      });
    const form = (amount: number) =>
      `mode=payment&line_items[0][quantity]=1&line_items[0][price_data][currency]=usd&line_items[0][price_data][unit_amount]=${amount}&line_items[0][price_data][product_data][name]=Deposit`;
    const first = (await (await post(form(1000))).json()) as { id: string };
    const replay = await post(form(1000));
    const other = await post(form(2000));
    expect(((await replay.json()) as { id: string }).id).toBe(first.id);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(other.status).toBe(400);
    expect(((await other.json()) as { error: { type: string } }).error.type).toBe('idempotency_error');
  });

  it('lists every session for developers and tests, and 404s an unknown page', async () => {
    const list = (await (await fetch(`${payments.baseUrl}/sandbox/checkout-sessions`)).json()) as { data: { id: string }[] };
    expect(list.data.length).toBe(Math.min(100, payments.sessions().length));
    expect((await fetch(`${payments.baseUrl}/pay/cs_test_nope`)).status).toBe(404);
  });
});
