import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessagingTeamNotifier } from '../../../media-service/src/adapters/messaging-team-notifier';
import { TwilioSms } from '../../../media-service/src/adapters/twilio-sms';
import { SandboxCarrier } from '../../../media-service/src/sandbox/carrier';
import { confirmBookingChange } from '../../../media-service/src/tools/booking-confirmation';
import { CallAllowance } from '../../../media-service/src/tools/call-allowance';
import { sendPaymentLink } from '../../../media-service/src/tools/send-payment-link';
import { sendSms } from '../../../media-service/src/tools/send-sms';
import type { ToolContext, ToolPorts } from '../../../media-service/src/tools/tool-types';
import { defaultAssistantConfig } from '../../../shared/domain/assistant-config';
import type { Booking } from '../../../shared/domain/booking';
import { defaultBusinessProfile, type BusinessProfile } from '../../../shared/domain/business-profile';
import { silentLogger } from '../../../shared/log';
import { createApiHarness, type ApiHarness } from '../../support/api-harness';
import { runnerForTools, unusedPorts } from '../../support/tool-runner';

/**
 * Attack suite, SMS pumping: a caller spoofing a number of another NANP region (+1-809 Dominican
 * Republic, +1-876 Jamaica, +1-284 British Virgin Islands) or a premium-rate one (+1-900) gets no
 * text from a US line, on any path that texts (send_sms, payment links, booking confirmations,
 * team notices), and a business cannot save such a team phone. Texts go to a real sandbox carrier
 * over loopback, NOT in sandbox mode: the real rule (docs/decisions.md "Texts by region and number type").
 */

/** A US line (415-555-01xx: fictional, yet a valid US number to libphonenumber). */
const US_LINE = '+14155550100';
const US_CALLER = '+14155550123';
const SPOOFED = [
  ['+18095550123', 'the Dominican Republic (+1-809)'],
  ['+18762345678', 'Jamaica (+1-876)'],
  ['+12845412345', 'the British Virgin Islands (+1-284)'],
  ['+19002345678', 'a premium-rate number (+1-900)'],
] as const;
const CANADIAN = '+16135550123';

let carrier: SandboxCarrier;
let sms: TwilioSms;
let harness: ApiHarness;

beforeAll(async () => {
  carrier = await SandboxCarrier.start({ log: silentLogger });
  sms = new TwilioSms({ accountSid: carrier.accountSid, authToken: carrier.authToken, baseUrl: carrier.baseUrl });
  harness = await createApiHarness();
});

afterAll(async () => {
  await carrier?.close();
});

/** What the carrier got for `to`: the texts that actually went out. */
const textsTo = (to: string) => carrier.messages({ to });

function profile(overrides: Partial<BusinessProfile> = {}): BusinessProfile {
  return { ...defaultBusinessProfile(), display_name: 'Acme Plumbing', ...overrides };
}

/** The real Twilio adapter to the carrier, real (not sandbox) texting rule. */
function ports(): Partial<ToolPorts> {
  return { sms, smsSandbox: false };
}

async function runTool(tool: typeof sendSms | typeof sendPaymentLink, args: object, caller: string, business = profile()) {
  const runner = runnerForTools([tool], ports(), { partyNumber: caller, businessNumber: US_LINE, profile: business });
  return JSON.parse(await runner.run({ name: tool.definition.name, arguments: JSON.stringify(args) })) as Record<string, unknown>;
}

describe.each(SPOOFED)('a caller presenting %s (%s) on a US line', (caller) => {
  it('gets no text from send_sms', async () => {
    const answer = await runTool(sendSms, { body: 'Our address: 1 Main St' }, caller);
    expect(answer.error).toMatch(/^The caller's number is not one this line texts/);
    expect(textsTo(caller)).toEqual([]);
  });

  it('gets no payment link (and no page is made)', async () => {
    const answer = await runTool(sendPaymentLink, { amount: 5, description: 'Deposit' }, caller);
    expect(answer.error).toMatch(/^The caller's number is not one this line texts/);
    expect(textsTo(caller)).toEqual([]);
  });

  it('gets no booking confirmation text (the booking stands)', async () => {
    const context: ToolContext = {
      businessId: 1,
      callId: 2,
      assistantId: 3,
      partyNumber: caller,
      businessNumber: US_LINE,
      allowance: new CallAllowance(),
      profile: profile(),
      config: { ...defaultAssistantConfig(), builtin: { ...defaultAssistantConfig().builtin, sms: true } },
      ports: { ...unusedPorts(), sms, smsSandbox: false },
      invocation: 1,
      knownBookings: new Set(),
      signal: AbortSignal.timeout(10_000),
    };
    const booking: Booking = {
      id: 7,
      call_id: 2,
      assistant_id: 3,
      service: 'Cleaning',
      start: '2026-12-04T10:00:00-05:00',
      end: '2026-12-04T10:30:00-05:00',
      timezone: 'America/New_York',
      name: 'Jordan Lee',
      phone: caller,
      email: null,
      notes: null,
      status: 'confirmed',
      created_at: '2026-11-29T03:00:00.000Z',
    };
    const { confirmation } = await confirmBookingChange(context, booking, 'booked');
    expect(confirmation.sms).toBe('not_possible');
    expect(textsTo(caller)).toEqual([]);
  });
});

describe('a US line texts its own region, and the regions the business adds', () => {
  it('texts a US caller', async () => {
    expect(await runTool(sendSms, { body: 'Our address: 1 Main St' }, US_CALLER)).toEqual({ sent: true, texts_left: 2 });
    expect(textsTo(US_CALLER).map((text) => text.from)).toContain(US_LINE);
  });

  it('refuses a Canadian caller by default, and texts one once the business adds CA to sms_regions', async () => {
    const refused = await runTool(sendSms, { body: 'hi' }, CANADIAN);
    expect(refused.error).toMatch(/not one this line texts/);
    const widened = await runTool(sendSms, { body: 'hi' }, CANADIAN, profile({ sms_regions: ['CA'] }));
    expect(widened).toEqual({ sent: true, texts_left: 2 });
    expect(textsTo(CANADIAN)).toHaveLength(1);
  });

  it('never texts +1-900 premium-rate, even with every NANP region added', async () => {
    const answer = await runTool(sendSms, { body: 'hi' }, '+19002345679', profile({ sms_regions: ['US', 'CA', 'DO', 'JM', 'VG'] }));
    expect(answer.error).toMatch(/not one this line texts/);
    expect(textsTo('+19002345679')).toEqual([]);
  });
});

describe('team notices', () => {
  const notice = (phones: string[], smsRegions: string[] = []) => ({
    businessId: 1,
    callId: 2,
    messageId: 3,
    emails: [],
    phones,
    fromNumber: US_LINE,
    smsRegions,
    businessName: 'Acme Plumbing',
    subject: 'Message from Jordan Lee',
    body: 'Call back.',
    urgent: false,
  });
  const team = '+14155550142';

  it('go to the US team phone only, never to +1-876, +1-284 or +1-900', async () => {
    const notifier = new MessagingTeamNotifier({ email: unusedPorts().email, sms, sandbox: false, log: silentLogger });
    const outcome = await notifier.notify(notice(['+18762345670', '+12845412340', '+19002345670', team]), AbortSignal.timeout(10_000));
    expect(outcome.sms).toBe('sent');
    expect(textsTo(team)).toHaveLength(1);
    for (const abroad of ['+18762345670', '+12845412340', '+19002345670']) expect(textsTo(abroad)).toEqual([]);
  });

  it('go to a Jamaican team phone once the business adds JM to sms_regions', async () => {
    const notifier = new MessagingTeamNotifier({ email: unusedPorts().email, sms, sandbox: false, log: silentLogger });
    const outcome = await notifier.notify(notice(['+18762345671'], ['JM']), AbortSignal.timeout(10_000));
    expect(outcome.sms).toBe('sent');
    expect(textsTo('+18762345671')).toHaveLength(1);
  });
});

describe('saving team_phones', () => {
  /** A business with one real (Twilio) US line: a random 415 number, unique across test files. */
  async function usBusiness() {
    const tenant = await harness.newTenant({ numbers: 0 });
    const number = `+1415${randomInt(2_000_000, 10_000_000)}`;
    await harness.admin.addNumber(tenant.businessId, { number, provider: 'twilio', assistantId: null, label: 'US line' });
    return tenant;
  }

  it('refuses a +1-876 team phone with a 422 naming the number at its index', async () => {
    const tenant = await usBusiness();
    const answer = await tenant.request('PATCH', '/business', { team_phones: ['+14155550142', '+18762345678'] });
    expect(answer.status).toBe(422);
    const body = (await answer.json()) as { detail: { loc: unknown[]; msg: string; input: unknown }[] };
    expect(body.detail).toEqual([
      expect.objectContaining({
        loc: ['body', 'team_phones', 1],
        input: '+18762345678',
        msg: expect.stringContaining('+18762345678 is a JM number'),
      }),
    ]);
    expect(((await (await tenant.request('GET', '/business')).json()) as BusinessProfile).team_phones).toEqual([]);
  });

  it.each([
    ['+19002345678', 'premium-rate'],
    ['+18002345678', 'toll-free'],
    ['+15550100002', 'not a phone number of any numbering plan'],
  ])('refuses %s (%s) whatever sms_regions says', async (phone, words) => {
    const tenant = await usBusiness();
    const answer = await tenant.request('PATCH', '/business', { team_phones: [phone], sms_regions: ['US', 'JM'] });
    expect(answer.status).toBe(422);
    const body = (await answer.json()) as { detail: { loc: unknown[]; msg: string }[] };
    expect(body.detail).toEqual([expect.objectContaining({ loc: ['body', 'team_phones', 0], msg: expect.stringContaining(words) })]);
  });

  it('accepts the +1-876 team phone once JM is in sms_regions, and refuses unknown region codes', async () => {
    const tenant = await usBusiness();
    const saved = await tenant.request('PATCH', '/business', { team_phones: ['+18762345678'], sms_regions: ['JM'] });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ team_phones: ['+18762345678'], sms_regions: ['JM'] });
    for (const codes of [['JM', 'XX'], ['jm']]) {
      const bad = await tenant.request('PATCH', '/business', { sms_regions: codes });
      expect(bad.status).toBe(422);
      const body = (await bad.json()) as { detail: { loc: unknown[] }[] };
      expect(body.detail.map((item) => item.loc)).toEqual([['body', 'sms_regions', codes.length - 1]]);
    }
  });
});
