import { businessName } from '../../../shared/domain/business-profile';
import { teamEmails, teamPhones } from '../../../shared/domain/call-script';
import type { Message } from '../../../shared/domain/message';
import type { TeamNoticeOutcome } from '../ports/team-notifier';
import type { ToolContext } from './tool-types';

/** What the team heard of a message: each channel, whether any reached them, and whether the call's notice limit held it back. */
export interface TeamTold extends TeamNoticeOutcome {
  told: boolean;
  limited?: boolean;
}

/**
 * How long the team notice may take, both channels at once (SES answers in ~100–300 ms, Twilio in
 * ~200–500 ms): well inside the tools' 10 s, so a slow channel is reported `failed` and the model
 * still hears the message was saved, never "not saved" for a message that was.
 */
export const TEAM_NOTICE_TIMEOUT_MS = 4000;

/** One notice for the team, before the profile's addresses and the call's details are added. */
export interface TeamNoticeDraft {
  subject: string;
  lines: readonly string[];
  urgent: boolean;
  messageId?: number;
  bookingId?: number;
}

/**
 * Sends the team a notice: email to the profile's `team_emails`, a text to its `team_phones`
 * (from the business's number on this call). Channels the profile does not set are `none`; a
 * failed channel is `failed`. At most `CONTACT_LIMITS.teamNoticesPerCall` notices per call
 * (`limited` beyond); bounded by {@link TEAM_NOTICE_TIMEOUT_MS}.
 */
export async function noticeTeam(context: ToolContext, draft: TeamNoticeDraft): Promise<TeamTold> {
  const emails = teamEmails(context.profile);
  const phones = teamPhones(context.profile);
  if (emails.length === 0 && phones.length === 0) return { email: 'none', sms: 'none', told: false };
  if (!context.allowance.take('team')) return { email: 'none', sms: 'none', told: false, limited: true };
  const outcome = await context.ports.team.notify(
    {
      businessId: context.businessId,
      callId: context.callId,
      ...(draft.messageId !== undefined && { messageId: draft.messageId }),
      ...(draft.bookingId !== undefined && { bookingId: draft.bookingId }),
      emails,
      phones,
      fromNumber: context.businessNumber,
      smsRegions: context.profile?.sms_regions ?? [],
      businessName: businessName(context.profile),
      subject: `${draft.urgent ? 'URGENT: ' : ''}${draft.subject}`,
      body: draft.lines.join('\n'),
      urgent: draft.urgent,
    },
    AbortSignal.any([context.signal, AbortSignal.timeout(TEAM_NOTICE_TIMEOUT_MS)]),
  );
  return { ...outcome, told: outcome.email === 'sent' || outcome.sms === 'sent' };
}

/** Sends the team a notice about a stored message (the message stays listed by GET /messages whatever happens). */
export async function tellTeam(context: ToolContext, message: Message, subject: string): Promise<TeamTold> {
  const business = businessName(context.profile);
  const lines = [
    message.body,
    '',
    `Caller: ${message.caller_name || 'not given'}, ${message.caller_number || 'number withheld'}`,
    `Call ${message.call_id}, message ${message.id}${business ? ` (${business})` : ''}`,
  ];
  return noticeTeam(context, { subject, lines, urgent: message.urgent, messageId: message.id });
}

/** The team's side of a tool's `actions` summary, e.g. `team emailed, text failed`. */
export function toldSummary(told: TeamTold): string {
  if (told.limited) return 'team notice limit reached';
  if (told.email === 'none' && told.sms === 'none') return 'no team email or phone';
  const parts = [
    told.email === 'none' ? '' : told.email === 'sent' ? 'team emailed' : 'team email failed',
    told.sms === 'none' ? '' : told.sms === 'sent' ? 'team texted' : 'team text failed',
  ];
  return parts.filter(Boolean).join(', ');
}
