import { SendEmailCommand, SESv2Client, SESv2ServiceException, type SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { isRetryableStatus, ProviderError } from '../../../shared/errors';
import type { EmailSender, OutgoingEmail, SentEmail } from '../ports/email-sender';

/** Construction options for {@link SesEmail}. */
export interface SesEmailOptions {
  region: string;
  /** The platform's verified sender address (infra: `EMAIL_FROM_ADDRESS`, on the stage's SES identity). */
  fromAddress: string;
  /** The local SES stand-in; unset in AWS (the regional endpoint). */
  endpoint?: string;
  /** Only with `endpoint` (the stand-in checks none); in AWS the task role's credentials. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Per attempt; default 5 s (SES answers SendEmail in ~100–300 ms). */
  timeoutMs?: number;
  /** The SDK's attempts, the first included; default 2 (its standard retry: throttling, 5xx, network). */
  maxAttempts?: number;
}

/**
 * Email through Amazon SES v2 `SendEmail` (simple content: a text body and attachments), from the
 * platform's verified address with the business's name shown as the sender, replies to the team.
 * The SDK retries throttling and 5xx within `maxAttempts`, each attempt bounded by `timeoutMs`,
 * and the whole send by the caller's signal. Every failure becomes a `ProviderError('ses', …)`
 * naming SES's error code only (never the content).
 *
 * @example
 * ```ts
 * const email = new SesEmail({ region: 'us-east-1', fromAddress: 'assistant@mail.example.com' });
 * const { id } = await email.send({ to: ['caller@example.org'], fromName: 'Acme', subject: 'Your booking', text: '…' }, signal);
 * ```
 */
export class SesEmail implements EmailSender {
  readonly #client: SESv2Client;
  readonly #from: string;

  constructor(options: SesEmailOptions) {
    const timeoutMs = options.timeoutMs ?? 5000;
    this.#client = new SESv2Client({
      region: options.region,
      maxAttempts: options.maxAttempts ?? 2,
      requestHandler: { requestTimeout: timeoutMs, connectionTimeout: Math.min(timeoutMs, 2000) },
      ...(options.endpoint && { endpoint: options.endpoint }),
      ...(options.credentials && { credentials: options.credentials }),
    });
    this.#from = options.fromAddress;
  }

  async send(email: OutgoingEmail, signal: AbortSignal): Promise<SentEmail> {
    try {
      const answer = await this.#client.send(new SendEmailCommand(this.#input(email)), { abortSignal: signal });
      if (!answer.MessageId) throw new ProviderError('ses', 'SES answered without a MessageId', 502);
      return { id: answer.MessageId };
    } catch (error) {
      throw asProviderError(error);
    }
  }

  #input(email: OutgoingEmail): SendEmailCommandInput {
    const utf8 = (data: string) => ({ Data: data, Charset: 'UTF-8' });
    return {
      FromEmailAddress: email.fromName ? `${displayName(email.fromName)} <${this.#from}>` : this.#from,
      Destination: { ToAddresses: [...email.to] },
      ...(email.replyTo && { ReplyToAddresses: [email.replyTo] }),
      Content: {
        Simple: {
          Subject: utf8(oneLine(email.subject)),
          Body: { Text: utf8(email.text) },
          ...(email.attachments?.length && {
            Attachments: email.attachments.map((file) => ({
              FileName: oneLine(file.filename),
              ContentType: file.contentType,
              RawContent: file.content,
              ContentDisposition: 'ATTACHMENT' as const,
            })),
          }),
        },
      },
    };
  }
}

const THROTTLING = new Set(['TooManyRequestsException', 'LimitExceededException']);

const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim();

/**
 * A display name safe in the From header: printable ASCII as a quoted string (quotes and
 * backslashes escaped), anything else as an RFC 2047 encoded word, which SES requires for
 * non-ASCII names.
 */
export function displayName(name: string): string {
  const clean = oneLine(name).slice(0, 100);
  if (/^[\x20-\x7e]*$/.test(clean)) return `"${clean.replace(/["\\]/g, '\\$&')}"`;
  return `=?UTF-8?B?${Buffer.from(clean, 'utf8').toString('base64')}?=`;
}

/** SES's error (its code and HTTP status), an abort or a network failure, as a `ProviderError`. */
function asProviderError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof SESv2ServiceException) {
    const status = error.$metadata.httpStatusCode;
    // Throttling (the SDK counts LimitExceeded as such) and 5xx are worth another try; other 4xx are refusals.
    const retryable = THROTTLING.has(error.name) || isRetryableStatus(status);
    return new ProviderError('ses', `SES refused the email: ${error.name}`, status, { cause: error, retryable });
  }
  const name = error instanceof Error ? error.name : 'Error';
  return new ProviderError('ses', `SES request failed: ${name}`, undefined, { cause: error });
}
