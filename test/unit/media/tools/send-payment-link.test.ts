import { describe, expect, it } from 'vitest';
import { defaultAssistantConfig } from '../../../../shared/domain/assistant-config';
import { defaultBusinessProfile, type BusinessProfile } from '../../../../shared/domain/business-profile';
import { ProviderError } from '../../../../shared/errors';
import {
  PaymentLinkError,
  type PaymentAccount,
  type PaymentLink,
  type PaymentLinkRequest,
  type PaymentLinks,
} from '../../../../media-service/src/ports/payment-links';
import type { OutgoingSms, SentSms, SmsSender } from '../../../../media-service/src/ports/sms-sender';
import { CallAllowance } from '../../../../media-service/src/tools/call-allowance';
import { sendPaymentLink } from '../../../../media-service/src/tools/send-payment-link';
import { ToolRunner } from '../../../../media-service/src/tools/tool-runner';
import type { ToolPorts } from '../../../../media-service/src/tools/tool-types';
import { captureLogger } from '../../../support/capture-logger';
import { FakeClock } from '../support/fake-clock';

/** Payment pages made in memory; `fail` makes the next create reject with it. */
class FakePaymentLinks implements PaymentLinks {
  readonly requests: PaymentLinkRequest[] = [];
  fail: Error | undefined;
  accepts(_account: PaymentAccount): boolean {
    return true;
  }
  async create(request: PaymentLinkRequest): Promise<PaymentLink> {
    this.requests.push(request);
    if (this.fail) throw this.fail;
    const id = `cs_test_${this.requests.length}`;
    return { id, url: `https://pay.example/${id}`, expiresAt: '2026-11-26T15:00:00.000Z' };
  }
}

/** Texts kept in memory; `fail` makes every send reject with it. */
class FakeSms implements SmsSender {
  readonly sent: OutgoingSms[] = [];
  fail: Error | undefined;
  async send(message: OutgoingSms): Promise<SentSms> {
    if (this.fail) throw this.fail;
    this.sent.push(message);
    return { id: `SM${this.sent.length}`, status: 'queued' };
  }
}

function rig(options: { profile?: Partial<BusinessProfile>; partyNumber?: string; keySealed?: string } = {}) {
  const payments = new FakePaymentLinks();
  const sms = new FakeSms();
  const clock = new FakeClock();
  const { log, lines } = captureLogger();
  const allowance = new CallAllowance();
  const runner = new ToolRunner({
    tools: [sendPaymentLink],
    context: {
      businessId: 1,
      callId: 7,
      assistantId: 3,
      partyNumber: options.partyNumber ?? '+15550100002',
      businessNumber: '+15550100001',
      allowance,
      profile: { ...defaultBusinessProfile(), display_name: 'Acme', ...options.profile },
      ...(options.keySealed && { paymentKeySealed: options.keySealed }),
      config: defaultAssistantConfig(),
      // Both numbers are the sandbox's (+1555…): texts go to a sandbox carrier.
      ports: { payments, sms, smsSandbox: true } as unknown as ToolPorts,
    },
    now: clock.now,
    t0: 0,
    timers: clock.timers,
    log,
  });
  const ask = async (args: Record<string, unknown>) =>
    JSON.parse(await runner.run({ name: 'send_payment_link', arguments: JSON.stringify(args) })) as Record<string, unknown>;
  return { runner, payments, sms, allowance, ask, lines };
}

describe('send_payment_link', () => {
  it("makes a page in minor units on the business's account, and texts its URL to the caller", async () => {
    // Arrange
    const { ask, payments, sms, runner } = rig({ profile: { payment: { currency: 'eur', max_amount: 100 } }, keySealed: 'local:v1:abc' });
    // Act
    const first = await ask({ amount: 45.5, description: ' Deposit ' });
    await ask({ amount: 10, description: 'Parking' });
    // Assert
    expect(first).toEqual({ sent: true, amount: '45.50 EUR', expires_at: '2026-11-26T15:00:00.000Z' });
    expect(payments.requests[0]).toEqual({
      account: { businessId: 1, keySealed: 'local:v1:abc' },
      callId: 7,
      amountMinor: 4550,
      currency: 'eur',
      description: 'Deposit',
      idempotencyKey: 'voice-call-7-tool-1',
    });
    expect(payments.requests[1]!.idempotencyKey).toBe('voice-call-7-tool-2');
    expect(sms.sent[0]).toEqual({
      from: '+15550100001',
      to: '+15550100002',
      body: 'Acme: Pay 45.50 EUR for Deposit on this secure page: https://pay.example/cs_test_1',
    });
    expect(runner.actions()[0]).toMatchObject({ ok: true, result: 'payment page cs_test_1 texted (SM1)' });
  });

  it.each([
    [
      'above the maximum',
      { amount: 500.01, description: 'Deposit' },
      {},
      /above the most this business accepts by payment link \(500\.00 USD\)/,
    ],
    ['zero', { amount: 0, description: 'Deposit' }, {}, /more than zero/],
    ['a withheld caller number', { amount: 5, description: 'Deposit' }, { partyNumber: 'anonymous' }, /number is withheld/],
    [
      'a caller number abroad (SMS pumping)',
      { amount: 5, description: 'Deposit' },
      { partyNumber: '+447700900123' },
      /not one this line texts/,
    ],
  ])('refuses %s in plain words, making no page and sending no text', async (_case, args, options, error) => {
    // Arrange
    const { ask, payments, sms, runner } = rig(options);
    // Act
    const answer = await ask(args);
    // Assert
    expect(answer.error).toMatch(error);
    expect(payments.requests).toEqual([]);
    expect(sms.sent).toEqual([]);
    expect(runner.actions()[0]).toMatchObject({ name: 'send_payment_link', ok: false, error: answer.error });
  });

  it('makes no page once the call has used its texts', async () => {
    // Arrange
    const { ask, payments, allowance } = rig();
    while (allowance.take('text'));
    // Act
    const answer = await ask({ amount: 5, description: 'Deposit' });
    // Assert
    expect(answer.error).toMatch(/already sent the caller as many texts as one call may/);
    expect(payments.requests).toEqual([]);
  });

  it.each([
    [
      'a refused key',
      new PaymentLinkError('rejected', "The business's payment account refused the request (its key is not valid)."),
      /its key is not valid\)\. No payment link was sent\./,
    ],
    [
      'no key at all',
      new PaymentLinkError('not_configured', 'This business has not set up card payments, so no payment link can be sent.'),
      /not set up card payments/,
    ],
    [
      'no answer',
      new PaymentLinkError('unavailable', 'The payment system did not answer.'),
      /^The payment link could not be sent just now\./,
    ],
  ])('tells the model about %s in plain words, and sends no text', async (_case, failure, error) => {
    // Arrange
    const { ask, payments, sms, lines } = rig();
    payments.fail = failure;
    // Act
    const answer = await ask({ amount: 5, description: 'Deposit' });
    // Assert
    expect(answer.error).toMatch(error);
    expect(sms.sent).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain('Deposit');
  });

  it('a text the carrier refused: the model hears the link was not sent', async () => {
    // Arrange
    const { ask, sms } = rig();
    sms.fail = new ProviderError('twilio', 'refused', 400);
    // Act
    const answer = await ask({ amount: 5, description: 'Deposit' });
    // Assert
    expect(answer.error).toBe('The payment link could not be sent just now. Tell the caller, and offer to try again later.');
  });
});
