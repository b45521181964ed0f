import { ProviderError } from '../errors';
import { twilioPost, type TwilioAccount } from './twilio-rest';

/** Twilio answers a hang-up in ~200–600 ms; past this the request counts as failed. */
export const HANGUP_TIMEOUT_MS = 10_000;

/**
 * Ends a call over Twilio's REST API (`Status=completed`); a call that is already gone (404,
 * Twilio code 20404) counts as ended. The engine's `TwilioTelephony.hangup` and the sweeper
 * Lambda both end calls with it, so the Lambda bundles this file, not the engine's adapter.
 */
export async function hangupTwilioCall(account: TwilioAccount, callSid: string, timeoutMs = HANGUP_TIMEOUT_MS): Promise<void> {
  try {
    await twilioPost(account, {
      path: `Calls/${encodeURIComponent(callSid)}.json`,
      form: new URLSearchParams({ Status: 'completed' }),
      timeoutMs,
    });
  } catch (error) {
    if (error instanceof ProviderError && error.statusCode === 404) return;
    throw error;
  }
}

/**
 * The carrier hang-up alone, for code that ends calls it does not run (the sweeper Lambda).
 *
 * @example
 * ```ts
 * const telephony = new TwilioHangup({ accountSid, authToken });
 * await telephony.hangup(callSid);
 * ```
 */
export class TwilioHangup {
  constructor(private readonly options: TwilioAccount & { timeoutMs?: number }) {}

  /** Ends the call; a call that is already gone counts as ended. */
  hangup(callSid: string): Promise<void> {
    return hangupTwilioCall(this.options, callSid, this.options.timeoutMs);
  }
}
