import { BadRequestException, MessageRejected, SendEmailCommand, SESv2Client, type SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SesEmail } from '../../../media-service/src/adapters/ses-email';
import { SesSandboxServer } from '../../../media-service/src/sandbox/ses-server';
import { ProviderError } from '../../../shared/errors';

/**
 * The local SES v2 stand-in, driven by the official @aws-sdk/client-sesv2 (so it speaks what the
 * SDK sends and parses, modeled error classes included), and our `SesEmail` adapter against it.
 */

const LOCAL = { accessKeyId: 'local', secretAccessKey: 'local' };
let ses: SesSandboxServer;

beforeAll(async () => {
  ses = await SesSandboxServer.start();
});

afterAll(async () => {
  await ses?.close();
});

const client = (maxAttempts = 3) => new SESv2Client({ region: 'us-east-1', endpoint: ses.endpoint, credentials: LOCAL, maxAttempts });
const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}@example.org`;
const simple = (to: string, extra: Partial<SendEmailCommandInput> = {}): SendEmailCommandInput => ({
  FromEmailAddress: 'Acme <assistant@mail.example.com>',
  Destination: { ToAddresses: [to] },
  Content: { Simple: { Subject: { Data: 'Your booking' }, Body: { Text: { Data: 'See you at 3pm.' } } } },
  ...extra,
});

describe('SES v2 stand-in, with the official SDK', () => {
  it('accepts SendEmail (text, attachment, reply-to): MessageId and request id back, the mail in GET /store', async () => {
    // Arrange
    const to = unique('caller');
    const ics = new TextEncoder().encode('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n');
    const input = simple(to, { ReplyToAddresses: ['desk@acme.test'] });
    input.Content!.Simple!.Attachments = [{ FileName: 'booking.ics', ContentType: 'text/calendar', RawContent: ics }];
    // Act
    const answer = await client().send(new SendEmailCommand(input));
    const store = (await (await fetch(`${ses.endpoint}/store`)).json()) as { emails: Record<string, unknown>[] };
    // Assert
    expect(answer.MessageId).toEqual(expect.any(String));
    expect(answer.$metadata.requestId).toEqual(expect.any(String));
    expect(store.emails.find((email) => email.messageId === answer.MessageId)).toEqual({
      messageId: answer.MessageId,
      from: 'Acme <assistant@mail.example.com>',
      replyTo: ['desk@acme.test'],
      destination: { to: [to], cc: [], bcc: [] },
      subject: 'Your booking',
      body: { text: 'See you at 3pm.' },
      attachments: [
        { filename: 'booking.ics', contentType: 'text/calendar', size: ics.length, content: Buffer.from(ics).toString('base64') },
      ],
      at: expect.any(Number),
    });
  });

  it('answers errors the SDK maps to its modeled classes (x-amzn-ErrorType, __type)', async () => {
    // Arrange
    ses.failNext({ type: 'MessageRejected', status: 400, message: 'Email address is not verified.' });
    // Act
    const rejected = await client(1)
      .send(new SendEmailCommand(simple(unique('a'))))
      .catch((e: unknown) => e);
    const noRecipient = await client(1)
      .send(new SendEmailCommand(simple(unique('b'), { Destination: { ToAddresses: [] } })))
      .catch((e: unknown) => e);
    // Assert
    expect(rejected).toBeInstanceOf(MessageRejected);
    expect(rejected).toMatchObject({ message: 'Email address is not verified.', $metadata: { httpStatusCode: 400 } });
    expect(noRecipient).toBeInstanceOf(BadRequestException);
  });

  it('throttling (429 TooManyRequestsException) is retried by the SDK', async () => {
    // Arrange
    const to = unique('retry');
    ses.failNext({ type: 'TooManyRequestsException', status: 429, message: 'Maximum sending rate exceeded.' });
    // Act
    const answer = await client(3).send(new SendEmailCommand(simple(to)));
    // Assert
    expect(answer.$metadata.attempts).toBe(2);
    expect(ses.emails({ to })).toHaveLength(1);
  });

  it('refuses a request without a SigV4 Authorization header (403)', async () => {
    const response = await fetch(`${ses.endpoint}/v2/email/outbound-emails`, {
      method: 'POST',
      body: JSON.stringify(simple('x@example.org')),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('x-amzn-errortype')).toBe('MissingAuthenticationTokenException');
  });
});

describe('SesEmail', () => {
  const sender = (maxAttempts = 2) =>
    new SesEmail({
      region: 'us-east-1',
      endpoint: ses.endpoint,
      credentials: LOCAL,
      fromAddress: 'assistant@mail.example.com',
      maxAttempts,
    });
  const signal = () => AbortSignal.timeout(5000);

  it.each([
    ['Acme Plumbing', '"Acme Plumbing" <assistant@mail.example.com>'],
    ['Dr. "Bob" Smith', '"Dr. \\"Bob\\" Smith" <assistant@mail.example.com>'],
    ['Clínica Sonrisa', '=?UTF-8?B?Q2zDrW5pY2EgU29ucmlzYQ==?= <assistant@mail.example.com>'],
  ])('sends as %s, replies to the team, subject on one line', async (name, from) => {
    // Arrange
    const to = unique('caller');
    // Act
    const sent = await sender().send(
      { to: [to], fromName: name, replyTo: 'desk@acme.test', subject: 'Your\nbooking', text: 'See you at 3pm.' },
      signal(),
    );
    // Assert
    expect(ses.emails({ to })).toEqual([
      expect.objectContaining({
        messageId: sent.id,
        from,
        replyTo: ['desk@acme.test'],
        subject: 'Your booking',
        body: { text: 'See you at 3pm.' },
      }),
    ]);
  });

  it('a refusal is a ProviderError naming SES’s code only: 400, not retryable', async () => {
    ses.failNext({ type: 'MessageRejected', status: 400, message: 'Email address is not verified.' });
    const error = await sender()
      .send({ to: [unique('c')], subject: 'private subject', text: 'private words' }, signal())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: 'ses', statusCode: 400, retryable: false, message: 'SES refused the email: MessageRejected' });
  });

  it('throttled on every attempt: a retryable ProviderError after maxAttempts', async () => {
    ses.failNext({ type: 'TooManyRequestsException', status: 429, message: 'Maximum sending rate exceeded.' }, 2);
    const error = await sender(2)
      .send({ to: [unique('d')], subject: 's', text: 't' }, signal())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 429, retryable: true });
  });

  it('an aborted send is a ProviderError, and nothing is sent', async () => {
    const to = unique('e');
    const error = await sender()
      .send({ to: [to], subject: 's', text: 't' }, AbortSignal.abort())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(ses.emails({ to })).toEqual([]);
  });
});
