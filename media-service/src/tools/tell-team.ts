import { businessName } from '../../../shared/domain/business-profile';
import { teamEmails } from '../../../shared/domain/call-script';
import type { Message } from '../../../shared/domain/message';
import type { ToolContext } from './tool-types';

/**
 * Sends the team a notice about a stored message, to the profile's `team_emails`; false
 * when the profile names none (the message is still listed by GET /messages). Rejects when the
 * notifier failed.
 */
export async function tellTeam(context: ToolContext, message: Message, subject: string): Promise<boolean> {
  const to = teamEmails(context.profile);
  if (to.length === 0) return false;
  const business = businessName(context.profile);
  const lines = [
    message.body,
    '',
    `Caller: ${message.caller_name || 'not given'}, ${message.caller_number || 'number withheld'}`,
    `Call ${message.call_id}, message ${message.id}${business ? ` (${business})` : ''}`,
  ];
  await context.ports.team.notify(
    {
      businessId: context.businessId,
      callId: context.callId,
      messageId: message.id,
      to,
      subject: `${message.urgent ? 'URGENT: ' : ''}${subject}`,
      body: lines.join('\n'),
      urgent: message.urgent,
    },
    context.signal,
  );
  return true;
}
