import type * as v from 'valibot';
import { defaultBusinessProfile } from '../../../shared/domain/business-profile';
import { isTextableNumber } from '../../../shared/domain/caller-contact';
import { textRefusal } from '../../../shared/phone/texting';
import { checkAmount, PAYMENT_DESCRIPTION_MAX_CHARS, SendPaymentLinkArgsSchema } from '../../../shared/domain/payment-amount';
import { PaymentLinkError, type PaymentLink } from '../ports/payment-links';
import { textCaller, textingLine } from './send-sms';
import { ToolRefusal, type BuiltinTool, type ToolContext } from './tool-types';

type Args = v.InferOutput<typeof SendPaymentLinkArgsSchema>;

/**
 * Creates the payment page on the business's account. A refusal the model can act on (no key, a
 * key the provider refused, an amount it does not take) becomes a {@link ToolRefusal} in plain
 * words; anything else (no answer) is the tool's `unavailable`.
 */
async function createPage(context: ToolContext, amountMinor: number, currency: string, description: string): Promise<PaymentLink> {
  const payments = context.ports.payments;
  if (!payments) throw new ToolRefusal('This line cannot make payment links. Offer to take a message for the team.');
  try {
    return await payments.create(
      {
        account: { businessId: context.businessId, ...(context.paymentKeySealed && { keySealed: context.paymentKeySealed }) },
        callId: context.callId,
        amountMinor,
        currency,
        description,
        // One per tool invocation of this call: every retry of this request sends the same key.
        idempotencyKey: `voice-call-${context.callId}-tool-${context.invocation}`,
      },
      context.signal,
    );
  } catch (error) {
    if (error instanceof PaymentLinkError && error.reason !== 'unavailable')
      throw new ToolRefusal(`${error.message} No payment link was sent. Tell the caller, and offer to take a message for the team.`);
    throw error;
  }
}

/**
 * `send_payment_link` (builtin `payment_links`): texts the caller a hosted payment page (Stripe
 * Checkout on the business's own account) for an amount in the business's currency, at most its
 * `payment.max_amount`. The caller pays on the page; the assistant never hears a card number.
 * The page is made only when a text can go out (the caller's number is textable, the call's text
 * allowance is not used up), so no page is left that nobody was sent.
 */
export const sendPaymentLink: BuiltinTool<Args> = {
  offeredBy: 'paymentLinks',
  definition: {
    name: 'send_payment_link',
    description:
      "Text the caller a secure payment page for an amount in the business's currency, to the number they are calling from. Use it " +
      'when the caller wants to pay (a deposit, an invoice, a fee). Confirm the amount and what it is for with the caller first. Never ' +
      'ask for or accept card numbers by voice. Tell the caller the link was sent only after this tool succeeds.',
    parameters: {
      type: 'object',
      properties: {
        amount: { type: 'number', description: 'The amount in major units of the currency (45.5 means 45.50), more than 0.' },
        description: {
          type: 'string',
          description: 'What the payment is for, as the caller will see it on the page (e.g. "Deposit for Tuesday\'s repair").',
          maxLength: PAYMENT_DESCRIPTION_MAX_CHARS,
        },
      },
      required: ['amount', 'description'],
      additionalProperties: false,
    },
  },
  args: SendPaymentLinkArgsSchema,
  // The page (8 s per attempt, one retry at most in practice) then the text.
  timeoutMs: 20_000,
  unavailable: 'The payment link could not be sent just now. Tell the caller, and offer to try again later.',
  async execute(args, context) {
    const settings = context.profile?.payment ?? defaultBusinessProfile().payment;
    const amount = checkAmount(args.amount, settings);
    if (!amount.ok) throw new ToolRefusal(amount.reason);
    if (!isTextableNumber(context.partyNumber))
      throw new ToolRefusal("The caller's number is withheld, so no payment link can be texted. Offer to take a message for the team.");
    if (!isTextableNumber(context.businessNumber))
      throw new ToolRefusal('This line cannot send texts, so no payment link can be sent. Offer to take a message for the team.');
    // Checked before the page is made (textCaller checks again): no page nobody can be sent.
    if (textRefusal(context.partyNumber, textingLine(context)) !== null)
      throw new ToolRefusal(
        "The caller's number is not one this line texts (another region, or not a mobile number), so no payment link can be texted. " +
          'Offer to take a message for the team.',
      );
    if (context.allowance.left('text') === 0)
      throw new ToolRefusal('This call has already sent the caller as many texts as one call may, so no payment link was sent.');
    const description = args.description.trim();
    const page = await createPage(context, amount.minor, settings.currency, description);
    const sent = await textCaller(context, `Pay ${amount.text} for ${description} on this secure page: ${page.url}`);
    return {
      output: { sent: true, amount: amount.text, expires_at: page.expiresAt },
      summary: `payment page ${page.id} texted (${sent.id})`,
    };
  },
};
