import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../../media-service/src/sandbox/openai-wire';
import { readCall } from '../../../../media-service/src/sandbox/call-reading';
import { SandboxLlmScript } from '../../../../media-service/src/sandbox/sandbox-llm-script';
import { saidConfirmation } from '../../../../media-service/src/sandbox/spoken-confirmation';
import { todayLine } from '../../../../shared/domain/booking-tools';

const BOOKING = ['check_availability', 'book_appointment', 'find_appointments', 'cancel_appointment', 'reschedule_appointment'];
// Thursday 26 November 2026, 09:00 in New York.
const system = {
  role: 'system' as const,
  content: `You are a receptionist.\n${todayLine(new Date('2026-11-26T14:00:00Z'), 'America/New_York')}`,
};
const offered = (...names: string[]) => names.map((name) => ({ type: 'function' as const, function: { name, parameters: {} } }));
const user = (content: string) => ({ role: 'user' as const, content });
const asked = (name: string, args: object = {}) => ({
  role: 'assistant' as const,
  content: null,
  tool_calls: [{ id: 'c1', type: 'function' as const, function: { name, arguments: JSON.stringify(args) } }],
});
const result = (output: object) => ({ role: 'tool' as const, tool_call_id: 'c1', content: JSON.stringify(output) });

function reply(messages: ChatRequest['messages'], tools = offered(...BOOKING, 'end_call')) {
  return new SandboxLlmScript().reply({ model: 'gpt-4.1-mini', messages: [system, ...messages], tools });
}

const call = (name: string, args: object) => [{ name, arguments: JSON.stringify(args) }];
const FRIDAY_10 = { booking_id: 41, service: 'Cleaning', date: '2026-11-27', weekday: 'Friday', time: '10:00', end_time: '10:30' };

describe('the sandbox model books from the caller’s words', () => {
  it.each([
    ['What times do you have on Friday?', 'check_availability', { date: '2026-11-27' }, 'Let me check what we have free.'],
    [
      'Is anything free tomorrow for a cleaning?',
      'check_availability',
      { date: '2026-11-27', service: 'cleaning' },
      'Let me check what we have free.',
    ],
    ['Can I book an appointment on Monday?', 'check_availability', { date: '2026-11-30' }, 'Let me check what we have free.'],
    [
      'Can I book a cleaning on Friday at 10am? This is Sam Lee.',
      'book_appointment',
      { start: '2026-11-27T10:00', name: 'Sam Lee', service: 'cleaning' },
      'Let me book that for you.',
    ],
    [
      'This is Sam Lee. Book an appointment tomorrow at 2:30 pm.',
      'book_appointment',
      { start: '2026-11-27T14:30', name: 'Sam Lee' },
      'Let me book that for you.',
    ],
    ['Please cancel my appointment.', 'find_appointments', {}, 'Let me look up your appointment.'],
    ['I need to move my appointment to Monday at 2pm.', 'find_appointments', {}, 'Let me look up your appointment.'],
    ['When is my appointment?', 'find_appointments', {}, 'Let me look up your appointments.'],
  ])('%s → %s', (said, tool, args, text) => {
    // Act
    const answer = reply([user(said)]);
    // Assert
    expect(answer).toEqual({ text, toolCalls: call(tool, args) });
  });

  it.each([
    [
      'a booking without a name',
      'Can I book a cleaning on Friday at 10am?',
      'I can book that for you. May I have your full name for the booking?',
    ],
    ['times without a day', 'What times do you have?', 'Sure. Which day would you like me to check?'],
    [
      'a booking with no day',
      'I would like to book a cleaning next week.',
      "I'd be happy to help you book that. What day and time work best for you?",
    ],
  ])('asks instead of guessing: %s', (_name, said, text) => {
    // Act / Assert
    expect(reply([user(said)])).toEqual({ text });
  });

  it('needs the call’s today to resolve a day: without it, no booking tool is called', () => {
    // Act
    const answer = new SandboxLlmScript().reply({
      model: 'gpt-4.1-mini',
      messages: [{ role: 'system', content: 'You are a receptionist.' }, user('Can I book a cleaning on Friday at 10am? This is Sam Lee.')],
      tools: offered(...BOOKING),
    });
    // Assert
    expect(answer.toolCalls).toBeUndefined();
  });

  it('cancels the one booking find_appointments found', () => {
    // Act
    const answer = reply([user('Please cancel my appointment.'), asked('find_appointments'), result({ appointments: [FRIDAY_10] })]);
    // Assert
    expect(answer).toEqual({
      text: "I found your Cleaning on Friday, November 27 at 10:00 AM. I'll cancel it now.",
      toolCalls: call('cancel_appointment', { booking_id: 41 }),
    });
  });

  it('moves the one booking found to the day and time the caller asked', () => {
    // Act
    const answer = reply([
      user('I need to move my appointment to Monday at 2pm.'),
      asked('find_appointments'),
      result({ appointments: [FRIDAY_10] }),
    ]);
    // Assert
    expect(answer).toEqual({
      text: 'I found your Cleaning on Friday, November 27 at 10:00 AM. Let me move it.',
      toolCalls: call('reschedule_appointment', { booking_id: 41, start: '2026-11-30T14:00' }),
    });
  });

  it.each([
    [
      'no booking found',
      { appointments: [] },
      "I couldn't find an upcoming appointment under the number you're calling from. Is there anything else I can help you with?",
    ],
    [
      'several found',
      { appointments: [FRIDAY_10, { ...FRIDAY_10, booking_id: 42, date: '2026-11-30', time: '14:00' }] },
      'I found 2 appointments: Friday, November 27 at 10:00 AM and Monday, November 30 at 2:00 PM. Which one do you mean?',
    ],
  ])('asks before changing anything: %s', (_name, output, text) => {
    // Act / Assert
    expect(reply([user('Please cancel my appointment.'), asked('find_appointments'), result(output)])).toEqual({ text });
  });

  it.each([
    [
      'free times',
      'check_availability',
      { date: '2026-11-27', free_times: ['09:00', '09:30', '10:00', '10:30'], more_free_times: 0 },
      'On Friday, November 27 I have 9:00 AM, 9:30 AM and 10:00 AM free, and 1 more time. Which time would you like?',
    ],
    [
      'the next free day',
      'check_availability',
      {
        date: '2026-11-28',
        free_times: [],
        more_free_times: 0,
        next_free_day: { date: '2026-11-30', free_times: ['09:00'], more_free_times: 0 },
      },
      'I have nothing free on Saturday, November 28. The first free day after that is Monday, November 30, from 9:00 AM. Would that work?',
    ],
    [
      'booked',
      'book_appointment',
      { booked: true, ...FRIDAY_10, name: 'Sam Lee' },
      "You're booked: Cleaning on Friday, November 27 at 10:00 AM, under the name Sam Lee. Is there anything else I can help you with?",
    ],
    [
      'slot taken',
      'book_appointment',
      { booked: false, reason: 'slot_taken', detail: 'That time has just been taken.', other_free_times: ['10:30', '11:00'] },
      "I'm sorry, I couldn't book that: that time has just been taken. On that day I still have 10:30 AM and 11:00 AM free. Would one of those work?",
    ],
    [
      'closed',
      'book_appointment',
      { booked: false, reason: 'closed', detail: 'The business is closed that day.' },
      "I'm sorry, I couldn't book that: the business is closed that day. Would another day work?",
    ],
    [
      'cancelled',
      'cancel_appointment',
      { cancelled: true, ...FRIDAY_10 },
      'Your Cleaning on Friday, November 27 at 10:00 AM is cancelled. Is there anything else I can help you with?',
    ],
    [
      'moved',
      'reschedule_appointment',
      { moved: true, ...FRIDAY_10, date: '2026-11-30', time: '14:00' },
      'Done: your Cleaning is now on Monday, November 30 at 2:00 PM. Is there anything else I can help you with?',
    ],
    [
      'listed',
      'find_appointments',
      { appointments: [FRIDAY_10] },
      'You have an appointment: Cleaning on Friday, November 27 at 10:00 AM. Is there anything else I can help you with?',
    ],
  ])('speaks the result back: %s', (_name, tool, output, text) => {
    // Act / Assert
    expect(reply([user('Hello.'), asked(tool), result(output)])).toEqual({ text });
  });
});

describe('the sandbox reading of a booking call', () => {
  it.each([
    ['a confirmed booking', 'book_appointment: booking 41 confirmed', true],
    ['a refused booking', 'book_appointment: refused: slot_taken', false],
    ['a failed booking', 'book_appointment failed', false],
    ['a cancellation', 'cancel_appointment: appointment 41 cancelled', false],
    ['a look at the day', 'check_availability: 16 free on 2026-11-27', false],
  ])('%s: booked %s', (_name, line, booked) => {
    // Act
    const reading = readCall([
      { role: 'user', text: 'This is Sam Lee, can I book Friday at 10am?' },
      { role: 'tool', text: line },
    ]);
    // Assert
    expect(reading.booked).toBe(booked);
  });
});

describe('saidConfirmation', () => {
  it.each([
    [{ sms: 'sent', email: 'none' }, "I've texted you a confirmation. "],
    [{ sms: 'off', email: 'sent' }, "I've emailed you a calendar invitation. "],
    [{ sms: 'sent', email: 'sent' }, "I've texted you a confirmation and emailed you a calendar invitation. "],
    [
      { sms: 'sent', email: 'failed' },
      "I've texted you a confirmation. I couldn't send you the confirmation email, but it's all done on our side. ",
    ],
    [{ sms: 'failed', email: 'none' }, "I couldn't send you the confirmation text, but it's all done on our side. "],
    [{ sms: 'off', email: 'none' }, ''],
    [{ sms: 'not_possible', email: 'none' }, ''],
  ])('%o is said as %j', (confirmation, words) => {
    expect(saidConfirmation({ booked: true, confirmation })).toBe(words);
  });
});
