import { twilioSignature } from '../telephony/twilio-signature';

/** One HTTP request the sandbox made to our server (status, AMD, voice webhook, TwiML `Url`). */
export interface CallbackRecord {
  kind: 'status' | 'amd' | 'voice';
  url: string;
  method: 'GET' | 'POST';
  params: Record<string, string>;
  /** The X-Twilio-Signature sent (so tests can re-validate it). */
  signature: string;
  /** Ms since the call was created. */
  atMs: number;
  httpStatus?: number;
  error?: string;
}

/** Result of a signed request. */
export interface SignedResponse {
  status: number;
  body: string;
  contentType: string;
}

/**
 * Sends Twilio-style form parameters exactly as Twilio does: POST `application/x-www-form-urlencoded`
 * signed over URL + sorted params, or GET with the params in the query string, signed over the
 * full URL with no params (twilio-node `validateRequest` semantics). Redirects are not followed.
 */
export async function sendSigned(
  authToken: string,
  url: string,
  method: 'GET' | 'POST',
  params: Record<string, string>,
  timeoutMs: number,
): Promise<{ signature: string; response: SignedResponse }> {
  const target = new URL(url);
  if (method === 'GET') for (const [key, value] of Object.entries(params)) target.searchParams.append(key, value);
  const signedUrl = method === 'GET' ? target.toString() : url;
  const signature = twilioSignature(authToken, signedUrl, method === 'GET' ? {} : params);
  const response = await fetch(signedUrl, {
    method,
    headers: {
      'X-Twilio-Signature': signature,
      'User-Agent': 'TwilioProxy/1.1 (sandbox carrier)',
      ...(method === 'POST' && { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }),
    },
    ...(method === 'POST' && { body: new URLSearchParams(params).toString() }),
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = await response.text();
  return { signature, response: { status: response.status, body, contentType: response.headers.get('content-type') ?? '' } };
}

/** Parameters Twilio puts on every call request (status callbacks, voice webhooks). */
export function callParams(
  call: { sid: string; accountSid: string; to: string; from: string; direction: string },
  callStatus: string,
): Record<string, string> {
  return {
    AccountSid: call.accountSid,
    ApiVersion: '2010-04-01',
    CallSid: call.sid,
    CallStatus: callStatus,
    Called: call.to,
    Caller: call.from,
    Direction: call.direction,
    From: call.from,
    To: call.to,
  };
}

/** SIP codes Twilio reports for failed attempts (busy here, request terminated, not found). */
export const SIP_CODES: Readonly<Record<string, number>> = { busy: 486, 'no-answer': 487, failed: 404 };
