import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SCENARIOS } from '../../../media-service/src/sandbox/scenarios';
import { scenario, step, type ScenarioStep } from '../../../media-service/src/sandbox/scenario-script';
import type { SandboxEmail } from '../../../media-service/src/sandbox/ses-server';
import { tableBackedToolPorts } from '../../../media-service/src/tools/tool-ports';
import type { Booking } from '../../../shared/domain/booking';
import { silentLogger } from '../../../shared/log';
import { CALL_TEST_MS } from '../../support/call-limits';
import { uniqueNumber } from '../../support/api-harness';
import { QUIET, getCall, tenantWithAssistant } from '../../support/call-scenarios';
import { STACK_EMAIL_FROM, startCallStack, type CallStack } from '../../support/call-stack';
import { unusedPorts } from '../../support/tool-runner';

/** Thursday 26 November 2026, 09:00 in New York: "Friday" is the 27th. */
const NOW = new Date('2026-11-26T14:00:00Z');
const clock = () => NOW;
const ANYTHING_ELSE = 'Is there anything else I can help you with?';
const T = { timeout: CALL_TEST_MS };

let stack: CallStack;

beforeAll(async () => {
  stack = await startCallStack({ clock });
});

afterAll(async () => {
  await stack?.stop();
});

/** Acme Dental in New York (Mon–Fri 09:00–17:00, a 30-minute Cleaning); `sms` turns the assistant's texts on. */
async function business(options: { sms: boolean; teamEmail?: string }) {
  const { tenant, assistantId } = await tenantWithAssistant(stack, {
    first_message: 'Hello, Acme Dental.',
    advanced: QUIET,
    builtin: { sms: options.sms },
  });
  await stack.api.admin.setProfile(tenant.businessId, {
    display_name: 'Acme Dental',
    timezone: 'America/New_York',
    booking: { services: [{ name: 'Cleaning', duration_min: 30 }] },
    ...(options.teamEmail && { team_emails: [options.teamEmail] }),
  });
  return { tenant, assistantId };
}

type Tenant = Awaited<ReturnType<typeof business>>['tenant'];

/** Calls `to`, who plays `steps`; returns the call as GET /calls/{id} shows it once it has ended, and what the assistant said. */
async function callAndEnd(tenant: Tenant, assistantId: number, to: string, steps: readonly ScenarioStep[]) {
  stack.carrier.registerScenario(to, scenario(`confirmations ${to}`, steps));
  const placed = await tenant.request('POST', '/calls', { assistant_id: assistantId, to });
  const callId = ((await placed.json()) as { id: number }).id;
  await stack.whenCallEnded(tenant.businessId, callId);
  const call = await getCall(tenant, callId);
  const said = (call.transcript as { role: string; text: string }[]).filter((e) => e.role === 'assistant').map((e) => e.text);
  return { callId, call, said };
}

/** Books Friday 10am as Sam Lee, giving `email`, then says goodbye. */
const bookWithEmail = (email: string): ScenarioStep[] => [
  step.waitForAssistant({ timeoutMs: 8000 }),
  step.say(`Can I book an appointment on Friday at 10am? This is Sam Lee, my email is ${email}.`),
  step.waitForAssistant({ quietMs: 1500 }),
  step.say("No, that's all. Thanks, goodbye!"),
  step.waitForAssistant({ quietMs: 600, timeoutMs: 4000 }),
  step.hangup(),
];

/** The caller's bookings on this call (GET /bookings?call_id=). */
async function bookingsOf(tenant: Tenant, callId: number): Promise<Booking[]> {
  return ((await (await tenant.request('GET', `/bookings?call_id=${callId}`)).json()) as { data: Booking[] }).data;
}

/** The .ics attachment of an email, parsed by ical.js (an independent parser). */
function invitation(email: SandboxEmail) {
  expect(email.attachments).toHaveLength(1);
  const [file] = email.attachments;
  expect(file!.contentType).toMatch(/^text\/calendar; charset=utf-8; method=(REQUEST|CANCEL)$/);
  const text = Buffer.from(file!.content, 'base64').toString('utf8');
  const calendar = new ICAL.Component(ICAL.parse(text));
  const vevent = calendar.getFirstSubcomponent('vevent')!;
  return { method: calendar.getFirstPropertyValue('method'), vevent, event: new ICAL.Event(vevent) };
}

describe.concurrent('booking confirmations on a whole call', () => {
  it('sms on: the caller gets a confirmation text, the team an email; actions and the caller hear it', T, async () => {
    // Arrange
    const desk = `desk-${randomUUID()}@acme.test`;
    const { tenant, assistantId } = await business({ sms: true, teamEmail: desk });
    const to = uniqueNumber();
    // Act
    const { callId, call, said } = await callAndEnd(tenant, assistantId, to, SANDBOX_SCENARIOS.book.steps);
    // Assert: the booking stands, linked to the call
    const [booking] = await bookingsOf(tenant, callId);
    expect(booking).toMatchObject({ start: '2026-11-27T10:00:00-05:00', name: 'Sam Lee', status: 'confirmed' });
    // Assert: the text on the sandbox carrier, to the caller's own number from the business's
    expect(stack.carrier.messages({ to })).toEqual([
      expect.objectContaining({
        from: call.from_number,
        body: `Acme Dental: Booking confirmed: Cleaning on Friday, November 27 at 10:00 AM (ref ${booking!.id}). To change it, call us back.`,
      }),
    ]);
    // Assert: the team's email in the local SES
    const [team] = stack.ses.emails({ to: desk });
    expect(team).toMatchObject({
      from: `"Acme Dental" <${STACK_EMAIL_FROM}>`,
      subject: 'New booking: Cleaning on Friday, November 27 at 10:00 AM, Sam Lee',
    });
    expect(team!.body.text).toContain(`Name: Sam Lee\nPhone: ${to}\nCall ${callId}, booking ${booking!.id} (Acme Dental)`);
    // Assert: actions and what the caller heard
    expect(call.actions).toContainEqual(
      expect.objectContaining({
        name: 'book_appointment',
        ok: true,
        result: `booking ${booking!.id} confirmed; caller texted, no caller email, team emailed`,
      }),
    );
    expect(said).toContain(
      `You're booked: Cleaning on Friday, November 27 at 10:00 AM, under the name Sam Lee. I've texted you a confirmation. ${ANYTHING_ELSE}`,
    );
    expect(JSON.stringify(stack.logs.filter((line) => line.fields?.call_id === callId))).not.toMatch(/Sam Lee|acme\.test|\+1555/);
  });

  it('the caller gives an email: it carries an .ics REQUEST that ical.js reads back (UID, DTSTART, METHOD)', T, async () => {
    // Arrange
    const address = `sam-${randomUUID()}@example.com`;
    const { tenant, assistantId } = await business({ sms: false });
    // Act
    const { callId, call, said } = await callAndEnd(tenant, assistantId, uniqueNumber(), bookWithEmail(address));
    // Assert
    const [booking] = await bookingsOf(tenant, callId);
    expect(booking).toMatchObject({ email: address, status: 'confirmed' });
    const [email] = stack.ses.emails({ to: address });
    expect(email).toMatchObject({ subject: 'Booking confirmed: Cleaning on Friday, November 27 at 10:00 AM' });
    expect(email!.body.text).toContain(
      `Hello Sam Lee,\n\nBooking confirmed: Cleaning on Friday, November 27 at 10:00 AM (ref ${booking!.id})`,
    );
    const { method, vevent, event } = invitation(email!);
    expect(method).toBe('REQUEST');
    expect(event.uid).toBe(`booking-${booking!.id}@bookings.voice-agent.local`);
    expect(event.startDate.toJSDate().toISOString()).toBe(new Date(booking!.start).toISOString());
    expect(event.endDate.toJSDate().toISOString()).toBe(new Date(booking!.end).toISOString());
    expect(event.sequence).toBe(0);
    expect(String(vevent.getFirstPropertyValue('attendee')).toLowerCase()).toBe(`mailto:${address}`);
    expect(call.actions).toContainEqual(
      expect.objectContaining({
        name: 'book_appointment',
        result: `booking ${booking!.id} confirmed; caller text off, caller emailed, no team email or phone`,
      }),
    );
    expect(said).toContain(
      `You're booked: Cleaning on Friday, November 27 at 10:00 AM, under the name Sam Lee. I've emailed you a calendar invitation. ${ANYTHING_ELSE}`,
    );
  });

  it('a cancellation: a text and an .ics CANCEL (same UID, SEQUENCE 1, STATUS:CANCELLED), the team told', T, async () => {
    // Arrange: an earlier booking under the caller's number, with an address
    const address = `ana-${randomUUID()}@example.com`;
    const desk = `desk-${randomUUID()}@acme.test`;
    const { tenant, assistantId } = await business({ sms: true, teamEmail: desk });
    const to = uniqueNumber();
    const senders = { sms: unusedPorts().sms, email: unusedPorts().email };
    const made = await tableBackedToolPorts(stack.core.db, stack.core.ids, silentLogger, senders, clock).bookings.book(tenant.businessId, {
      start: '2026-11-27T10:00',
      name: 'Ana García',
      phone: to,
      email: address,
    });
    if ('reason' in made) throw new Error(`could not seed a booking: ${made.reason}`);
    // Act
    const { call, said } = await callAndEnd(tenant, assistantId, to, SANDBOX_SCENARIOS.cancel.steps);
    // Assert
    expect(stack.carrier.messages({ to })).toEqual([
      expect.objectContaining({ body: `Acme Dental: Booking cancelled: Cleaning on Friday, November 27 at 10:00 AM (ref ${made.id}).` }),
    ]);
    const [email] = stack.ses.emails({ to: address });
    const { method, vevent, event } = invitation(email!);
    expect(method).toBe('CANCEL');
    expect(event.uid).toBe(`booking-${made.id}@bookings.voice-agent.local`);
    expect(event.sequence).toBe(1);
    expect(vevent.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(stack.ses.emails({ to: desk })).toEqual([
      expect.objectContaining({ subject: 'Booking cancelled: Cleaning on Friday, November 27 at 10:00 AM, Ana García' }),
    ]);
    expect(call.actions).toContainEqual(
      expect.objectContaining({
        name: 'cancel_appointment',
        result: `appointment ${made.id} cancelled; caller texted, caller emailed, team emailed`,
      }),
    );
    expect(said).toContain(
      `Your Cleaning on Friday, November 27 at 10:00 AM is cancelled. I've texted you a confirmation and emailed you a calendar invitation. ${ANYTHING_ELSE}`,
    );
  });

  it('a confirmation email SES refuses: still booked, the caller hears it honestly, actions says which failed', T, async () => {
    // Arrange
    const address = `refused-${randomUUID()}@example.com`;
    stack.ses.failFor(address, { type: 'MessageRejected', status: 400, message: 'Email address is not verified.' });
    const { tenant, assistantId } = await business({ sms: true });
    const to = uniqueNumber();
    // Act
    const { callId, call, said } = await callAndEnd(tenant, assistantId, to, bookWithEmail(address));
    // Assert
    const [booking] = await bookingsOf(tenant, callId);
    expect(booking).toMatchObject({ status: 'confirmed', email: address });
    expect(stack.ses.emails({ to: address })).toEqual([]);
    expect(stack.carrier.messages({ to })).toHaveLength(1);
    expect(call.actions).toContainEqual(
      expect.objectContaining({
        name: 'book_appointment',
        ok: true,
        result: `booking ${booking!.id} confirmed; caller texted, caller email failed, no team email or phone`,
      }),
    );
    expect(said).toContain(
      `You're booked: Cleaning on Friday, November 27 at 10:00 AM, under the name Sam Lee. I've texted you a confirmation. I couldn't send you the confirmation email, but it's all done on our side. ${ANYTHING_ELSE}`,
    );
  });
});
