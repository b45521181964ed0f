/**
 * Tells a business's team about something a call needs them for (a message left, an urgent
 * matter): by email to the profile's `team_emails` and by text to its `team_phones`, each when
 * set. Content is the business's data: adapters send it, never log it.
 */

/** One notice for the team. */
export interface TeamNotice {
  businessId: number;
  callId: number;
  /** The stored message this notice is about (GET /messages/{id}), when it is about one. */
  messageId?: number;
  /** The booking this notice is about (GET /bookings/{id}), when it is about one. */
  bookingId?: number;
  /** Email addresses from the business profile's `team_emails`. */
  emails: readonly string[];
  /** Numbers (E.164) from the business profile's `team_phones`. */
  phones: readonly string[];
  /** The business's own number on this call: team texts come from it. */
  fromNumber: string;
  /** The profile's `sms_regions`: where team texts may go besides the line's own region (`textRefusal`). */
  smsRegions?: readonly string[];
  /** Shown as the email's sender name ('' for none). */
  businessName: string;
  subject: string;
  body: string;
  urgent: boolean;
}

/** What became of one channel: sent, failed, or not used (nothing configured for it). */
export type ChannelOutcome = 'sent' | 'failed' | 'none';

/** What reached the team, per channel. */
export interface TeamNoticeOutcome {
  email: ChannelOutcome;
  sms: ChannelOutcome;
}

/** Sends team notices; never rejects: a failed channel is reported as `failed` (and logged by ids). */
export interface TeamNotifier {
  notify(notice: TeamNotice, signal: AbortSignal): Promise<TeamNoticeOutcome>;
}
