/**
 * Tells a business's team about something a call needs them for (a message left, an urgent
 * matter). The port takes the whole notice; adapters decide the channel (email, SMS). Content is
 * the business's data: adapters send it, never log it.
 */

/** One notice for the team. */
export interface TeamNotice {
  businessId: number;
  callId: number;
  /** The stored message this notice is about (GET /messages/{id}). */
  messageId: number;
  /** Email addresses from the business profile's `team_emails`. */
  to: readonly string[];
  subject: string;
  body: string;
  urgent: boolean;
}

/** Sends team notices; rejects when the channel failed (the tool then tells the model so). */
export interface TeamNotifier {
  notify(notice: TeamNotice, signal: AbortSignal): Promise<void>;
}
