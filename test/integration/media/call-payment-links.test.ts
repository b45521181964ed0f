import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SCENARIOS } from '../../../media-service/src/sandbox/scenarios';
import { scenario } from '../../../media-service/src/sandbox/scenario-script';
import { CALL_TEST_MS } from '../../support/call-limits';
import { uniqueNumber } from '../../support/api-harness';
import { QUIET, getCall, tenantWithAssistant } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';
import { strictResponseErrors } from '../../support/openapi-strict';

/**
 * `send_payment_link` on whole calls: the sandbox caller asks to be texted a payment link, the
 * Stripe adapter creates a Checkout Session on the sandbox payment server with the business's own
 * key (or the sandbox key), and the sandbox carrier carries the text with its URL.
 */

let stack: CallStack;

beforeAll(async () => {
  stack = await startCallStack();
});

afterAll(async () => {
  await stack?.stop();
});

const T = { timeout: CALL_TEST_MS };

/** Places an outbound call with payment links on, to a callee playing the `pay` scenario. */
async function payCall(business: Record<string, unknown>) {
  const { tenant, assistantId } = await tenantWithAssistant(stack, {
    first_message: 'Hello, Acme Plumbing.',
    advanced: QUIET,
    builtin: { payment_links: true },
  });
  const patched = await tenant.request('PATCH', '/business', business);
  expect(patched.status).toBe(200);
  const to = uniqueNumber();
  stack.carrier.registerScenario(to, scenario(`pay ${to}`, SANDBOX_SCENARIOS.pay.steps));
  const placed = await tenant.request('POST', '/calls', { assistant_id: assistantId, to });
  const callId = ((await placed.json()) as { id: number }).id;
  await stack.whenCallEnded(tenant.businessId, callId);
  return { tenant, callId, to, call: await getCall(tenant, callId) };
}

const assistantLines = (call: Record<string, any>): string[] =>
  (call.transcript as { role: string; text: string }[]).filter((entry) => entry.role === 'assistant').map((entry) => entry.text);

const sessionsOf = (callId: number) => stack.payments.sessions().filter((session) => session.metadata.call_id === String(callId));

describe.concurrent('payment links on a whole call', () => {
  it("texts the caller a working payment page made on the business's own key; actions has send_payment_link", T, async () => {
    // Arrange / Act
    const key = `sk_test_acme_${Date.now()}`;
    const { tenant, callId, to, call } = await payCall({
      display_name: 'Acme Plumbing',
      payment: { currency: 'eur', max_amount: 200, provider_key: key },
    });
    // Assert: one session for the amount, in the business's currency, linked to the call
    const sessions = sessionsOf(callId);
    expect(sessions).toEqual([
      expect.objectContaining({
        amount_total: 4500,
        currency: 'eur',
        description: 'Deposit',
        status: 'open',
        client_reference_id: `call-${callId}`,
        metadata: { call_id: String(callId), business_id: String(tenant.businessId) },
      }),
    ]);
    const session = sessions[0]!;
    // Made with the business's own key: that account sees it, the sandbox default key does not.
    await expect(new Stripe(key, stack.payments.sdkTarget).checkout.sessions.retrieve(session.id)).resolves.toMatchObject({
      id: session.id,
    });
    await expect(
      new Stripe('sk_test_sandbox_local', stack.payments.sdkTarget).checkout.sessions.retrieve(session.id),
    ).rejects.toMatchObject({
      statusCode: 404,
    });
    // The text: to the caller's own number, from the business's number, with the page's URL
    const texts = stack.carrier.messages({ to });
    expect(texts).toEqual([
      expect.objectContaining({
        from: call.from_number,
        body: `Acme Plumbing: Pay 45.00 EUR for Deposit on this secure page: ${session.url}`,
      }),
    ]);
    expect(call.actions).toEqual([
      {
        name: 'send_payment_link',
        arguments: { amount: 45, description: 'Deposit' },
        ok: true,
        result: `payment page ${session.id} texted (${texts[0]!.sid})`,
        error: null,
        at_ms: expect.any(Number),
        duration_ms: expect.any(Number),
      },
      expect.objectContaining({ name: 'end_call', ok: true }),
    ]);
    expect(assistantLines(call)).toContain(
      "I've texted you a secure payment link for 45.00 EUR. You can pay on that page whenever you're ready. Is there anything else?",
    );
    expect(strictResponseErrors('CallDetail', call)).toEqual([]);
    // Neither the key nor the page nor what it is for is in the logs.
    const logged = JSON.stringify(stack.logs);
    expect(logged).not.toContain(key);
    expect(logged).not.toContain(session.id);
    // The caller opens the page and pays.
    const page = await fetch(session.url!);
    expect(await page.text()).toContain('45.00 EUR');
    expect((await fetch(session.url!, { method: 'POST' })).status).toBe(200);
    expect(sessionsOf(callId)[0]).toMatchObject({ status: 'complete', payment_status: 'paid' });
  });

  it('refuses an amount above the business maximum in plain words: no session, no text', T, async () => {
    // Arrange / Act: no key of its own (the sandbox key), a maximum below the $45 asked
    const { callId, to, call } = await payCall({ payment: { max_amount: 30 } });
    // Assert
    const reason =
      'The amount is above the most this business accepts by payment link (30.00 USD), so no link was sent. Tell the caller, and offer to take a message for the team instead.';
    expect(call.actions[0]).toEqual({
      name: 'send_payment_link',
      arguments: { amount: 45, description: 'Deposit' },
      ok: false,
      result: '',
      error: reason,
      at_ms: expect.any(Number),
      duration_ms: expect.any(Number),
    });
    expect(assistantLines(call)).toContain(
      "I'm sorry, that didn't work: the amount is above the most this business accepts by payment link (30.00 USD), so no link was sent. Could you try again a little later?",
    );
    expect(sessionsOf(callId)).toEqual([]);
    expect(stack.carrier.messages({ to })).toEqual([]);
  });
});
