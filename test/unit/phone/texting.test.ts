import { describe, expect, it } from 'vitest';
import { isSmsRegion, lineRegion, lineRegions, teamPhoneProblem, textRefusal, type TextingLine } from '../../../shared/phone/texting';

/** A real US line, judged by the real rule (not the sandbox). */
const US: TextingLine = { number: '+14155550100', regions: [], sandbox: false };

describe('textRefusal: a line texts mobile numbers of its own region (and sms_regions) only', () => {
  it.each([
    ['+14155550123', 'a US number'],
    ['+12125551234', 'another US area code'],
  ])('texts %s (%s) from a US line', (to) => {
    expect(textRefusal(to, US)).toBeNull();
  });

  it.each([
    ['+18095550123', 'DO'],
    ['+18762345678', 'JM'],
    ['+12845412345', 'VG'],
    ['+16135550123', 'CA'],
    ['+17875550123', 'PR'],
  ])('refuses %s, a %s number sharing calling code +1, from a US line', (to, region) => {
    expect(textRefusal(to, US)).toEqual({
      reason: 'region',
      detail: `${to} is a ${region} number; this line texts only US numbers.`,
    });
  });

  it.each([
    ['+19002345678', 'premium-rate'],
    ['+18002345678', 'toll-free'],
    ['+15005550006', 'personal (follow-me)'],
    ['+88213000000', 'VoIP'],
    ['+442079460958', 'landline'],
  ])('refuses %s, a %s number, whatever regions the business adds', (to, type) => {
    const refusal = textRefusal(to, { ...US, regions: ['US', 'GB'] });
    expect(refusal).toEqual({ reason: 'type', detail: `${to} is a ${type} number, and texts go to mobile numbers only.` });
  });

  it.each(['+15550100002', '+447700900123', '+3531234567', '+1234567890123'])('refuses %s, a number no plan knows', (to) => {
    expect(textRefusal(to, US)?.reason).toBe('unknown');
  });

  it('texts the regions a business adds with sms_regions', () => {
    const widened = { ...US, regions: ['CA', 'ES'] };
    expect(textRefusal('+16135550123', widened)).toBeNull();
    expect(textRefusal('+34600000001', widened)).toBeNull();
    expect(textRefusal('+18095550123', widened)?.detail).toBe('+18095550123 is a DO number; this line texts only US, CA, ES numbers.');
  });

  it('a line no plan knows texts nobody outside the sandbox', () => {
    expect(textRefusal('+14155550123', { ...US, number: '+15550100001' })?.reason).toBe('unknown');
  });
});

describe('the sandbox (SANDBOX_CARRIER): fictional numbers count as the line’s region, real ones keep the real rule', () => {
  const sandbox: TextingLine = { number: '+15550100001', regions: [], sandbox: true };

  it('reads a sandbox line as its calling code’s main region', () => {
    expect(lineRegion('+15550100001', true)).toBe('US');
    expect(lineRegion('+15550100001', false)).toBeUndefined();
    expect(lineRegion('+88213000000', true)).toBeUndefined();
    expect(
      lineRegions([
        { number: '+15550100001', provider: 'sandbox' },
        { number: '+15550100002', provider: 'twilio' },
      ]),
    ).toEqual(['US']);
  });

  it.each(['+15550100002', '+1234567890123', '+14155550123'])('texts %s (fictional, or US) from a sandbox line', (to) => {
    expect(textRefusal(to, sandbox)).toBeNull();
  });

  it.each(['+18095550123', '+19002345678', '+447700900123', '+34600000001'])('still refuses %s', (to) => {
    expect(textRefusal(to, sandbox)).not.toBeNull();
  });
});

describe('teamPhoneProblem and isSmsRegion (saving the profile)', () => {
  it('names the number and the way to widen', () => {
    expect(teamPhoneProblem('+18762345678', ['US'])).toBe(
      '+18762345678 is a JM number; this business texts only US numbers (add JM to sms_regions to text it).',
    );
    expect(teamPhoneProblem('+18762345678', ['US', 'JM'])).toBeNull();
    expect(teamPhoneProblem('+19002345678', ['US'])).toMatch(/premium-rate/);
  });

  it('checks only number and type while the business has no line of a known region', () => {
    expect(teamPhoneProblem('+34600000001', [])).toBeNull();
    expect(teamPhoneProblem('+15550100002', [])).toMatch(/not a phone number of any numbering plan/);
  });

  it.each([
    ['US', true],
    ['JM', true],
    ['us', false],
    ['XX', false],
    ['USA', false],
    ['001', false],
  ])('isSmsRegion(%s) is %s', (code, expected) => {
    expect(isSmsRegion(code)).toBe(expected);
  });
});
