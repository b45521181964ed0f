import * as v from 'valibot';
import { ProviderError } from '../../../shared/errors';
import {
  ANSWERED_BY,
  PlaceCallError,
  type AmdResult,
  type AnsweredBy,
  type CallProgressStatus,
  type CallStatusUpdate,
  type PlaceCallRequest,
  type PlacedAfterFailure,
  type Telephony,
} from '../ports/telephony';
import { connectStreamTwiml, dialTwiml } from '../telephony/twiml';
import { hangupTwilioCall } from '../../../shared/telephony/twilio-hangup';
import { neverReachedTwilio, twilioPost, type TwilioAccount } from '../../../shared/telephony/twilio-rest';

/** Construction options for {@link TwilioTelephony}. */
export interface TwilioTelephonyOptions extends TwilioAccount {
  /** Per-request timeout; default 10 s (Twilio answers create-call in ~200–600 ms). */
  timeoutMs?: number;
}

/** Twilio rejects inline TwiML longer than this (docs/protocols.md "Twilio", `Twiml` field). */
export const MAX_TWIML_CHARS = 4000;

const CreatedCallSchema = v.looseObject({ sid: v.pipe(v.string(), v.minLength(1)) });

/**
 * Twilio Programmable Voice over its REST API (form-encoded, HTTP Basic auth): create a call with
 * inline TwiML `<Connect><Stream>`, hang up (`Status=completed`), transfer (`Twiml=<Dial>`). The base
 * URL is configurable because twilio-node has no override, so the same code runs against the
 * sandbox carrier.
 *
 * - Status callbacks are requested for `initiated ringing answered completed`; AMD is
 *   `DetectMessageEnd` + `AsyncAmd` so the call connects at once and a voicemail verdict
 *   (`machine_end_beep`) arrives when the greeting is over, the moment to leave a message.
 * - Every failure is a `ProviderError('twilio', …, status)`; network errors and timeouts carry no
 *   status and are retryable. `placeCall`'s are `PlaceCallError`s saying whether Twilio may have
 *   created the call ({@link placedAfter}).
 *
 * @example
 * ```ts
 * const telephony = new TwilioTelephony({ accountSid, authToken, baseUrl: carrier.baseUrl });
 * const { callSid } = await telephony.placeCall({ to, from, streamUrl, parameters: { token }, … });
 * ```
 */
export class TwilioTelephony implements Telephony {
  constructor(private readonly options: TwilioTelephonyOptions) {}

  /** Creates the call; resolves once Twilio has queued it (busy/no-answer come later as callbacks). */
  async placeCall(request: PlaceCallRequest): Promise<{ callSid: string }> {
    try {
      return await this.createCall(request);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      throw new PlaceCallError(placedAfter(error), 'twilio', error.message, error.statusCode, { cause: error });
    }
  }

  private async createCall(request: PlaceCallRequest): Promise<{ callSid: string }> {
    const twiml = connectStreamTwiml(request.streamUrl, request.parameters);
    if (twiml.length > MAX_TWIML_CHARS) {
      throw new ProviderError('twilio', `TwiML is ${twiml.length} characters; Twilio accepts at most ${MAX_TWIML_CHARS}`, 400);
    }
    const form = new URLSearchParams({
      To: request.to,
      From: request.from,
      Twiml: twiml,
      StatusCallback: request.statusCallbackUrl,
      StatusCallbackMethod: 'POST',
      Timeout: String(request.timeoutS),
      TimeLimit: String(request.timeLimitS),
    });
    for (const event of ['initiated', 'ringing', 'answered', 'completed']) form.append('StatusCallbackEvent', event);
    if (request.machineDetection) {
      form.set('MachineDetection', 'DetectMessageEnd');
      form.set('AsyncAmd', 'true');
      form.set('AsyncAmdStatusCallback', request.amdCallbackUrl);
      form.set('AsyncAmdStatusCallbackMethod', 'POST');
    }
    const parsed = v.safeParse(CreatedCallSchema, await this.post('Calls.json', form));
    if (!parsed.success) throw new ProviderError('twilio', 'Twilio answered without a call sid', 502);
    return { callSid: parsed.output.sid };
  }

  /** Ends the call; a call that is already gone (404, Twilio code 20404) counts as ended. */
  hangup(callSid: string): Promise<void> {
    return hangupTwilioCall(this.options, callSid, this.options.timeoutMs);
  }

  /** Replaces the call's TwiML with `<Dial>`: Twilio stops the media stream and bridges the caller. */
  async transfer(callSid: string, toNumber: string, callerId?: string): Promise<void> {
    await this.post(`Calls/${encodeURIComponent(callSid)}.json`, new URLSearchParams({ Twiml: dialTwiml(toNumber, callerId) }));
  }

  private post(path: string, form: URLSearchParams): Promise<unknown> {
    return twilioPost(this.options, { path, form, timeoutMs: this.options.timeoutMs ?? 10_000 });
  }
}

/**
 * Whether Twilio may have created the call a failed create-call request asked for. A 4xx (429
 * included: Twilio refuses a request over the account's rate before creating anything) or a
 * request that never reached Twilio (connection refused, name not resolved) placed nothing. A 5xx,
 * a timeout or a dropped connection after the request went out, or a 2xx we could not read, may
 * have: Twilio's Calls API takes no idempotency key, so a second request could ring twice.
 */
export function placedAfter(error: ProviderError): PlacedAfterFailure {
  const status = error.statusCode;
  if (status !== undefined) return status >= 400 && status < 500 ? 'no' : 'unknown';
  return neverReachedTwilio(error) ? 'no' : 'unknown';
}

const CALL_STATUSES = ['queued', 'initiated', 'ringing', 'in-progress', 'completed', 'busy', 'no-answer', 'failed', 'canceled'] as const;
const OptionalInt = v.optional(v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number)));

/** The fields of a Twilio status callback the engine uses (the form carries many more). */
export const TwilioStatusCallbackSchema = v.looseObject({
  CallSid: v.pipe(v.string(), v.minLength(1)),
  CallStatus: v.picklist(CALL_STATUSES),
  CallDuration: OptionalInt,
  SequenceNumber: OptionalInt,
  SipResponseCode: OptionalInt,
});

/** The fields of an async AMD callback (`AsyncAmdStatusCallback`). */
export const TwilioAmdCallbackSchema = v.looseObject({
  CallSid: v.pipe(v.string(), v.minLength(1)),
  AnsweredBy: v.picklist(ANSWERED_BY),
  MachineDetectionDuration: OptionalInt,
});

/** Parses a (signature-checked) status callback form; undefined when it is not one. */
export function parseTwilioStatusCallback(form: Record<string, string>): CallStatusUpdate | undefined {
  const parsed = v.safeParse(TwilioStatusCallbackSchema, form);
  if (!parsed.success) return undefined;
  const o = parsed.output;
  return {
    callSid: o.CallSid,
    status: o.CallStatus satisfies CallProgressStatus,
    ...(o.CallDuration !== undefined && { durationS: o.CallDuration }),
    ...(o.SequenceNumber !== undefined && { sequenceNumber: o.SequenceNumber }),
    ...(o.SipResponseCode !== undefined && { sipResponseCode: o.SipResponseCode }),
  };
}

/** Parses a (signature-checked) AMD callback form; undefined when it is not one. */
export function parseTwilioAmdCallback(form: Record<string, string>): AmdResult | undefined {
  const parsed = v.safeParse(TwilioAmdCallbackSchema, form);
  if (!parsed.success) return undefined;
  const o = parsed.output;
  return {
    callSid: o.CallSid,
    answeredBy: o.AnsweredBy satisfies AnsweredBy,
    ...(o.MachineDetectionDuration !== undefined && { detectionMs: o.MachineDetectionDuration }),
  };
}
