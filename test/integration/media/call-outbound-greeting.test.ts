import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenario, step } from '../../../media-service/src/sandbox/scenario-script';
import { thanksForCalling } from '../../../shared/domain/greeting';
import { uniqueNumber, type TenantClient } from '../../support/api-harness';
import { CALL_HANG_MS, CALL_TEST_MS } from '../../support/call-limits';
import { callScripted, QUIET, tenantWithAssistant, waitForAssistant } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';

/**
 * Whole calls over the sandbox: the greeting follows the call's direction (docs/design.md "How each
 * setting is honoured", `outbound_first_message`), and `{{direction}}`-style built-in variables are
 * filled in what the assistant says.
 */

let stack: CallStack;

beforeAll(async () => {
  stack = await startCallStack();
});

afterAll(async () => {
  await stack?.stop();
});

const T = { timeout: CALL_TEST_MS };

const INBOUND = 'Thanks for calling Acme Dental! How can I help you today?';
const OUTBOUND = 'Hi {{name}}, this is Acme Dental calling with your {{direction}} reminder.';

interface Entry {
  role: string;
  text: string;
}

const assistantSaid = (transcript: Entry[]) => transcript.filter((entry) => entry.role === 'assistant').map((entry) => entry.text);

/** The business's display name, as the built-in `{{business_name}}` and the standard line say it. */
async function businessName(tenant: TenantClient): Promise<string> {
  const profile = (await (await tenant.request('GET', '/business')).json()) as { display_name: string };
  return profile.display_name;
}

describe.concurrent('the greeting by the call’s direction', () => {
  it('an outbound call opens with outbound_first_message, its variables filled, never the inbound greeting', T, async () => {
    // Arrange
    const config = { first_message: INBOUND, outbound_first_message: OUTBOUND, advanced: QUIET };
    const steps = [waitForAssistant(), step.say('Oh, thanks. Goodbye!'), waitForAssistant(), step.hangup()];
    // Act
    const { tenant, callId } = await callScripted(stack, config, steps, { name: 'Sam' });
    const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    const said = assistantSaid(detail.transcript as Entry[]);
    expect(said[0]).toBe('Hi Sam, this is Acme Dental calling with your outbound reminder.');
    expect(said.join(' ')).not.toContain('Thanks for calling Acme Dental');
  });

  it('the same assistant answers an inbound call with first_message', T, async () => {
    // Arrange
    const { tenant } = await tenantWithAssistant(stack, { first_message: INBOUND, outbound_first_message: OUTBOUND, advanced: QUIET });
    const numbers = (await (await tenant.request('GET', '/phone-numbers')).json()) as { data: { number: string }[] };
    // Act
    const { callSid } = stack.carrier.startInboundCall({
      from: uniqueNumber(),
      to: numbers.data[0]!.number,
      voiceUrl: `http://127.0.0.1:${stack.media.port}/twilio/voice`,
      scenario: scenario('inbound', [waitForAssistant(), step.say('Sorry, wrong number. Bye!'), waitForAssistant(), step.hangup()]),
    });
    await stack.carrier.whenEnded(callSid, CALL_HANG_MS);
    const list = (await (await tenant.request('GET', '/calls?direction=inbound')).json()) as { data: { id: number }[] };
    const { detail } = await stack.whenCallEnded(tenant.businessId, list.data[0]!.id);
    // Assert
    expect(assistantSaid(detail.transcript as Entry[])[0]).toBe(INBOUND);
  });

  it('no outbound greeting and a first_message that thanks for calling: the standard line, with the default notices', T, async () => {
    // Arrange: the receptionist template's inbound greeting, and the notices at their defaults.
    const config = { first_message: 'Thanks for calling! This is Ava. How can I help you today?' };
    const steps = [waitForAssistant(), step.say('Sure, go ahead. Actually, bye!'), waitForAssistant(), step.hangup()];
    // Act
    const { tenant, callId } = await callScripted(stack, config, steps);
    const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
    const name = await businessName(tenant);
    // Assert: the line before its question, the notice, then the question (docs/decisions.md "Notices are part of the first utterance").
    const said = assistantSaid(detail.transcript as Entry[]);
    expect(said[0]).toBe(`Hello, this is ${name} calling. I'm an AI assistant for ${name}. This call is recorded.`);
    expect(said[1]).toBe('Do you have a moment?');
    for (const line of said.slice(0, 2)) expect(thanksForCalling(line)).toBe(false);
  });

  it('live mode: an outbound call opens with outbound_first_message', T, async () => {
    // Arrange
    const config = { mode: 'live', first_message: INBOUND, outbound_first_message: OUTBOUND, advanced: QUIET };
    const steps = [waitForAssistant(), step.say('Okay. Bye!'), waitForAssistant(), step.hangup()];
    // Act
    const { tenant, callId } = await callScripted(stack, config, steps, { name: 'Ada' });
    const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(assistantSaid(detail.transcript as Entry[])[0]).toBe('Hi Ada, this is Acme Dental calling with your outbound reminder.');
  });
});
