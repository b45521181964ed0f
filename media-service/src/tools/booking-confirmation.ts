import { DateTime } from 'luxon';
import type { BookingRecord } from '../../../shared/db/booking-repository';
import type { Booking } from '../../../shared/domain/booking';
import { businessName } from '../../../shared/domain/business-profile';
import { isEmailAddress } from '../../../shared/domain/caller-contact';
import { teamEmails } from '../../../shared/domain/call-script';
import { bookingInvitation, DEFAULT_UID_DOMAIN } from '../../../shared/services/bookings-calendar';
import type { OutgoingEmail } from '../ports/email-sender';
import { bookingView } from './booking-view';
import { withAllowance } from './call-allowance';
import { textCaller } from './send-sms';
import { noticeTeam, toldSummary, type TeamTold } from './tell-team';
import { ToolRefusal, type ToolContext, type ToolResult } from './tool-types';

/** What happened to a booking on this call: each is confirmed to the caller and told to the team. */
export type BookingChange = 'booked' | 'moved' | 'cancelled';

/**
 * What became of the caller's confirmation on one channel: `sent`; `failed` (the provider refused
 * or did not answer); `off` (the assistant does not text); `none` (no email address given);
 * `not_possible` (a withheld number, an unusable address, or the call's send limit reached).
 */
export type ConfirmationOutcome = 'sent' | 'failed' | 'off' | 'none' | 'not_possible';

/** What was confirmed, as the tool's output carries it. */
export interface Confirmation {
  sms: ConfirmationOutcome;
  email: ConfirmationOutcome;
  team: 'sent' | 'failed' | 'none';
}

/**
 * The confirmations together must stay well inside the booking tools' 10 s: SES answers in
 * ~100–300 ms and Twilio in ~200–500 ms, so 4 s means a provider is down, and the booking (already
 * made) is reported with that channel `failed`.
 */
export const CONFIRMATION_TIMEOUT_MS = 4000;

const SMS_LEAD: Record<BookingChange, string> = {
  booked: 'Booking confirmed',
  moved: 'Booking moved',
  cancelled: 'Booking cancelled',
};

const TEAM_LEAD: Record<BookingChange, string> = {
  booked: 'New booking',
  moved: 'Booking moved',
  cancelled: 'Booking cancelled',
};

/** "Friday, November 27 at 10:00 AM" on the business's clock (the booking's own offset). */
export function spokenStart(booking: Booking): string {
  return DateTime.fromISO(booking.start, { setZone: true }).setLocale('en').toFormat("cccc, LLLL d 'at' h:mm a");
}

/** One line naming the booking: "Cleaning on Friday, November 27 at 10:00 AM (ref 12)". */
const what = (booking: Booking) => `${booking.service} on ${spokenStart(booking)} (ref ${booking.id})`;

/** A refusal (limit, withheld number) is `not_possible`; anything else from a provider is `failed`. */
const outcomeOf = (error: unknown): ConfirmationOutcome => (error instanceof ToolRefusal ? 'not_possible' : 'failed');

async function textConfirmation(context: ToolContext, booking: Booking, change: BookingChange): Promise<ConfirmationOutcome> {
  if (!context.config.builtin.sms) return 'off';
  const tail = change === 'cancelled' ? '' : ' To change it, call us back.';
  return textCaller(context, `${SMS_LEAD[change]}: ${what(booking)}.${tail}`).then(
    () => 'sent' as const,
    (error: unknown) => outcomeOf(error),
  );
}

/** The caller's confirmation email for `record` (the stored booking, with its current SEQUENCE), the .ics attached. */
function confirmationEmail(
  context: ToolContext,
  booking: Booking & { email: string },
  record: BookingRecord,
  change: BookingChange,
): OutgoingEmail {
  const name = businessName(context.profile);
  const replyTo = teamEmails(context.profile)[0];
  const cancel = change === 'cancelled';
  const ics = bookingInvitation(record, {
    businessName: name,
    uidDomain: DEFAULT_UID_DOMAIN,
    method: cancel ? 'cancel' : 'request',
    organizerEmail: replyTo ?? `bookings@${DEFAULT_UID_DOMAIN}`,
    now: new Date(),
  });
  const lines = [
    `Hello ${booking.name},`,
    '',
    `${SMS_LEAD[change]}: ${what(booking)}${name ? ` with ${name}` : ''}.`,
    cancel ? 'The attached file removes it from your calendar.' : 'The attached invitation adds it to your calendar.',
  ];
  return {
    to: [booking.email],
    ...(name && { fromName: name }),
    ...(replyTo && { replyTo }),
    subject: `${SMS_LEAD[change]}: ${booking.service} on ${spokenStart(booking)}`,
    text: lines.join('\n'),
    attachments: [
      {
        filename: cancel ? 'cancel.ics' : 'invite.ics',
        contentType: `text/calendar; charset=utf-8; method=${cancel ? 'CANCEL' : 'REQUEST'}`,
        content: new TextEncoder().encode(ics),
      },
    ],
  };
}

async function emailConfirmation(context: ToolContext, booking: Booking, change: BookingChange): Promise<ConfirmationOutcome> {
  if (booking.email === null) return 'none';
  if (!isEmailAddress(booking.email)) return 'not_possible';
  const addressed = { ...booking, email: booking.email };
  const send = async () => {
    const record = await context.ports.bookings.getRecord(context.businessId, booking.id);
    return context.ports.email.send(confirmationEmail(context, addressed, record, change), context.signal);
  };
  return withAllowance(context, 'email', send).then(
    () => 'sent' as const,
    (error: unknown) => outcomeOf(error),
  );
}

function tellTeamOf(context: ToolContext, booking: Booking, change: BookingChange): Promise<TeamTold> {
  const business = businessName(context.profile);
  const lines = [
    `${TEAM_LEAD[change]}: ${what(booking)}.`,
    '',
    `Name: ${booking.name}`,
    `Phone: ${booking.phone ?? 'not given'}`,
    ...(booking.email ? [`Email: ${booking.email}`] : []),
    ...(booking.notes ? [`Notes: ${booking.notes}`] : []),
    `Call ${context.callId}, booking ${booking.id}${business ? ` (${business})` : ''}`,
  ];
  const subject = `${TEAM_LEAD[change]}: ${booking.service} on ${spokenStart(booking)}, ${booking.name}`;
  return noticeTeam(context, { subject, lines, urgent: false, bookingId: booking.id });
}

/**
 * Confirms a booking change (already made: nothing here can undo it) to the caller and the team,
 * all at once and within {@link CONFIRMATION_TIMEOUT_MS}: a text to the caller's own number when
 * the assistant texts (through {@link textCaller}, so the call's text limit holds), an email with
 * an .ics invitation (REQUEST, or CANCEL for a cancellation) when the booking has an address, and
 * a team notice. Never rejects: each channel reports what became of it.
 */
export async function confirmBookingChange(
  context: ToolContext,
  booking: Booking,
  change: BookingChange,
): Promise<{ confirmation: Confirmation; told: TeamTold }> {
  const signal = AbortSignal.any([context.signal, AbortSignal.timeout(CONFIRMATION_TIMEOUT_MS)]);
  const bounded = { ...context, signal };
  const [sms, email, told] = await Promise.all([
    textConfirmation(bounded, booking, change),
    emailConfirmation(bounded, booking, change),
    tellTeamOf(bounded, booking, change).catch((): TeamTold => ({ email: 'failed', sms: 'failed', told: false })),
  ]);
  const team = told.told ? 'sent' : told.email === 'none' && told.sms === 'none' && !told.limited ? 'none' : 'failed';
  return { confirmation: { sms, email, team }, told };
}

const SMS_WORDS: Record<ConfirmationOutcome, string> = {
  sent: 'A confirmation text was sent to the number the caller is calling from.',
  failed: 'The confirmation text could not be sent.',
  off: 'This assistant does not send texts, so no confirmation text was sent.',
  none: '',
  not_possible: 'No confirmation text could be sent to this caller.',
};

const EMAIL_WORDS: Record<ConfirmationOutcome, string> = {
  sent: 'A confirmation email with a calendar invitation was sent to the address the caller gave.',
  failed: 'The confirmation email could not be sent.',
  off: '',
  none: '',
  not_possible: 'No confirmation email could be sent to the address given.',
};

/** The confirmation in plain words for the model: what went out, what did not, and that the change stands. */
export function confirmationWords(confirmation: Confirmation, change: BookingChange): string {
  const words = [SMS_WORDS[confirmation.sms], EMAIL_WORDS[confirmation.email]].filter(Boolean);
  const failed = confirmation.sms === 'failed' || confirmation.email === 'failed';
  const stands = change === 'cancelled' ? 'The cancellation stands' : 'The booking stands';
  if (failed) words.push(`${stands} all the same; tell the caller honestly what was not sent.`);
  if (confirmation.sms !== 'sent' && confirmation.email !== 'sent')
    words.push('Nothing in writing went to the caller: read the details out.');
  return words.join(' ');
}

/** The confirmation's side of a tool's `actions` summary: `caller texted, caller email failed, team emailed`. */
export function confirmationSummary(confirmation: Confirmation, told: TeamTold): string {
  const caller = (channel: string, outcome: ConfirmationOutcome, verb: string) =>
    ({
      sent: `caller ${verb}`,
      failed: `caller ${channel} failed`,
      off: `caller ${channel} off`,
      none: `no caller ${channel}`,
      not_possible: `caller ${channel} not possible`,
    })[outcome];
  const parts = [caller('text', confirmation.sms, 'texted'), caller('email', confirmation.email, 'emailed'), toldSummary(told)];
  return parts.join(', ');
}

/**
 * A booking tool's result after a change: `outcome` (`{booked: true}`, …) and the booking as the
 * model sees it, then what {@link confirmBookingChange} sent, in fields and in plain words; the
 * `actions` summary is `done` followed by each channel's outcome.
 */
export async function confirmedResult(
  context: ToolContext,
  booking: Booking,
  change: BookingChange,
  outcome: Record<string, true>,
  done: string,
): Promise<ToolResult> {
  const { confirmation, told } = await confirmBookingChange(context, booking, change);
  return {
    output: {
      ...outcome,
      ...bookingView(booking, { withName: true }),
      confirmation,
      confirmation_note: confirmationWords(confirmation, change),
    },
    summary: `${done}; ${confirmationSummary(confirmation, told)}`,
  };
}
