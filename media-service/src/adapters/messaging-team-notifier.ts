import { textRefusal } from '../../../shared/phone/texting';
import type { Logger } from '../../../shared/log';
import type { EmailSender } from '../ports/email-sender';
import type { SmsSender } from '../ports/sms-sender';
import type { ChannelOutcome, TeamNotice, TeamNoticeOutcome, TeamNotifier } from '../ports/team-notifier';

/** A team text is the subject and the first part of the body: phones show ~3 segments well. */
export const TEAM_SMS_MAX_CHARS = 480;

/**
 * Team notices over the platform's senders: one email to every team address (from the platform's
 * address under the business's name) and one text to each team phone (from the business's number
 * on the call), both at once. Urgency leads the subject and the text. A failed channel does not
 * fail the other: each is reported (`sent`/`failed`/`none`) and logged by ids only (never the
 * subject, body or recipients, which are call content and personal data).
 */
export class MessagingTeamNotifier implements TeamNotifier {
  /** `sandbox`: `sms` is the sandbox carrier (`TextingLine.sandbox`). */
  constructor(private readonly deps: { email: EmailSender; sms: SmsSender; sandbox?: boolean; log: Logger }) {}

  async notify(notice: TeamNotice, signal: AbortSignal): Promise<TeamNoticeOutcome> {
    const [email, sms] = await Promise.all([this.#email(notice, signal), this.#texts(notice, signal)]);
    this.deps.log.info('team.notice', {
      business_id: notice.businessId,
      call_id: notice.callId,
      ...about(notice),
      emails: notice.emails.length,
      phones: notice.phones.length,
      urgent: notice.urgent,
      email,
      sms,
    });
    return { email, sms };
  }

  async #email(notice: TeamNotice, signal: AbortSignal): Promise<ChannelOutcome> {
    if (notice.emails.length === 0) return 'none';
    const email = {
      to: notice.emails,
      ...(notice.businessName && { fromName: notice.businessName }),
      subject: notice.subject,
      text: notice.body,
    };
    return this.#attempt('email', notice, () => this.deps.email.send(email, signal));
  }

  async #texts(notice: TeamNotice, signal: AbortSignal): Promise<ChannelOutcome> {
    if (notice.phones.length === 0) return 'none';
    // Team phones are the business's own setting: a team phone in another region or of a
    // premium-rate type would let a business pump texts the platform pays for, so the one texting
    // rule decides (checked on save too; numbers saved before the rule are caught here).
    const line = { number: notice.fromNumber, regions: notice.smsRegions ?? [], sandbox: this.deps.sandbox ?? false };
    const phones = notice.phones.filter((phone) => textRefusal(phone, line) === null);
    if (phones.length < notice.phones.length)
      this.deps.log.warn('team.notice.phones_refused', {
        business_id: notice.businessId,
        call_id: notice.callId,
        message_id: notice.messageId,
        skipped: notice.phones.length - phones.length,
      });
    if (phones.length === 0) return 'failed';
    const full = `${notice.subject}: ${notice.body}`;
    const body = full.length > TEAM_SMS_MAX_CHARS ? `${full.slice(0, TEAM_SMS_MAX_CHARS - 1)}…` : full;
    const sent = await Promise.all(
      phones.map((to) => this.#attempt('sms', notice, () => this.deps.sms.send({ from: notice.fromNumber, to, body }, signal))),
    );
    // Told when any phone got it; the log has each failure.
    return sent.includes('sent') ? 'sent' : 'failed';
  }

  async #attempt(channel: 'email' | 'sms', notice: TeamNotice, send: () => Promise<unknown>): Promise<ChannelOutcome> {
    try {
      await send();
      return 'sent';
    } catch (error) {
      this.deps.log.warn('team.notice.failed', {
        business_id: notice.businessId,
        call_id: notice.callId,
        ...about(notice),
        channel,
        error: error instanceof Error ? error.name : typeof error,
        ...(error instanceof Error && 'statusCode' in error && { status: error.statusCode }),
      });
      return 'failed';
    }
  }
}

/** What a notice is about, by id only, for its log lines. */
function about(notice: TeamNotice): Record<string, number> {
  return {
    ...(notice.messageId !== undefined && { message_id: notice.messageId }),
    ...(notice.bookingId !== undefined && { booking_id: notice.bookingId }),
  };
}
