import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SCENARIOS } from '../../../media-service/src/sandbox/scenarios';
import { scenario, step, type ScenarioStep } from '../../../media-service/src/sandbox/scenario-script';
import { tableBackedToolPorts } from '../../../media-service/src/tools/tool-ports';
import type { Booking } from '../../../shared/domain/booking';
import { CALL_TEST_MS } from '../../support/call-limits';
import { unusedPorts } from '../../support/tool-runner';
import { silentLogger } from '../../../shared/log';
import { uniqueNumber } from '../../support/api-harness';
import { QUIET, getCall, tenantWithAssistant } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';
import { strictResponseErrors } from '../../support/openapi-strict';

/** Thursday 26 November 2026, 09:00 in New York: "Friday" is the 27th, "Monday" the 30th. */
const NOW = new Date('2026-11-26T14:00:00Z');
const clock = () => NOW;
const ANYTHING_ELSE = 'Is there anything else I can help you with?';
/** The confirmation summary when texts are off (the default), no address was given and the team has none. */
const NOTHING_SENT = 'caller text off, no caller email, no team email or phone';

let stack: CallStack;

beforeAll(async () => {
  stack = await startCallStack({ clock });
});

afterAll(async () => {
  await stack?.stop();
});

const T = { timeout: CALL_TEST_MS };

/** A business in New York (open Mon–Fri 09:00–17:00) offering a 30-minute Cleaning, and its assistant. */
async function business() {
  const { tenant, assistantId } = await tenantWithAssistant(stack, { first_message: 'Hello, Acme Dental.', advanced: QUIET });
  await stack.api.admin.setProfile(tenant.businessId, {
    timezone: 'America/New_York',
    booking: { services: [{ name: 'Cleaning', duration_min: 30 }] },
  });
  return { tenant, assistantId };
}

/** Seeding sends no texts or email: senders that reject if one is ever attempted. */
const NO_TEXTS = { sms: unusedPorts().sms, email: unusedPorts().email };

/** Books directly on the back end (an earlier call, or another customer). */
async function existingBooking(businessId: number, start: string, phone: string): Promise<Booking> {
  const made = await tableBackedToolPorts(stack.core.db, stack.core.ids, silentLogger, NO_TEXTS, clock).bookings.book(businessId, {
    start,
    name: 'Earlier Caller',
    phone,
  });
  if ('reason' in made) throw new Error(`could not seed a booking: ${made.reason}`);
  return made;
}

/** Calls `to`, who plays `steps`, and waits for the call's end; returns the call as GET /calls/{id} shows it. */
async function callAndEnd(
  tenant: Awaited<ReturnType<typeof business>>['tenant'],
  assistantId: number,
  to: string,
  steps: readonly ScenarioStep[],
) {
  stack.carrier.registerScenario(to, scenario(`booking ${to}`, steps));
  const placed = await tenant.request('POST', '/calls', { assistant_id: assistantId, to });
  const callId = ((await placed.json()) as { id: number }).id;
  await stack.whenCallEnded(tenant.businessId, callId);
  const call = await getCall(tenant, callId);
  const said = (call.transcript as { role: string; text: string }[])
    .filter((entry) => entry.role === 'assistant')
    .map((entry) => entry.text);
  return { callId, call, said };
}

const bookingSteps = (words: string): ScenarioStep[] => [
  step.waitForAssistant({ timeoutMs: 8000 }),
  step.say(words),
  step.waitForAssistant({ quietMs: 1500 }),
  step.say("No, that's all. Thanks, goodbye!"),
  step.waitForAssistant({ quietMs: 600, timeoutMs: 4000 }),
  step.hangup(),
];

describe.concurrent('booking on a whole call', () => {
  it('book: the caller checks Friday and books 10am; GET /bookings has it with the call, actions has both tools', T, async () => {
    // Arrange
    const { tenant, assistantId } = await business();
    const to = uniqueNumber();
    // Act
    const { callId, call, said } = await callAndEnd(tenant, assistantId, to, SANDBOX_SCENARIOS.book.steps);
    // Assert: the booking, linked to the call
    const page = (await (await tenant.request('GET', `/bookings?call_id=${callId}`)).json()) as { data: Booking[] };
    expect(page.data).toEqual([
      expect.objectContaining({
        call_id: callId,
        assistant_id: assistantId,
        service: 'Cleaning',
        start: '2026-11-27T10:00:00-05:00',
        end: '2026-11-27T10:30:00-05:00',
        timezone: 'America/New_York',
        name: 'Sam Lee',
        phone: to,
        status: 'confirmed',
      }),
    ]);
    const bookingId = page.data[0]!.id;
    // Assert: the call's actions and what the caller heard
    expect(call.actions).toEqual([
      expect.objectContaining({ name: 'check_availability', arguments: { date: '2026-11-27' }, ok: true, result: '16 free on 2026-11-27' }),
      expect.objectContaining({
        name: 'book_appointment',
        arguments: { start: '2026-11-27T10:00', name: 'Sam Lee' },
        ok: true,
        result: `booking ${bookingId} confirmed; ${NOTHING_SENT}`,
        error: null,
      }),
      expect.objectContaining({ name: 'end_call', ok: true }),
    ]);
    expect(said).toContain(
      'On Friday, November 27 I have 9:00 AM, 9:30 AM and 10:00 AM free, and 13 more times. Which time would you like?',
    );
    expect(said).toContain(`You're booked: Cleaning on Friday, November 27 at 10:00 AM, under the name Sam Lee. ${ANYTHING_ELSE}`);
    const toolLines = (call.transcript as { role: string; text: string }[])
      .filter((entry) => entry.role === 'tool')
      .map((entry) => entry.text);
    expect(toolLines).toEqual([
      'check_availability: 16 free on 2026-11-27',
      `book_appointment: booking ${bookingId} confirmed; ${NOTHING_SENT}`,
      'end_call',
    ]);
    expect(JSON.stringify(stack.logs.filter((line) => line.fields?.call_id === callId))).not.toMatch(/Sam Lee/);
    // Assert: texts are off and no address was given, so nothing went to the caller; the booking stands
    expect(stack.carrier.messages({ to })).toEqual([]);
    expect(stack.ses.emails({ to })).toEqual([]);
    expect(strictResponseErrors('CallDetail', call)).toEqual([]);
  });

  it('reschedule: the caller moves their appointment to Monday at 2pm', T, async () => {
    // Arrange
    const { tenant, assistantId } = await business();
    const to = uniqueNumber();
    const booking = await existingBooking(tenant.businessId, '2026-11-27T10:00', to);
    // Act
    const { call, said } = await callAndEnd(tenant, assistantId, to, SANDBOX_SCENARIOS.reschedule.steps);
    // Assert
    const moved = (await (await tenant.request('GET', `/bookings/${booking.id}`)).json()) as Booking;
    expect(moved).toMatchObject({ start: '2026-11-30T14:00:00-05:00', status: 'confirmed' });
    expect(call.actions).toEqual([
      expect.objectContaining({ name: 'find_appointments', arguments: {}, ok: true, result: '1 upcoming found' }),
      expect.objectContaining({
        name: 'reschedule_appointment',
        arguments: { booking_id: booking.id, start: '2026-11-30T14:00' },
        ok: true,
        result: `appointment ${booking.id} moved; ${NOTHING_SENT}`,
      }),
      expect.objectContaining({ name: 'end_call' }),
    ]);
    expect(said).toContain('I found your Cleaning on Friday, November 27 at 10:00 AM. Let me move it.');
    expect(said).toContain(`Done: your Cleaning is now on Monday, November 30 at 2:00 PM. ${ANYTHING_ELSE}`);
  });

  it('cancel: the caller cancels their appointment and its time is free again', T, async () => {
    // Arrange
    const { tenant, assistantId } = await business();
    const to = uniqueNumber();
    const booking = await existingBooking(tenant.businessId, '2026-11-27T10:00', to);
    // Act
    const { call, said } = await callAndEnd(tenant, assistantId, to, SANDBOX_SCENARIOS.cancel.steps);
    // Assert
    const cancelled = (await (await tenant.request('GET', `/bookings/${booking.id}`)).json()) as Booking;
    expect(cancelled.status).toBe('cancelled');
    expect(call.actions.map((action: { name: string; result: string }) => [action.name, action.result])).toEqual([
      ['find_appointments', '1 upcoming found'],
      ['cancel_appointment', `appointment ${booking.id} cancelled; ${NOTHING_SENT}`],
      ['end_call', 'call ended'],
    ]);
    expect(said).toContain(`Your Cleaning on Friday, November 27 at 10:00 AM is cancelled. ${ANYTHING_ELSE}`);
    const free = (await (await tenant.request('GET', '/availability?date=2026-11-27')).json()) as { data: { start: string }[] };
    expect(free.data.map((slot) => slot.start)).toContain('2026-11-27T10:00:00-05:00');
  });

  it.each([
    {
      name: 'slot taken',
      words: 'Can I book an appointment on Friday at 10am? This is Sam Lee.',
      heard:
        "I'm sorry, I couldn't book that: that time has just been taken. On that day I still have 9:00 AM, 9:30 AM and 10:30 AM free. Would one of those work?",
      reason: 'slot_taken',
    },
    {
      name: 'outside hours',
      words: 'Can I book an appointment on Friday at 7pm? This is Sam Lee.',
      heard:
        "I'm sorry, I couldn't book that: that time is not one of the offered slots (outside opening hours or off the slot grid). On that day I still have 9:00 AM, 9:30 AM and 10:30 AM free. Would one of those work?",
      reason: 'outside_hours',
    },
  ])('a refused booking ($name) is spoken back plainly, and nothing is booked', T, async ({ words, heard, reason }) => {
    // Arrange: Friday 10:00 is another customer's
    const { tenant, assistantId } = await business();
    await existingBooking(tenant.businessId, '2026-11-27T10:00', uniqueNumber());
    // Act
    const { callId, call, said } = await callAndEnd(tenant, assistantId, uniqueNumber(), bookingSteps(words));
    // Assert
    expect(said).toContain(heard);
    expect(call.actions[0]).toMatchObject({ name: 'book_appointment', ok: true, result: `refused: ${reason}` });
    const page = (await (await tenant.request('GET', `/bookings?call_id=${callId}`)).json()) as { data: Booking[] };
    expect(page.data).toEqual([]);
  });

  it("a caller cannot cancel another caller's booking", T, async () => {
    // Arrange
    const { tenant, assistantId } = await business();
    const someoneElse = await existingBooking(tenant.businessId, '2026-11-27T10:00', uniqueNumber());
    // Act
    const { call, said } = await callAndEnd(tenant, assistantId, uniqueNumber(), SANDBOX_SCENARIOS.cancel.steps);
    // Assert
    expect(said).toContain(`I couldn't find an upcoming appointment under the number you're calling from. ${ANYTHING_ELSE}`);
    expect(call.actions.map((action: { name: string }) => action.name)).toEqual(['find_appointments', 'end_call']);
    const untouched = (await (await tenant.request('GET', `/bookings/${someoneElse.id}`)).json()) as Booking;
    expect(untouched.status).toBe('confirmed');
  });
});
