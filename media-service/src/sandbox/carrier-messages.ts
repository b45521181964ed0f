import { randomBytes } from 'node:crypto';
import { E164_PATTERN } from '../../../shared/domain/phone-number';
import type { ServerResponse } from 'node:http';
import { rfc2822, sendJson, sendTwilioError, type TwilioErrorAnswer } from './carrier-rest';
import { sendSigned } from './carrier-callbacks';

/** A text the sandbox carrier accepted, as tests and `GET /sandbox/messages` see it. */
export interface SandboxMessageRecord {
  sid: string;
  accountSid: string;
  from: string;
  messagingServiceSid: string | null;
  to: string;
  body: string;
  numMedia: number;
  /** GSM-7 or UCS-2, and the segments the body takes in it. */
  encoding: 'GSM-7' | 'UCS-2';
  numSegments: number;
  /** `queued` when accepted; `sent` then `delivered` right after (the sandbox delivers every text). */
  status: 'queued' | 'sent' | 'delivered';
  createdAt: Date;
  statusCallback?: string;
  /** HTTP status (or error) of each status callback posted, in order. */
  callbacks: { status: string; httpStatus?: number; error?: string }[];
}

/** Twilio's limit on a text's body (error 21617 above it). */
export const MAX_SMS_BODY_CHARS = 1600;

// GSM 03.38: the basic set (one septet each) and the extension table (escape + one: two septets).
const GSM_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
const GSM_EXTENDED = new Set('^{}\\[~]|€\f');

/**
 * How many segments a body takes: GSM-7 when every character is in the GSM 03.38 tables (160
 * septets in one segment, 153 per segment when split), else UCS-2 (70 code units, 67 when split).
 */
export function smsSegments(body: string): { encoding: 'GSM-7' | 'UCS-2'; segments: number } {
  let septets = 0;
  for (const char of body) {
    if (GSM_BASIC.has(char)) septets += 1;
    else if (GSM_EXTENDED.has(char)) septets += 2;
    else {
      const units = body.length;
      return { encoding: 'UCS-2', segments: units <= 70 ? 1 : Math.ceil(units / 67) };
    }
  }
  return { encoding: 'GSM-7', segments: septets <= 160 ? 1 : Math.ceil(septets / 153) };
}

const error = (status: number, code: number, message: string): TwilioErrorAnswer => ({ status, code, message });

/** Options of {@link SandboxMessages}. */
export interface SandboxMessagesOptions {
  accountSid: string;
  /** Signs the status callbacks (X-Twilio-Signature), like Twilio with the account's token. */
  authToken: string;
  /** The oldest texts are forgotten beyond this many (default 1000). */
  keep?: number;
  callbackTimeoutMs?: number;
}

/**
 * The carrier's Messages: accepts a create-message form as Twilio does (docs: Twilio Messages
 * resource), keeps each text (the last `keep`), and delivers it at once: `sent` then `delivered`,
 * with signed status callbacks when the form named a `StatusCallback`.
 */
export class SandboxMessages {
  readonly #options: SandboxMessagesOptions;
  readonly #messages: SandboxMessageRecord[] = [];

  constructor(options: SandboxMessagesOptions) {
    this.#options = options;
  }

  /** A create-message form → the accepted text, or the Twilio error to answer. */
  create(form: URLSearchParams): SandboxMessageRecord | TwilioErrorAnswer {
    const to = form.get('To') ?? '';
    const from = form.get('From') ?? '';
    const service = form.get('MessagingServiceSid') ?? '';
    const body = form.get('Body') ?? '';
    const media = form.getAll('MediaUrl');
    if (to === '') return error(400, 21604, "A 'To' phone number is required.");
    if (!E164_PATTERN.test(to)) return error(400, 21211, `The 'To' number ${to.slice(0, 40)} is not a valid phone number.`);
    if (from === '' && service === '') return error(400, 21603, "A 'From' phone number is required.");
    if (from !== '' && !E164_PATTERN.test(from))
      return error(400, 21212, `The 'From' number ${from.slice(0, 40)} is not a valid phone number.`);
    if (body === '' && media.length === 0 && !form.get('ContentSid')) return error(400, 21602, 'Message body is required.');
    if (body.length > MAX_SMS_BODY_CHARS)
      return error(400, 21617, `The concatenated message body exceeds the ${MAX_SMS_BODY_CHARS} character limit.`);
    if (media.length > 10) return error(400, 21623, 'Too many media URLs: at most 10.');
    const { encoding, segments } = smsSegments(body);
    const statusCallback = form.get('StatusCallback') ?? undefined;
    const record: SandboxMessageRecord = {
      sid: `SM${randomBytes(16).toString('hex')}`,
      accountSid: this.#options.accountSid,
      from,
      messagingServiceSid: service || null,
      to,
      body,
      numMedia: media.length,
      encoding,
      numSegments: segments,
      status: 'queued',
      createdAt: new Date(),
      ...(statusCallback && { statusCallback }),
      callbacks: [],
    };
    this.#messages.push(record);
    if (this.#messages.length > (this.#options.keep ?? 1000)) this.#messages.shift();
    return record;
  }

  /** Moves an accepted text on to `sent` and `delivered`, posting each status when asked to. */
  async deliver(record: SandboxMessageRecord): Promise<void> {
    for (const status of ['sent', 'delivered'] as const) {
      record.status = status;
      if (!record.statusCallback) continue;
      try {
        const { response } = await sendSigned(
          this.#options.authToken,
          record.statusCallback,
          'POST',
          statusParams(record),
          this.#options.callbackTimeoutMs ?? 5000,
        );
        record.callbacks.push({ status, httpStatus: response.status });
      } catch (failure) {
        record.callbacks.push({ status, error: (failure as Error).name });
      }
    }
  }

  /** `POST …/Messages.json`: 201 with the text as Twilio returns it (then delivered), or Twilio's error. */
  answerCreate(form: URLSearchParams, res: ServerResponse): void {
    const message = this.create(form);
    if ('code' in message) return sendTwilioError(res, message.status, message.code, message.message);
    sendJson(res, 201, messageResource(message));
    void this.deliver(message);
  }

  /** `GET …/Messages/{sid}.json`. */
  answerFetch(messageSid: string, res: ServerResponse): void {
    const message = this.get(messageSid);
    if (!message) return sendTwilioError(res, 404, 20404, `The requested resource /Messages/${messageSid.slice(0, 40)}.json was not found`);
    sendJson(res, 200, messageResource(message));
  }

  /** `GET /sandbox/messages?to=&from=&limit=`: `{messages}`, oldest first, the last `limit` (1–100, default 50). */
  answerList(query: URLSearchParams, res: ServerResponse): void {
    const limit = Math.min(100, Math.max(1, Number(query.get('limit')) || 50));
    const filter = { to: query.get('to') ?? undefined, from: query.get('from') ?? undefined, limit };
    sendJson(res, 200, { messages: this.list(filter).map(sandboxMessageView) });
  }

  /** One text by sid. */
  get(sid: string): SandboxMessageRecord | undefined {
    return this.#messages.find((message) => message.sid === sid);
  }

  /** The texts kept, oldest first, optionally only those to or from a number; the last `limit`. */
  list(filter: { to?: string; from?: string; limit?: number } = {}): SandboxMessageRecord[] {
    const found = this.#messages.filter(
      (message) => (!filter.to || message.to === filter.to) && (!filter.from || message.from === filter.from),
    );
    return found.slice(-(filter.limit ?? found.length));
  }
}

function statusParams(record: SandboxMessageRecord): Record<string, string> {
  return {
    AccountSid: record.accountSid,
    ApiVersion: '2010-04-01',
    From: record.from,
    To: record.to,
    MessageSid: record.sid,
    SmsSid: record.sid,
    MessageStatus: record.status,
    SmsStatus: record.status,
    ...(record.messagingServiceSid && { MessagingServiceSid: record.messagingServiceSid }),
  };
}

/** The text as Twilio's REST API returns it (snake_case; counts as strings, dates RFC 2822). */
export function messageResource(record: SandboxMessageRecord): Record<string, unknown> {
  const uri = `/2010-04-01/Accounts/${record.accountSid}/Messages/${record.sid}`;
  return {
    sid: record.sid,
    account_sid: record.accountSid,
    messaging_service_sid: record.messagingServiceSid,
    from: record.from || null,
    to: record.to,
    body: record.body,
    status: record.status,
    direction: 'outbound-api',
    num_segments: String(record.numSegments),
    num_media: String(record.numMedia),
    price: null,
    price_unit: 'USD',
    error_code: null,
    error_message: null,
    api_version: '2010-04-01',
    date_created: rfc2822(record.createdAt),
    date_updated: rfc2822(record.createdAt),
    date_sent: record.status === 'queued' ? null : rfc2822(record.createdAt),
    uri: `${uri}.json`,
    subresource_uris: { media: `${uri}/Media.json` },
  };
}

/** A text for `GET /sandbox/messages`: the record, dates as ISO strings. */
export function sandboxMessageView(record: SandboxMessageRecord): Record<string, unknown> {
  return { ...record, createdAt: record.createdAt.toISOString() };
}
