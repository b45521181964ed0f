import { describe, expect, it } from 'vitest';
import type { OutgoingSms } from '../../../../media-service/src/ports/sms-sender';
import { CallAllowance } from '../../../../media-service/src/tools/call-allowance';
import { sendSms } from '../../../../media-service/src/tools/send-sms';
import type { ToolPorts } from '../../../../media-service/src/tools/tool-types';
import { defaultBusinessProfile } from '../../../../shared/domain/business-profile';
import { ProviderError } from '../../../../shared/errors';
import { runnerForTools } from '../../../support/tool-runner';

/** One call's runner with `send_sms` over a carrier that answers `outcomes` in turn (then accepts). */
function call(options: { partyNumber?: string; outcomes?: (ProviderError | 'ok')[] } = {}) {
  const sent: OutgoingSms[] = [];
  const outcomes = [...(options.outcomes ?? [])];
  const allowance = new CallAllowance();
  const sms: ToolPorts['sms'] = {
    send: async (message) => {
      const outcome = outcomes.shift() ?? 'ok';
      if (outcome !== 'ok') throw outcome;
      sent.push(message);
      return { id: `SM${sent.length}`, status: 'queued' };
    },
  };
  const runner = runnerForTools(
    [sendSms],
    { sms },
    {
      allowance,
      profile: { ...defaultBusinessProfile(), display_name: 'Acme Plumbing' },
      ...(options.partyNumber && { partyNumber: options.partyNumber }),
    },
  );
  const text = async (body: string) =>
    JSON.parse(await runner.run({ name: 'send_sms', arguments: JSON.stringify({ body }) })) as Record<string, unknown>;
  return { text, sent, allowance };
}

describe('send_sms', () => {
  it('texts the caller’s own number from the business number, named, and says how many texts are left', async () => {
    const { text, sent } = call();
    expect(await text('Our address: 1 Main St')).toEqual({ sent: true, texts_left: 2 });
    expect(sent).toEqual([{ from: '+15550100001', to: '+14155550100', body: 'Acme Plumbing: Our address: 1 Main St' }]);
  });

  it('refuses in plain words when the caller id is withheld', async () => {
    const { text, sent } = call({ partyNumber: 'anonymous' });
    expect(await text('hi')).toEqual({
      error: "The caller's number is withheld, so no text can be sent. Offer to read the details out instead.",
    });
    expect(sent).toEqual([]);
  });

  it.each(['+447700900123', '+3531234567', '+88213000000', '+79161234567'])(
    'refuses a caller number the line does not text (%s: SMS pumping with a spoofed caller id)',
    async (abroad) => {
      const { text, sent } = call({ partyNumber: abroad });
      expect(await text('hi')).toEqual({
        error:
          "The caller's number is not one this line texts (another region, or not a mobile number), so no text can be sent. " +
          'Offer to read the details out instead.',
      });
      expect(sent).toEqual([]);
    },
  );

  it('refuses a body over 480 characters by field, without echoing it', async () => {
    const { text } = call();
    const answer = await text('x'.repeat(481));
    expect(answer.error).toMatch(/^The arguments were not valid \(body: /);
    expect(JSON.stringify(answer)).not.toContain('xxxx');
  });

  it.each([
    ['a refusal (400): nothing went out, the text is given back', new ProviderError('twilio', 'Twilio answered 400', 400), 3],
    ['a 5xx: it may have gone, the text stays spent', new ProviderError('twilio', 'Twilio answered 500', 500), 2],
    ['no answer (network): it may have gone, the text stays spent', new ProviderError('twilio', 'Twilio request failed'), 2],
  ])('%s', async (_, failure, left) => {
    const { text, allowance } = call({ outcomes: [failure] });
    expect(await text('hi')).toEqual({ error: sendSms.unavailable });
    expect(allowance.left('text')).toBe(left);
  });
});
