/**
 * Creates a hosted payment page a caller can pay on their phone: a Stripe Checkout Session on the
 * business's own Stripe account in production, the sandbox payment server locally (the same SDK
 * and wire). The assistant never takes card details itself; it only sends the page's URL.
 */

/** Whose account the page is created on: the business, and its provider key as it is stored (sealed). */
export interface PaymentAccount {
  businessId: number;
  /** The business's sealed provider key (`PATCH /business` `payment.provider_key`); undefined when it set none. */
  keySealed?: string;
}

/** One page to create. */
export interface PaymentLinkRequest {
  account: PaymentAccount;
  /** The call it was asked for on (kept in the page's metadata, so a payment links back to it). */
  callId: number;
  /** In the currency's minor units (4500 = USD 45.00), a whole number above 0. */
  amountMinor: number;
  /** ISO 4217, lower case (`usd`). */
  currency: string;
  /** What the caller pays for, shown on the page (at most 200 characters). */
  description: string;
  /**
   * The same for every attempt of one request (per call and tool invocation): the provider
   * answers a repeated key with the first page instead of making a second one.
   */
  idempotencyKey: string;
}

/** A page that was created: its id, where the caller pays, and when it stops taking payment. */
export interface PaymentLink {
  id: string;
  url: string;
  /** ISO 8601. */
  expiresAt: string;
}

/** Why a page could not be made, for the model in plain words (`ProviderError` for the rest). */
export class PaymentLinkError extends Error {
  constructor(
    readonly reason: 'not_configured' | 'rejected' | 'unavailable',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PaymentLinkError';
  }
}

/** Rejects with a {@link PaymentLinkError} whose message is safe to tell the model (no key, no body). */
export interface PaymentLinks {
  /** Whether pages can be made on this account at all (its own key, or the local stack's test key). */
  accepts(account: PaymentAccount): boolean;
  create(request: PaymentLinkRequest, signal: AbortSignal): Promise<PaymentLink>;
}
