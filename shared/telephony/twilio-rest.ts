import { ProviderError } from '../errors';

/** The Twilio account an adapter acts as, and where its REST API is. */
export interface TwilioAccount {
  accountSid: string;
  authToken: string;
  /** https://api.twilio.com in production; the sandbox carrier's address locally and in tests. */
  baseUrl?: string;
  /** Replaces global fetch (tests, or a proxy-aware client). */
  fetch?: typeof fetch;
}

/** One form POST to the account's 2010-04-01 REST API. */
export interface TwilioPost {
  /** Under `/2010-04-01/Accounts/{sid}/`, e.g. `Calls.json`. */
  path: string;
  form: URLSearchParams;
  timeoutMs: number;
  /** The caller's signal (a tool's call ending), raced with the timeout. */
  signal?: AbortSignal;
}

/** A failed request that never reached Twilio's server (the connection was refused or not made). */
export const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * POSTs a form to Twilio's REST API with HTTP Basic auth and parses the JSON answer. Every failure
 * is a `ProviderError('twilio', …)`: with the HTTP status when Twilio answered, without one (and
 * `notSent` in its cause's code) when the request failed on the way. Error bodies are reduced to
 * Twilio's message and code, never echoed whole.
 */
export async function twilioPost(account: TwilioAccount, request: TwilioPost): Promise<unknown> {
  const base = (account.baseUrl ?? 'https://api.twilio.com').replace(/\/$/, '');
  const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(account.accountSid)}/${request.path}`;
  const auth = Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64');
  const timeout = AbortSignal.timeout(request.timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await (account.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: request.form.toString(),
      signal: request.signal ? AbortSignal.any([request.signal, timeout]) : timeout,
    });
    text = await response.text();
  } catch (error) {
    throw new ProviderError('twilio', `Twilio request failed: ${(error as Error).message}`, undefined, { cause: error });
  }
  if (!response.ok) {
    const detail = safeMessage(text);
    throw new ProviderError('twilio', `Twilio answered ${response.status}${detail ? `: ${detail}` : ''}`, response.status);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ProviderError('twilio', 'Twilio answered a body that is not JSON', 502, { cause: error });
  }
}

/** True when a `twilioPost` failure means Twilio never got the request (safe to send again). */
export function neverReachedTwilio(error: unknown): boolean {
  if (!(error instanceof Error) || (error as { statusCode?: number }).statusCode !== undefined) return false;
  for (let cause: unknown = error.cause; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_SENT_CODES.has(code)) return true;
  }
  return false;
}

/** Twilio error bodies are `{code, message, more_info, status}`; keep message and code only. */
function safeMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown; code?: unknown };
    return typeof body.message === 'string' ? `${body.message.slice(0, 300)} (code ${String(body.code)})` : '';
  } catch {
    return '';
  }
}
