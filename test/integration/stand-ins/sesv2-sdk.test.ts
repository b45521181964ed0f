import { randomUUID } from 'node:crypto';
import {
  AlreadyExistsException,
  CreateEmailTemplateCommand,
  GetEmailTemplateCommand,
  NotFoundException,
  SendEmailCommand,
  SESv2Client,
} from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SesSandboxServer } from '../../../media-service/src/sandbox/ses-server';

/**
 * The SES stand-in answers the official `@aws-sdk/client-sesv2` as SES v2 does for templates:
 * sending with a template the account does not have is a 404 NotFoundException (the modeled
 * class), and a template created with CreateEmailTemplate is rendered with TemplateData.
 */

let ses: SesSandboxServer;

beforeAll(async () => {
  ses = await SesSandboxServer.start();
});

afterAll(async () => {
  await ses?.close();
});

const client = () =>
  new SESv2Client({
    region: 'us-east-1',
    endpoint: ses.endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });

const sendTemplated = (to: string, template: { TemplateName: string; TemplateData?: string }) =>
  client().send(
    new SendEmailCommand({
      FromEmailAddress: 'bookings@example.com',
      Destination: { ToAddresses: [to] },
      Content: { Template: template },
    }),
  );

describe('SES v2 templates against the stand-in', () => {
  it('sending with an unknown template: 404 NotFoundException, nothing sent', async () => {
    // Arrange
    const to = `${randomUUID()}@example.org`;
    // Act
    const error = await sendTemplated(to, { TemplateName: 'NoSuchTemplate', TemplateData: '{}' }).catch((e: unknown) => e);
    // Assert
    expect(error).toBeInstanceOf(NotFoundException);
    expect(error).toMatchObject({ name: 'NotFoundException', $fault: 'client', $metadata: { httpStatusCode: 404 } });
    expect(ses.emails({ to })).toEqual([]);
  });

  it('a created template is sent rendered with TemplateData, and read back with GetEmailTemplate', async () => {
    // Arrange
    const name = `Booking${randomUUID().slice(0, 8)}`;
    const to = `${randomUUID()}@example.org`;
    const content = { Subject: 'Booked: {{service}}', Text: 'Hi {{name}}, see you at {{time}}.', Html: '<p>Hi {{name}}</p>' };
    await client().send(new CreateEmailTemplateCommand({ TemplateName: name, TemplateContent: content }));
    // Act
    const sent = await sendTemplated(to, {
      TemplateName: name,
      TemplateData: JSON.stringify({ name: 'Ana', service: 'Cleaning', time: '3pm' }),
    });
    const read = await client().send(new GetEmailTemplateCommand({ TemplateName: name }));
    // Assert
    expect(sent.MessageId).toEqual(expect.any(String));
    expect(ses.emails({ to })).toEqual([
      expect.objectContaining({ subject: 'Booked: Cleaning', body: { text: 'Hi Ana, see you at 3pm.', html: '<p>Hi Ana</p>' } }),
    ]);
    expect(read).toMatchObject({ TemplateName: name, TemplateContent: content });
  });

  it('GetEmailTemplate of an unknown name is a 404 NotFoundException; creating a name twice is AlreadyExistsException', async () => {
    const name = `Twice${randomUUID().slice(0, 8)}`;
    await client().send(new CreateEmailTemplateCommand({ TemplateName: name, TemplateContent: { Subject: 's', Text: 't' } }));
    await expect(client().send(new GetEmailTemplateCommand({ TemplateName: 'Missing' }))).rejects.toBeInstanceOf(NotFoundException);
    await expect(
      client().send(new CreateEmailTemplateCommand({ TemplateName: name, TemplateContent: { Subject: 's', Text: 't' } })),
    ).rejects.toBeInstanceOf(AlreadyExistsException);
  });
});
