import * as v from 'valibot';
import { ProviderError } from '../../../shared/errors';
import type { OutgoingSms, SentSms, SmsSender } from '../ports/sms-sender';
import { neverReachedTwilio, twilioPost, type TwilioAccount } from '../../../shared/telephony/twilio-rest';

/** Construction options for {@link TwilioSms}: the same account and base URL as `TwilioTelephony`. */
export interface TwilioSmsOptions extends TwilioAccount {
  /** Per-attempt timeout; default 5 s (Twilio accepts a message in ~200–500 ms). */
  timeoutMs?: number;
  /** Wait before the one retry; default 300 ms. */
  retryDelayMs?: number;
}

/** Twilio rejects longer bodies with 21617. */
export const TWILIO_MAX_BODY_CHARS = 1600;

const CreatedMessageSchema = v.looseObject({
  sid: v.pipe(v.string(), v.minLength(1)),
  status: v.string(),
});

/**
 * Texts through Twilio Messages (`POST /2010-04-01/Accounts/{sid}/Messages.json`, form-encoded,
 * Basic auth), or the sandbox carrier's copy of it. A text is not idempotent (Twilio takes no
 * idempotency key), so it is sent again only when Twilio cannot have accepted it: a 429, or a
 * connection that was never made; once, after `retryDelayMs`. A timeout is not retried: the first
 * text may be on its way. The body is the business's data and never appears in an error.
 *
 * @example
 * ```ts
 * const sms = new TwilioSms({ accountSid: carrier.accountSid, authToken: carrier.authToken, baseUrl: carrier.baseUrl });
 * const { id } = await sms.send({ from: '+15550100001', to: '+14155550100', body: 'See you at 3pm.' }, signal);
 * ```
 */
export class TwilioSms implements SmsSender {
  constructor(private readonly options: TwilioSmsOptions) {}

  async send(message: OutgoingSms, signal: AbortSignal): Promise<SentSms> {
    if (message.body.length > TWILIO_MAX_BODY_CHARS) {
      throw new ProviderError(
        'twilio',
        `The text is ${message.body.length} characters; Twilio takes at most ${TWILIO_MAX_BODY_CHARS}`,
        400,
      );
    }
    const form = new URLSearchParams({ To: message.to, From: message.from, Body: message.body });
    const post = () => twilioPost(this.options, { path: 'Messages.json', form, timeoutMs: this.options.timeoutMs ?? 5000, signal });
    let answer: unknown;
    try {
      answer = await post();
    } catch (error) {
      if (!retrySafe(error) || signal.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, this.options.retryDelayMs ?? 300));
      signal.throwIfAborted();
      answer = await post();
    }
    const parsed = v.safeParse(CreatedMessageSchema, answer);
    if (!parsed.success) throw new ProviderError('twilio', 'Twilio answered without a message sid', 502);
    return { id: parsed.output.sid, status: parsed.output.status };
  }
}

/** Twilio refused for load (429), or never got the request: sending again cannot make a second text. */
function retrySafe(error: unknown): boolean {
  return (error instanceof ProviderError && error.statusCode === 429) || neverReachedTwilio(error);
}
