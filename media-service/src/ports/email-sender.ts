/**
 * Sends an email from the platform's verified sender identity: Amazon SES (v2) in production, a
 * local SES stand-in in `npm run dev` and tests (the same SDK and wire). Content is the
 * business's data: adapters send it, never log it.
 */

/** A file sent with the email (a booking's .ics invitation). */
export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

/** One email to send. */
export interface OutgoingEmail {
  to: readonly string[];
  /** Shown as the sender's name beside the platform's address (the business's display name). */
  fromName?: string;
  /** Where replies go (the business's team address), when given. */
  replyTo?: string;
  subject: string;
  text: string;
  attachments?: readonly EmailAttachment[];
}

/** What the mail service accepted: its message id. */
export interface SentEmail {
  id: string;
}

/** Rejects with a `ProviderError` when the mail service refused the email or did not answer. */
export interface EmailSender {
  send(email: OutgoingEmail, signal: AbortSignal): Promise<SentEmail>;
}
