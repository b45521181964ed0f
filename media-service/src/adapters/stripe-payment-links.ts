import Stripe from 'stripe';
import type { SecretBox } from '../../../shared/security/secret-box';
import { paymentKeyContext } from '../../../shared/services/business-service';
import {
  PaymentLinkError,
  type PaymentAccount,
  type PaymentLink,
  type PaymentLinkRequest,
  type PaymentLinks,
} from '../ports/payment-links';

/** Options of {@link StripePaymentLinks}. */
export interface StripePaymentLinksOptions {
  /** Opens the businesses' sealed keys; pass a `CachingSecretBox` so a busy line opens each key once every few minutes. */
  secretBox: SecretBox;
  /**
   * The key of a business that set none: the local stack's documented sandbox test key. Never set
   * in production, where a business without its own key is not offered the tool.
   */
  fallbackKey?: string;
  /** Stripe's API (default); the sandbox payment server locally (`http`, 127.0.0.1, its port). */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  /** Where the caller lands after paying; unset: Stripe's own confirmation (the sandbox shows its page). */
  successUrl?: string;
  /** How long a page takes payment (Stripe allows 30 min to 24 h; default 1 h: the caller pays during or just after the call). */
  expiresAfterS?: number;
  /** Per request attempt (default 8 s, inside the tool's 15 s). */
  timeoutMs?: number;
  /** Retries after a network error, 409, 5xx (default 1); a repeated idempotency key never makes a second page. */
  maxNetworkRetries?: number;
  now?: () => Date;
}

const MIN_EXPIRY_S = 1800;
const MAX_EXPIRY_S = 86_400;

/**
 * Payment pages as Stripe Checkout Sessions (mode `payment`, one inline `price_data` line, so the
 * business needs no Product or Price objects), created on the business's OWN Stripe account with
 * its key, opened at call time and never logged. One SDK client serves every business: the key
 * is passed per request (`apiKey`), so no client holds one. The request's idempotency key rides on
 * every SDK retry, so a retried create returns the first session.
 */
export class StripePaymentLinks implements PaymentLinks {
  readonly #stripe: Stripe;
  readonly #o: StripePaymentLinksOptions;

  constructor(options: StripePaymentLinksOptions) {
    this.#o = options;
    this.#stripe = new Stripe('', {
      // No platform key: a request without the business's key must fail, never bill someone else.
      authenticator: async () => {
        throw new PaymentLinkError('not_configured', 'No payment account key was given.');
      },
      maxNetworkRetries: options.maxNetworkRetries ?? 1,
      timeout: options.timeoutMs ?? 8000,
      telemetry: false,
      ...(options.host && { host: options.host }),
      ...(options.port && { port: options.port }),
      ...(options.protocol && { protocol: options.protocol }),
    });
  }

  accepts(account: PaymentAccount): boolean {
    return account.keySealed !== undefined || this.#o.fallbackKey !== undefined;
  }

  async create(request: PaymentLinkRequest, signal: AbortSignal): Promise<PaymentLink> {
    const apiKey = await this.#keyOf(request.account);
    const now = (this.#o.now ?? (() => new Date()))();
    const expiresAfter = Math.min(MAX_EXPIRY_S, Math.max(MIN_EXPIRY_S, this.#o.expiresAfterS ?? 3600));
    const metadata = { call_id: String(request.callId), business_id: String(request.account.businessId) };
    const creating = this.#stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: request.currency,
              unit_amount: request.amountMinor,
              product_data: { name: request.description.slice(0, 200) },
            },
          },
        ],
        client_reference_id: `call-${request.callId}`,
        metadata,
        payment_intent_data: { metadata },
        expires_at: Math.floor(now.getTime() / 1000) + expiresAfter,
        ...(this.#o.successUrl && { success_url: this.#o.successUrl }),
      },
      { apiKey, idempotencyKey: request.idempotencyKey },
    );
    const session = await abortable(creating, signal).catch((error: unknown) => {
      throw plainError(error);
    });
    if (!session.url) throw new PaymentLinkError('unavailable', 'The payment system returned a page without a link.');
    return { id: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000).toISOString() };
  }

  async #keyOf(account: PaymentAccount): Promise<string> {
    if (account.keySealed === undefined) {
      if (this.#o.fallbackKey !== undefined) return this.#o.fallbackKey;
      throw new PaymentLinkError('not_configured', 'This business has not set up card payments, so no payment link can be sent.');
    }
    try {
      return await this.#o.secretBox.open(account.keySealed, paymentKeyContext(account.businessId));
    } catch (error) {
      throw new PaymentLinkError('unavailable', "The business's payment account could not be opened just now.", { cause: error });
    }
  }
}

/** The SDK takes no AbortSignal: the call ending (or the tool's timeout) stops waiting for it. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new PaymentLinkError('unavailable', 'The payment link was not needed any more.'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new PaymentLinkError('unavailable', 'The payment link was not needed any more.'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Stripe's provider codes the model can act on, in words for the caller. */
const REQUEST_CODES: Readonly<Record<string, string>> = {
  amount_too_small: 'The amount is below the smallest card payment the payment system accepts.',
  amount_too_large: 'The amount is above the largest card payment the payment system accepts.',
  invalid_currency: "The business's payment currency is not accepted by the payment system.",
};

/**
 * A Stripe SDK error as a {@link PaymentLinkError} in plain words. Stripe's own message is not
 * passed on (it may name parameters or account details); its code picks the sentence.
 */
export function plainError(error: unknown): PaymentLinkError {
  if (error instanceof PaymentLinkError) return error;
  if (!(error instanceof Stripe.errors.StripeError))
    return new PaymentLinkError('unavailable', 'The payment system did not answer.', { cause: error });
  const options = { cause: error };
  switch (error.type) {
    case 'StripeAuthenticationError':
    case 'StripePermissionError':
      return new PaymentLinkError('rejected', "The business's payment account refused the request (its key is not valid).", options);
    case 'StripeInvalidRequestError':
    case 'StripeIdempotencyError':
    case 'StripeCardError':
      return new PaymentLinkError(
        'rejected',
        REQUEST_CODES[error.code ?? ''] ?? 'The payment system refused to create the payment page.',
        options,
      );
    default:
      return new PaymentLinkError('unavailable', 'The payment system did not answer.', options);
  }
}
