import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SANDBOX_SCENARIOS } from '../../../media-service/src/sandbox/scenarios';
import { scenario, step } from '../../../media-service/src/sandbox/scenario-script';
import { tableBackedToolPorts } from '../../../media-service/src/tools/tool-ports';
import { createDb } from '../../../shared/db/client';
import { CALL_HANG_MS, CALL_TEST_MS } from '../../support/call-limits';
import { uniqueNumber } from '../../support/api-harness';
import { QUIET, getCall, tenantWithAssistant, waitForAssistant } from '../../support/call-scenarios';
import { STACK_EMAIL_FROM, startCallStack, type CallStack } from '../../support/call-stack';
import { strictResponseErrors } from '../../support/openapi-strict';

let stack: CallStack;
/** A stack whose message store is a table that does not exist: every take_message fails for real. */
let broken: CallStack;

beforeAll(async () => {
  [stack, broken] = await Promise.all([
    startCallStack(),
    startCallStack({
      toolPorts: (core, log, senders) =>
        tableBackedToolPorts(
          createDb({ tableName: 'no-such-table', region: 'us-east-1', endpoint: inject('dynamoEndpoint') }),
          core.ids,
          log,
          senders,
        ),
    }),
  ]);
});

afterAll(async () => {
  await Promise.all([stack?.stop(), broken?.stop()]);
});

const T = { timeout: CALL_TEST_MS };

/** Places an outbound call to a callee who plays `steps` (or the named sandbox scenario). */
async function callCallee(
  target: CallStack,
  steps: Parameters<typeof scenario>[1],
  profile: Record<string, unknown> = {},
  config: Record<string, unknown> = {},
) {
  const { tenant, assistantId } = await tenantWithAssistant(target, { first_message: 'Hello, Acme Plumbing.', advanced: QUIET, ...config });
  if (Object.keys(profile).length > 0) await target.api.admin.setProfile(tenant.businessId, profile);
  const to = uniqueNumber();
  target.carrier.registerScenario(to, scenario(`tools ${to}`, steps));
  const placed = await tenant.request('POST', '/calls', { assistant_id: assistantId, to });
  const callId = ((await placed.json()) as { id: number }).id;
  return { tenant, callId, to };
}

/** A callee who asks one thing once the greeting is over, waits for the tool's answer, and says goodbye. */
function askThenBye(words: string) {
  return [
    waitForAssistant(),
    step.say(words),
    step.waitForAssistant({ quietMs: 1500, timeoutMs: 15_000 }),
    step.say('Okay, goodbye.'),
    waitForAssistant(),
    step.hangup(),
  ];
}

/** The stack's local SES (sent mail, failure injection). */
const ses = (target: CallStack) => target.ses;

/** What the assistant said on the call, in order. */
function assistantLines(call: Record<string, any>): string[] {
  return (call.transcript as { role: string; text: string }[]).filter((entry) => entry.role === 'assistant').map((entry) => entry.text);
}

describe.concurrent('built-in tools on a whole call', () => {
  it(
    'message: the caller leaves a message; GET /messages has it, the team is emailed and texted, actions has take_message',
    T,
    async () => {
      // Arrange / Act
      const desk = `desk-${randomUUID()}@acme.test`;
      // A team phone must be a real mobile (or NANP) number of the line's region: a fictional 415-555-01xx one.
      const teamPhone = '+14155550181';
      const profile = { display_name: 'Acme Plumbing', team_emails: [desk], team_phones: [teamPhone] };
      const { tenant, callId, to } = await callCallee(stack, SANDBOX_SCENARIOS.message.steps, profile);
      await stack.whenCallEnded(tenant.businessId, callId);
      // Assert: the message, linked to the call
      const list = await tenant.request('GET', `/messages?call_id=${callId}`);
      expect(list.status).toBe(200);
      const page = (await list.json()) as { data: Record<string, unknown>[]; has_more: boolean };
      expect(page.has_more).toBe(false);
      expect(page.data).toEqual([
        expect.objectContaining({
          call_id: callId,
          caller_name: 'Jordan Lee',
          caller_number: to,
          body: "For Dana: the boiler is leaking, it's urgent.",
          urgent: true,
          source: 'take_message',
        }),
      ]);
      const messageId = page.data[0]!.id as number;
      expect((await (await tenant.request('GET', `/messages/${messageId}`)).json()) as object).toEqual(page.data[0]);
      // Assert: the call's actions and what the caller heard
      const call = await getCall(tenant, callId);
      expect(call.actions).toEqual([
        {
          name: 'take_message',
          arguments: { name: 'Jordan Lee', message: "For Dana: the boiler is leaking, it's urgent.", urgent: true },
          ok: true,
          result: `message ${messageId} saved; team emailed, team texted`,
          error: null,
          at_ms: expect.any(Number),
          duration_ms: expect.any(Number),
        },
        expect.objectContaining({ name: 'end_call', ok: true }),
      ]);
      const said = (call.transcript as { role: string; text: string }[])
        .filter((entry) => entry.role === 'assistant')
        .map((entry) => entry.text);
      expect(said).toContain(
        "I've passed your message on to the team, and they've been notified. Is there anything else I can help you with?",
      );
      // Assert: the team's email (local SES) and text (sandbox carrier), urgent first
      const [email] = ses(stack).emails({ to: desk });
      expect(email).toMatchObject({
        from: `"Acme Plumbing" <${STACK_EMAIL_FROM}>`,
        destination: { to: [desk], cc: [], bcc: [] },
        subject: 'URGENT: Message from Jordan Lee',
      });
      expect(email!.body.text).toBe(
        `For Dana: the boiler is leaking, it's urgent.\n\nCaller: Jordan Lee, ${to}\nCall ${callId}, message ${messageId} (Acme Plumbing)`,
      );
      const call0 = await getCall(tenant, callId);
      expect(stack.carrier.messages({ to: teamPhone })).toEqual([
        expect.objectContaining({
          from: call0.from_number,
          body: expect.stringMatching(/^URGENT: Message from Jordan Lee: For Dana: the boiler/),
        }),
      ]);
      // The team notice is a log line with ids only: nothing the caller said is in it.
      const notice = stack.logs.find((line) => line.message === 'team.notice' && line.fields?.call_id === callId);
      expect(notice?.fields).toEqual({
        business_id: tenant.businessId,
        call_id: callId,
        message_id: messageId,
        emails: 1,
        phones: 1,
        urgent: true,
        email: 'sent',
        sms: 'sent',
      });
      expect(JSON.stringify(stack.logs.filter((line) => line.fields?.call_id === callId))).not.toMatch(/boiler|Jordan|acme\.test/);
      expect(strictResponseErrors('CallDetail', call)).toEqual([]);
    },
  );

  it(
    'send_sms: the caller asks to be texted; the text is on the carrier, from the business number to the caller, in actions',
    T,
    async () => {
      // Arrange / Act
      const profile = { display_name: 'Acme Plumbing', address: '1 Main St, Springfield' };
      const { tenant, callId, to } = await callCallee(stack, SANDBOX_SCENARIOS['text-me'].steps, profile, { builtin: { sms: true } });
      await stack.whenCallEnded(tenant.businessId, callId);
      // Assert: one text, to the caller's own number, from the number the business called from
      const call = await getCall(tenant, callId);
      const texts = stack.carrier.messages({ to });
      expect(texts).toEqual([
        expect.objectContaining({
          to,
          from: call.from_number,
          body: 'Acme Plumbing: Our address: 1 Main St, Springfield',
          status: 'delivered',
        }),
      ]);
      expect(call.actions).toEqual([
        {
          name: 'send_sms',
          arguments: { body: 'Our address: 1 Main St, Springfield' },
          ok: true,
          result: `text ${texts[0]!.sid} sent`,
          error: null,
          at_ms: expect.any(Number),
          duration_ms: expect.any(Number),
        },
        expect.objectContaining({ name: 'end_call', ok: true }),
      ]);
      expect(assistantLines(call)).toContain("I've sent you a text with the details. Is there anything else I can help you with?");
      expect(JSON.stringify(stack.logs.filter((line) => line.fields?.call_id === callId))).not.toMatch(/Main St/);
    },
  );

  it('send_sms: a fourth text on one call is refused in plain words; three reached the caller', T, async () => {
    // Arrange
    const ask = (what: string) => [step.say(`Can you text me your ${what}?`), step.waitForAssistant({ quietMs: 1500, timeoutMs: 15_000 })];
    const steps = [
      waitForAssistant(),
      ...ask('address'),
      ...ask('opening hours'),
      ...ask('address again'),
      ...ask('hours again'),
      step.say('Okay, goodbye.'),
      waitForAssistant(),
      step.hangup(),
    ];
    // Act
    const { tenant, callId, to } = await callCallee(stack, steps, { address: '1 Main St' }, { builtin: { sms: true } });
    await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    const call = await getCall(tenant, callId);
    expect(stack.carrier.messages({ to })).toHaveLength(3);
    const refusal =
      'This call has already sent the caller 3 texts, the most one call may send. Tell the caller, and read the details out instead.';
    expect(
      call.actions
        .filter((action: { name: string }) => action.name === 'send_sms')
        .map((a: { ok: boolean; error: string | null }) => [a.ok, a.error]),
    ).toEqual([
      [true, null],
      [true, null],
      [true, null],
      [false, refusal],
    ]);
    expect(assistantLines(call)).toContain(
      "I'm sorry, that didn't work: this call has already sent the caller 3 texts, the most one call may send. Could you try again a little later?",
    );
  });

  it('email_caller: the caller asks for an email; it is in the local SES from the business, and in actions', T, async () => {
    // Arrange / Act
    const desk = `desk-${randomUUID()}@acme.test`;
    const profile = { display_name: 'Acme Plumbing', team_emails: [desk] };
    const { tenant, callId } = await callCallee(stack, SANDBOX_SCENARIOS['email-me'].steps, profile);
    await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    const call = await getCall(tenant, callId);
    const sent = ses(stack)
      .emails({ to: 'sam@example.com' })
      .filter((email) => email.body.text?.includes(`with Acme Plumbing`) && email.replyTo.includes(desk));
    expect(sent).toEqual([
      expect.objectContaining({
        from: `"Acme Plumbing" <${STACK_EMAIL_FROM}>`,
        replyTo: [desk],
        subject: 'The details you asked for',
        body: { text: expect.stringMatching(/^Hello Sam Lee,\n\nOur opening hours: Mon-Fri 09:00-17:00/) },
      }),
    ]);
    expect(call.actions).toEqual([
      expect.objectContaining({ name: 'email_caller', ok: true, result: `email ${sent[0]!.messageId} sent`, error: null }),
      expect.objectContaining({ name: 'end_call', ok: true }),
    ]);
    expect(call.actions[0].arguments).toMatchObject({ email: 'sam@example.com', subject: 'The details you asked for' });
    expect(assistantLines(call)).toEqual(
      expect.arrayContaining([
        expect.stringContaining("I'll email that to sam@example.com."),
        "I've emailed you the details. Is there anything else I can help you with?",
      ]),
    );
  });

  it(
    'a team email SES refuses: the team is still texted, the model hears the message was passed on, actions says which failed',
    T,
    async () => {
      // Arrange
      const desk = `refused-${randomUUID()}@acme.test`;
      ses(stack).failFor(desk, { type: 'MessageRejected', status: 400, message: 'Email address is not verified.' });
      const teamPhone = '+14155550182';
      // Act
      const { tenant, callId } = await callCallee(stack, SANDBOX_SCENARIOS.message.steps, {
        team_emails: [desk],
        team_phones: [teamPhone],
      });
      await stack.whenCallEnded(tenant.businessId, callId);
      // Assert
      const call = await getCall(tenant, callId);
      expect(call.actions[0]).toMatchObject({
        name: 'take_message',
        ok: true,
        result: expect.stringMatching(/saved; team email failed, team texted$/),
      });
      expect(stack.carrier.messages({ to: teamPhone })).toHaveLength(1);
      const failed = stack.logs.find((line) => line.message === 'team.notice.failed' && line.fields?.call_id === callId);
      expect(failed?.fields).toEqual({
        business_id: tenant.businessId,
        call_id: callId,
        message_id: expect.any(Number),
        channel: 'email',
        error: 'ProviderError',
        status: 400,
      });
    },
  );

  it('send_sms on an inbound call (scenario text-me): the text goes from the number called to the caller', T, async () => {
    // Arrange
    const { tenant } = await tenantWithAssistant(stack, {
      first_message: 'Hello, Acme Plumbing.',
      advanced: QUIET,
      builtin: { sms: true },
    });
    await stack.api.admin.setProfile(tenant.businessId, { display_name: 'Acme Plumbing', address: '1 Main St' });
    const numbers = (await (await tenant.request('GET', '/phone-numbers')).json()) as { data: { number: string }[] };
    const ours = numbers.data[0]!.number;
    const caller = uniqueNumber();
    // Act
    const { callSid } = stack.carrier.startInboundCall({
      from: caller,
      to: ours,
      voiceUrl: `http://127.0.0.1:${stack.media.port}/twilio/voice`,
      scenario: SANDBOX_SCENARIOS['text-me'],
    });
    await stack.carrier.whenEnded(callSid, CALL_HANG_MS);
    const list = (await (await tenant.request('GET', '/calls?direction=inbound')).json()) as { data: { id: number }[] };
    await stack.whenCallEnded(tenant.businessId, list.data[0]!.id);
    // Assert
    expect(stack.carrier.messages({ to: caller })).toEqual([
      expect.objectContaining({ from: ours, to: caller, body: 'Acme Plumbing: Our address: 1 Main St' }),
    ]);
  });

  it('email_caller refused by SES: the model hears it plainly, actions records the error, nothing is sent', T, async () => {
    // Arrange
    const address = `refused-${randomUUID().slice(0, 8)}@example.com`;
    ses(stack).failFor(address, { type: 'MessageRejected', status: 400, message: 'Email address is not verified.' });
    // Act
    const { tenant, callId } = await callCallee(stack, askThenBye(`Hi, this is Sam Lee. Please email me the details at ${address}.`));
    await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    const call = await getCall(tenant, callId);
    expect(call.actions[0]).toMatchObject({
      name: 'email_caller',
      ok: false,
      error: 'The email could not be sent just now. Tell the caller, and offer to read the details out instead.',
    });
    expect(assistantLines(call)).toContain(
      "I'm sorry, that didn't work: the email could not be sent just now. Could you try again a little later?",
    );
    expect(ses(stack).emails({ to: address })).toEqual([]);
    expect(stack.logs.some((line) => line.message === 'call.tool.failed' && line.fields?.call_id === callId)).toBe(true);
  });

  it('a failing message store: the model is told in plain words, the caller hears it, actions records the error', T, async () => {
    // Act
    const steps = askThenBye('Hi, this is Sam Hill. Can you take a message for Dana: please call me back.');
    const { tenant, callId } = await callCallee(broken, steps);
    await broken.whenCallEnded(tenant.businessId, callId);
    // Assert
    const call = await getCall(tenant, callId);
    expect(call.actions[0]).toMatchObject({
      name: 'take_message',
      ok: false,
      result: '',
      error: 'The message system did not answer, so the message was not saved. Apologise, and ask the caller to call back later.',
    });
    const said = (call.transcript as { role: string; text: string }[])
      .filter((entry) => entry.role === 'assistant')
      .map((entry) => entry.text);
    expect(said).toContain(
      "I'm sorry, that didn't work: the message system did not answer, so the message was not saved. Could you try again a little later?",
    );
    expect(broken.logs.some((line) => line.message === 'call.tool.failed' && line.fields?.call_id === callId)).toBe(true);
    const list = (await (await tenant.request('GET', `/messages?call_id=${callId}`)).json()) as { data: unknown[] };
    expect(list.data).toEqual([]);
  });
});
