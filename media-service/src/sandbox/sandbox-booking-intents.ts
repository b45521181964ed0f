import type { SandboxLlmReply } from './sandbox-llm-script';
import { callerName, EMAIL, type IntentWords, type ToolIntent } from './sandbox-tool-intents';
import { saidConfirmation } from './spoken-confirmation';
import { sayDate, sayList, sayTime, spokenDate, spokenTime } from './spoken-dates';

/**
 * How the sandbox model books from the caller's words: "What times do you have on Friday?"
 * (check_availability), "Can I book a cleaning on Friday at 10am? This is Sam Lee"
 * (book_appointment), "Please cancel my appointment" and "I need to move my appointment to Monday
 * at 2pm" (find_appointments, then cancel_appointment or reschedule_appointment on the one found),
 * "When is my appointment?" (find_appointments). Days are resolved from the call's "today".
 */

const ANYTHING_ELSE = 'Is there anything else I can help you with?';
const CANCEL = /\bcancel\b/i;
const MOVE = /\b(reschedule|move|change)\b/i;
/** Words after "book a" that name no service ("book an appointment"): the business's first service is meant. */
const NOT_A_SERVICE = new Set(['appointment', 'booking', 'time', 'slot', 'visit', 'session']);
const SERVICE = /\b(?:book|schedule|for)\s+(?:a|an)\s+([a-z]+)\b/i;

/** The service the caller named ("book a cleaning"), unless they named none. */
function serviceIn(said: string): string | undefined {
  const word = SERVICE.exec(said)?.[1]?.toLowerCase();
  return word === undefined || NOT_A_SERVICE.has(word) ? undefined : word;
}

/** A sentence from the booking service as the end of one of ours: "that time has just been taken". */
const plain = (detail: unknown) => String(detail).charAt(0).toLowerCase() + String(detail).slice(1).replace(/\.$/, '');

/** "Friday, November 27 at 10:00 AM" for a tool's `{date, time}`. */
const when = (output: Record<string, unknown>) => `${sayDate(String(output.date))} at ${sayTime(String(output.time))}`;

const times = (list: unknown, count: number) => sayList((Array.isArray(list) ? (list as string[]) : []).slice(0, count).map(sayTime));

/** The day's free times spoken: the first three, and how many more. */
function freeDay(output: Record<string, unknown>): string {
  const free = output.free_times as string[];
  const more = free.length - 3 + Number(output.more_free_times ?? 0);
  return `On ${sayDate(String(output.date))} I have ${times(free, 3)} free${more > 0 ? `, and ${more} more time${more === 1 ? '' : 's'}` : ''}. Which time would you like?`;
}

/** "What times do you have on Friday?", or a booking with a day but no time: the day's free times. */
export const CHECK_AVAILABILITY_INTENT: ToolIntent = {
  tool: 'check_availability',
  asks: /\b(what times?|which times?|availab\w*|free|openings?|slots?|book|appointment)\b/i,
  call({ said, today }) {
    const date = today === undefined ? undefined : spokenDate(said, today);
    if (date === undefined) {
      return /\b(what times?|which times?|availab\w*|openings?)\b/i.test(said)
        ? { ask: 'Sure. Which day would you like me to check?' }
        : undefined;
    }
    const service = serviceIn(said);
    return { saying: 'Let me check what we have free.', args: { date, ...(service && { service }) } };
  },
  speak(output) {
    if (output.available === false) return `I'm sorry, ${plain(output.detail)}. ${ANYTHING_ELSE}`;
    if ((output.free_times as string[]).length > 0) return freeDay(output);
    const next = output.next_free_day as Record<string, unknown> | null;
    const day = sayDate(String(output.date));
    if (next === null) return `I'm sorry, I have nothing free on ${day} or in the weeks after it. ${ANYTHING_ELSE}`;
    return `I have nothing free on ${day}. The first free day after that is ${sayDate(String(next.date))}, from ${times(next.free_times, 1)}. Would that work?`;
  },
};

/** "Can I book a cleaning on Friday at 10am? This is Sam Lee": a day, a time and the caller's name. */
export const BOOK_APPOINTMENT_INTENT: ToolIntent = {
  tool: 'book_appointment',
  asks: /\b(book|schedule|make an appointment)\b/i,
  call({ said, callerWords, today }) {
    const date = today === undefined ? undefined : spokenDate(said, today);
    const time = spokenTime(said);
    if (date === undefined || time === undefined) return undefined;
    const name = callerName(callerWords);
    if (!name) return { ask: 'I can book that for you. May I have your full name for the booking?' };
    const service = serviceIn(said);
    const email = EMAIL.exec(said)?.[1] ?? EMAIL.exec(callerWords)?.[1];
    return {
      saying: 'Let me book that for you.',
      args: { start: `${date}T${time}`, name, ...(service && { service }), ...(email && { email }) },
    };
  },
  speak(output) {
    if (output.booked === true)
      return `You're booked: ${output.service} on ${when(output)}, under the name ${output.name}. ${saidConfirmation(output)}${ANYTHING_ELSE}`;
    const other = output.other_free_times as string[] | undefined;
    const offer = other?.length ? `On that day I still have ${times(other, 3)} free. Would one of those work?` : 'Would another day work?';
    return `I'm sorry, I couldn't book that: ${plain(output.detail)}. ${offer}`;
  },
};

/** After find_appointments: the one booking a cancel or a move is about, or words saying why not. */
function chainChange(output: Record<string, unknown>, words: IntentWords): SandboxLlmReply | string {
  const found = (output.appointments ?? []) as Record<string, unknown>[];
  if (found.length === 0) return `I couldn't find an upcoming appointment under the number you're calling from. ${ANYTHING_ELSE}`;
  if (found.length > 1) return `I found ${found.length} appointments: ${sayList(found.map(when))}. Which one do you mean?`;
  const booking = found[0]!;
  const id = booking.booking_id;
  if (CANCEL.test(words.said)) {
    return {
      text: `I found your ${booking.service} on ${when(booking)}. I'll cancel it now.`,
      toolCalls: [{ name: 'cancel_appointment', arguments: JSON.stringify({ booking_id: id }) }],
    };
  }
  const date = words.today === undefined ? undefined : spokenDate(words.said, words.today);
  const time = spokenTime(words.said);
  if (date === undefined || time === undefined)
    return `I found your ${booking.service} on ${when(booking)}. What day and time would you like instead?`;
  return {
    text: `I found your ${booking.service} on ${when(booking)}. Let me move it.`,
    toolCalls: [{ name: 'reschedule_appointment', arguments: JSON.stringify({ booking_id: id, start: `${date}T${time}` }) }],
  };
}

/** "When is my appointment?"; also the first step of a cancel or a move, which its result carries on. */
export const FIND_APPOINTMENTS_INTENT: ToolIntent = {
  tool: 'find_appointments',
  asks: /\b(when is my|do i have an?|my (?:next )?(?:appointments?|bookings?))\b/i,
  call: () => ({ saying: 'Let me look up your appointments.', args: {} }),
  speak(output, words) {
    if (CANCEL.test(words.said) || MOVE.test(words.said)) return chainChange(output, words);
    const found = (output.appointments ?? []) as Record<string, unknown>[];
    if (found.length === 0) return `I don't see any upcoming appointment under the number you're calling from. ${ANYTHING_ELSE}`;
    return `You have ${found.length === 1 ? 'an appointment' : `${found.length} appointments`}: ${sayList(found.map((b) => `${b.service} on ${when(b)}`))}. ${ANYTHING_ELSE}`;
  },
};

/** "Please cancel my appointment": looks the caller's bookings up first (the found one is then cancelled). */
export const CANCEL_APPOINTMENT_INTENT: ToolIntent = {
  tool: 'cancel_appointment',
  asks: /\bcancel\b.*\b(appointment|booking)\b/i,
  call: () => ({ saying: 'Let me look up your appointment.', tool: 'find_appointments', args: {} }),
  speak: (output) =>
    output.cancelled === true
      ? `Your ${output.service} on ${when(output)} is cancelled. ${saidConfirmation(output)}${ANYTHING_ELSE}`
      : `I'm sorry, I couldn't cancel it: ${plain(output.detail)}. ${ANYTHING_ELSE}`,
};

/** "Move my appointment to Monday at 2pm": looks the caller's bookings up first (the found one is then moved). */
export const RESCHEDULE_APPOINTMENT_INTENT: ToolIntent = {
  tool: 'reschedule_appointment',
  asks: /\b(reschedule|move|change)\b.*\b(appointment|booking)\b|\breschedule\b/i,
  call: () => ({ saying: 'Let me look up your appointment.', tool: 'find_appointments', args: {} }),
  speak: (output) =>
    output.moved === true
      ? `Done: your ${output.service} is now on ${when(output)}. ${saidConfirmation(output)}${ANYTHING_ELSE}`
      : `I'm sorry, I couldn't move it: ${plain(output.detail)}. It stays where it was. Would another time work?`,
};

/** The booking intents, in the order they are tried: a change before a new booking, a booking before a look. */
export const BOOKING_INTENTS: readonly ToolIntent[] = [
  CANCEL_APPOINTMENT_INTENT,
  RESCHEDULE_APPOINTMENT_INTENT,
  FIND_APPOINTMENTS_INTENT,
  BOOK_APPOINTMENT_INTENT,
  CHECK_AVAILABILITY_INTENT,
];
