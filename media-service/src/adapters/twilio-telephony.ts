import { ProviderError } from '../../../shared/errors';
import type { PlaceCallRequest, Telephony } from '../ports/telephony';
import { connectStreamTwiml, dialTwiml } from '../telephony/twiml';

export interface TwilioTelephonyOptions {
  accountSid: string;
  authToken: string;
  /** https://api.twilio.com in production; the sandbox carrier's address locally and in tests. */
  baseUrl?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * Twilio Programmable Voice over its REST API (form-encoded, HTTP Basic auth): create a call with
 * inline TwiML `<Connect><Stream>`, hang up (`Status=completed`), transfer (`Twiml=<Dial>`). The base
 * URL is configurable because twilio-node has no override, so the same code runs against the
 * sandbox carrier.
 */
export class TwilioTelephony implements Telephony {
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: TwilioTelephonyOptions) {
    this.baseUrl = (options.baseUrl ?? 'https://api.twilio.com').replace(/\/$/, '');
    this.fetch = options.fetch ?? fetch;
  }

  async placeCall(request: PlaceCallRequest): Promise<{ callSid: string }> {
    const form = new URLSearchParams({
      To: request.to,
      From: request.from,
      Twiml: connectStreamTwiml(request.streamUrl, request.parameters),
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
    const body = (await this.post('Calls.json', form)) as { sid?: string };
    if (!body.sid) throw new ProviderError('twilio', 'Twilio answered without a call sid', 502);
    return { callSid: body.sid };
  }

  /** Ends the call; a call that is already gone (404) counts as ended. */
  async hangup(callSid: string): Promise<void> {
    try {
      await this.post(`Calls/${encodeURIComponent(callSid)}.json`, new URLSearchParams({ Status: 'completed' }));
    } catch (error) {
      if (error instanceof ProviderError && error.statusCode === 404) return;
      throw error;
    }
  }

  async transfer(callSid: string, toNumber: string, callerId?: string): Promise<void> {
    await this.post(`Calls/${encodeURIComponent(callSid)}.json`, new URLSearchParams({ Twiml: dialTwiml(toNumber, callerId) }));
  }

  private async post(path: string, form: URLSearchParams): Promise<unknown> {
    const url = `${this.baseUrl}/2010-04-01/Accounts/${encodeURIComponent(this.options.accountSid)}/${path}`;
    const auth = Buffer.from(`${this.options.accountSid}:${this.options.authToken}`).toString('base64');
    let response: Response;
    try {
      response = await this.fetch(url, {
        method: 'POST',
        headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw new ProviderError('twilio', `Twilio request failed: ${(error as Error).message}`, undefined, { cause: error });
    }
    const text = await response.text();
    if (!response.ok) {
      const detail = safeMessage(text);
      throw new ProviderError('twilio', `Twilio answered ${response.status}${detail ? `: ${detail}` : ''}`, response.status);
    }
    return JSON.parse(text) as unknown;
  }
}

function safeMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown; code?: unknown };
    return typeof body.message === 'string' ? `${body.message} (code ${String(body.code)})` : '';
  } catch {
    return '';
  }
}
