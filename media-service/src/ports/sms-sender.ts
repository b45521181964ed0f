/**
 * Sends a text message (SMS) from one of the business's own numbers: Twilio Messages in
 * production, the sandbox carrier locally (the same wire). The body is the business's data:
 * adapters send it, never log it.
 */

/** One text to send. */
export interface OutgoingSms {
  /** The business's own number the text comes from (E.164). */
  from: string;
  /** The recipient (E.164). */
  to: string;
  /** At most 1,600 characters (the carrier's limit). */
  body: string;
}

/** What the carrier accepted: its message id and the status it gave. */
export interface SentSms {
  id: string;
  status: string;
}

/** Rejects with a `ProviderError` when the carrier refused the text or did not answer. */
export interface SmsSender {
  send(message: OutgoingSms, signal: AbortSignal): Promise<SentSms>;
}
