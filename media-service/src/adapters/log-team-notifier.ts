import type { Logger } from '../../../shared/log';
import type { TeamNotice, TeamNotifier } from '../ports/team-notifier';

/**
 * The team notifier until an email/SMS sender exists: one `team.notice` log line per notice (ids,
 * recipient count, urgency; never the subject or body, which are call content), which an
 * operator's log alarm or a log subscription can route. The message itself is stored and listed by
 * GET /messages, so nothing a caller said is lost; what is missing is the push to the team's inbox
 * (README "Messages").
 */
export class LogTeamNotifier implements TeamNotifier {
  constructor(private readonly log: Logger) {}

  notify(notice: TeamNotice): Promise<void> {
    this.log.info('team.notice', {
      business_id: notice.businessId,
      call_id: notice.callId,
      message_id: notice.messageId,
      recipients: notice.to.length,
      urgent: notice.urgent,
    });
    return Promise.resolve();
  }
}
