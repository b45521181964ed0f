import { describe, expect, it } from 'vitest';
import type { OutgoingEmail } from '../../../../media-service/src/ports/email-sender';
import type { OutgoingSms } from '../../../../media-service/src/ports/sms-sender';
import { bookAppointment } from '../../../../media-service/src/tools/book-appointment';
import { CallAllowance } from '../../../../media-service/src/tools/call-allowance';
import type { ToolPorts } from '../../../../media-service/src/tools/tool-types';
import { defaultAssistantConfig } from '../../../../shared/domain/assistant-config';
import { defaultBusinessProfile } from '../../../../shared/domain/business-profile';
import { toBooking } from '../../../../shared/services/booking-service';
import { ProviderError } from '../../../../shared/errors';
import { bookingRecord } from '../../../support/booking-record';
import { runnerForTools, unusedPorts } from '../../../support/tool-runner';

/** One call that books with `book_appointment` over in-memory ports; texts and emails fail as told. */
function call(options: { sms: boolean; email?: string; smsFails?: boolean; allowance?: CallAllowance }) {
  const texts: OutgoingSms[] = [];
  const emails: OutgoingEmail[] = [];
  const stored = bookingRecord({ email: options.email ?? null });
  const ports: Partial<ToolPorts> = {
    bookings: {
      ...unusedPorts().bookings,
      book: async () => toBooking(stored),
      getRecord: async () => stored,
    },
    sms: {
      send: async (message) => {
        if (options.smsFails) throw new ProviderError('twilio', 'Twilio answered 503', 503);
        texts.push(message);
        return { id: 'SM1', status: 'queued' };
      },
    },
    email: { send: async (email) => (emails.push(email), { id: 'E1' }) },
    team: { notify: async () => ({ email: 'none', sms: 'none' }) },
  };
  const config = defaultAssistantConfig();
  const runner = runnerForTools([bookAppointment], ports, {
    config: { ...config, builtin: { ...config.builtin, sms: options.sms } },
    profile: { ...defaultBusinessProfile(), display_name: 'Acme Dental' },
    ...(options.allowance && { allowance: options.allowance }),
  });
  const args = { start: '2026-11-27T10:00', name: 'Sam Lee', ...(options.email && { email: options.email }) };
  const book = async () => JSON.parse(await runner.run({ name: 'book_appointment', arguments: JSON.stringify(args) }));
  return { book, texts, emails, runner };
}

describe('book_appointment confirmations', () => {
  it('texts the caller when sms is on, and says so', async () => {
    // Act
    const { book, texts, runner } = call({ sms: true });
    const answer = await book();
    // Assert
    expect(answer).toMatchObject({ booked: true, booking_id: 41, confirmation: { sms: 'sent', email: 'none', team: 'none' } });
    expect(answer.confirmation_note).toBe('A confirmation text was sent to the number the caller is calling from.');
    expect(texts).toEqual([
      {
        from: '+15550100001',
        to: '+14155550100',
        body: 'Acme Dental: Booking confirmed: Cleaning on Friday, November 27 at 10:00 AM (ref 41). To change it, call us back.',
      },
    ]);
    expect(runner.actions()[0]?.result).toBe('booking 41 confirmed; caller texted, no caller email, no team email or phone');
  });

  it('a failed text leaves the booking booked, and the model is told to say so honestly', async () => {
    // Act
    const { book } = call({ sms: true, smsFails: true });
    const answer = await book();
    // Assert
    expect(answer).toMatchObject({ booked: true, confirmation: { sms: 'failed', email: 'none' } });
    expect(answer.confirmation_note).toBe(
      'The confirmation text could not be sent. The booking stands all the same; tell the caller honestly what was not sent. ' +
        'Nothing in writing went to the caller: read the details out.',
    );
  });

  it('the call’s texts used up: no confirmation text (the per-call limit holds), still booked', async () => {
    // Arrange
    const allowance = new CallAllowance();
    while (allowance.take('text'));
    // Act
    const { book, texts } = call({ sms: true, allowance });
    const answer = await book();
    // Assert
    expect(answer).toMatchObject({ booked: true, confirmation: { sms: 'not_possible' } });
    expect(texts).toEqual([]);
  });

  it('emails an address the caller gave with an .ics REQUEST; an unusable address is not tried', async () => {
    // Act
    const good = call({ sms: false, email: 'sam@example.com' });
    const goodAnswer = await good.book();
    const bad = call({ sms: false, email: 'sam at example' });
    const badAnswer = await bad.book();
    // Assert
    expect(goodAnswer.confirmation).toEqual({ sms: 'off', email: 'sent', team: 'none' });
    const [email] = good.emails;
    expect(email).toMatchObject({ to: ['sam@example.com'], fromName: 'Acme Dental' });
    expect(email!.attachments![0]).toMatchObject({ filename: 'invite.ics', contentType: 'text/calendar; charset=utf-8; method=REQUEST' });
    expect(new TextDecoder().decode(email!.attachments![0]!.content)).toContain('\r\nMETHOD:REQUEST\r\n');
    expect(badAnswer.confirmation).toEqual({ sms: 'off', email: 'not_possible', team: 'none' });
    expect(bad.emails).toEqual([]);
  });
});
