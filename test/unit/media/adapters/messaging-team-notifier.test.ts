import { describe, expect, it } from 'vitest';
import { MessagingTeamNotifier, TEAM_SMS_MAX_CHARS } from '../../../../media-service/src/adapters/messaging-team-notifier';
import type { EmailSender, OutgoingEmail } from '../../../../media-service/src/ports/email-sender';
import type { OutgoingSms, SmsSender } from '../../../../media-service/src/ports/sms-sender';
import type { TeamNotice } from '../../../../media-service/src/ports/team-notifier';
import { ProviderError } from '../../../../shared/errors';
import { captureLogger } from '../../../support/capture-logger';

/** Senders that keep what they are given and refuse the recipients listed in `refuse`. */
function fakeSenders(refuse: string[] = []) {
  const emails: OutgoingEmail[] = [];
  const texts: OutgoingSms[] = [];
  const refused = (to: string) => refuse.includes(to);
  const email: EmailSender = {
    send: async (message) => {
      if (message.to.some(refused)) throw new ProviderError('ses', 'SES refused the email: MessageRejected', 400);
      emails.push(message);
      return { id: `email-${emails.length}` };
    },
  };
  const sms: SmsSender = {
    send: async (message) => {
      if (refused(message.to)) throw new ProviderError('twilio', 'Twilio answered 400', 400);
      texts.push(message);
      return { id: `SM${texts.length}`, status: 'queued' };
    },
  };
  return { email, sms, emails, texts };
}

const notice = (overrides: Partial<TeamNotice> = {}): TeamNotice => ({
  businessId: 1,
  callId: 2,
  messageId: 3,
  emails: ['desk@acme.test'],
  phones: ['+15550100901', '+15550100902'],
  fromNumber: '+15550100001',
  businessName: 'Acme Plumbing',
  subject: 'URGENT: Message from Jordan Lee',
  body: 'The boiler is leaking.',
  urgent: true,
  ...overrides,
});

describe('MessagingTeamNotifier', () => {
  it('emails every team address at once and texts each team phone from the business number, urgent first', async () => {
    // Arrange
    const senders = fakeSenders();
    const { log } = captureLogger();
    // Act
    const outcome = await new MessagingTeamNotifier({ ...senders, sandbox: true, log }).notify(notice(), AbortSignal.timeout(1000));
    // Assert
    expect(outcome).toEqual({ email: 'sent', sms: 'sent' });
    expect(senders.emails).toEqual([
      { to: ['desk@acme.test'], fromName: 'Acme Plumbing', subject: 'URGENT: Message from Jordan Lee', text: 'The boiler is leaking.' },
    ]);
    expect(senders.texts.map((text) => [text.from, text.to, text.body])).toEqual([
      ['+15550100001', '+15550100901', 'URGENT: Message from Jordan Lee: The boiler is leaking.'],
      ['+15550100001', '+15550100902', 'URGENT: Message from Jordan Lee: The boiler is leaking.'],
    ]);
  });

  it.each([
    ['nothing configured', { emails: [], phones: [] }, [], { email: 'none', sms: 'none' }],
    ['the email refused: the texts still go', {}, ['desk@acme.test'], { email: 'failed', sms: 'sent' }],
    ['one phone refused: the team is still texted', {}, ['+15550100901'], { email: 'sent', sms: 'sent' }],
    ['every phone refused', {}, ['+15550100901', '+15550100902'], { email: 'sent', sms: 'failed' }],
    [
      'every phone abroad (a premium-rate team phone is never texted)',
      { phones: ['+88213000000', '+447700900123'] },
      [],
      { email: 'sent', sms: 'failed' },
    ],
  ])('%s', async (_, overrides, refuse, expected) => {
    // Arrange
    const senders = fakeSenders(refuse);
    const { log, lines } = captureLogger();
    // Act
    const outcome = await new MessagingTeamNotifier({ ...senders, sandbox: true, log }).notify(
      notice(overrides),
      AbortSignal.timeout(1000),
    );
    // Assert: the outcome per channel; failures logged by ids and kind, never content or recipients
    expect(outcome).toEqual(expected);
    const failures = lines.filter((line) => line.message === 'team.notice.failed');
    expect(failures).toHaveLength(refuse.length);
    expect(JSON.stringify(lines)).not.toMatch(/boiler|Jordan|acme\.test|\+1555010090/);
  });

  it('texts only team phones the texting rule allows, logging how many were skipped (never which)', async () => {
    // Arrange
    const senders = fakeSenders();
    const { log, lines } = captureLogger();
    // Act
    const outcome = await new MessagingTeamNotifier({ ...senders, sandbox: true, log }).notify(
      notice({ phones: ['+88213000000', '+15550100901'] }),
      AbortSignal.timeout(1000),
    );
    // Assert
    expect(outcome.sms).toBe('sent');
    expect(senders.texts.map((text) => text.to)).toEqual(['+15550100901']);
    expect(lines.find((line) => line.message === 'team.notice.phones_refused')).toMatchObject({ fields: { skipped: 1 } });
    expect(JSON.stringify(lines)).not.toContain('88213000000');
  });

  it('judges real numbers by the real rule: a US line texts no +1-876 team phone unless the business adds JM', async () => {
    // Arrange
    const senders = fakeSenders();
    const { log } = captureLogger();
    const notifier = new MessagingTeamNotifier({ ...senders, sandbox: false, log });
    const usLine = { fromNumber: '+14155550100', phones: ['+18762345678', '+14155550142'] };
    // Act
    const home = await notifier.notify(notice(usLine), AbortSignal.timeout(1000));
    const widened = await notifier.notify(notice({ ...usLine, smsRegions: ['JM'] }), AbortSignal.timeout(1000));
    // Assert
    expect([home.sms, widened.sms]).toEqual(['sent', 'sent']);
    expect(senders.texts.map((text) => text.to)).toEqual(['+14155550142', '+18762345678', '+14155550142']);
  });

  it(`clips a team text to ${TEAM_SMS_MAX_CHARS} characters`, async () => {
    const senders = fakeSenders();
    const { log } = captureLogger();
    await new MessagingTeamNotifier({ ...senders, sandbox: true, log }).notify(
      notice({ body: 'x'.repeat(2000), phones: ['+15550100901'] }),
      AbortSignal.timeout(1000),
    );
    expect(senders.texts[0]!.body).toHaveLength(TEAM_SMS_MAX_CHARS);
    expect(senders.texts[0]!.body.endsWith('…')).toBe(true);
  });
});
