import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import { isValidTwilioSignature, twilioSignature, type TwilioParams } from '../../../../media-service/src/telephony/twilio-signature';

/**
 * Our X-Twilio-Signature check against the reference: the `twilio` package's `validateRequest`.
 * For each URL form a request may arrive at, signatures computed over the forms Twilio might have
 * signed (as given, with or without the port, normalised) must get the same verdict from both.
 */
const TOKEN = '12345678901234567890123456789012';
const reference = twilio as unknown as {
  validateRequest(token: string, signature: string, url: string, params: TwilioParams): boolean;
  getExpectedTwilioSignature(token: string, url: string, params: TwilioParams): string;
};

const URLS = [
  'https://media.example.com/twilio/voice',
  'https://media.example.com:443/twilio/voice',
  'https://media.example.com:8443/twilio/voice',
  'http://localhost:3001/twilio/voice',
  'http://localhost/twilio/voice',
  'http://localhost:80/twilio/voice',
  'https://media.example.com/twilio/status/1/2?attempt=1',
  "https://media.example.com/twilio/voice?name=O'Brien",
  'https://media.example.com/twilio/voice?name=O%27Brien',
  'https://media.example.com/twilio/voice?q=a+b',
  'https://media.example.com/twilio/voice?q=a%20b',
  'https://media.example.com/twilio/voice?city=Montréal',
  'https://media.example.com/twilio/voice?city=Montr%C3%A9al',
  'https://media.example.com/twilio/voice?a=1&a=2',
  'https://media.example.com/twilio/voice?a=',
  'https://media.example.com/twilio/voice?',
  'https://media.example.com/twilio/a%2Fb',
  'https://media.example.com/twilio/café',
  'https://[::1]:8443/twilio/voice',
  'http://[::1]/twilio/voice',
  'HTTPS://Media.Example.com/twilio/voice',
  'https://user:secret@media.example.com/twilio/voice',
  'https://media.example.com/twilio/voice?x=*~!()',
  'https://media.example.com/twilio/voice?a[]=1&a[]=2',
  'https://media.example.com:443/twilio/voice?name=O%27Brien&q=a+b',
];

const PARAMS: TwilioParams = { CallSid: 'CA123', From: '+14155550100', To: '+15550100001', Digits: ['2', '1', '2'] };

/** The forms a signature may have been made over: as given, port removed, port added, normalised. */
function signedForms(url: string): string[] {
  const normalized = new URL(url).toString();
  const withoutPort = url.replace(/^(\w+:\/\/(?:[^@/]*@)?(?:\[[^\]]*\]|[^:/?#]*)):\d+/, '$1');
  const withPort =
    withoutPort === url
      ? url.replace(/^(\w+:\/\/(?:[^@/]*@)?(?:\[[^\]]*\]|[^:/?#]*))/, (host) => `${host}:${/^https/i.test(url) ? 443 : 80}`)
      : url;
  return [...new Set([url, withoutPort, withPort, normalized])];
}

describe('X-Twilio-Signature: the same verdicts as the twilio package', () => {
  it.each(URLS)('%s', (url) => {
    for (const form of signedForms(url)) {
      for (const params of [PARAMS, {}]) {
        // Arrange
        const signature = reference.getExpectedTwilioSignature(TOKEN, form, params);
        // Act
        const ours = isValidTwilioSignature(TOKEN, signature, url, params);
        const theirs = reference.validateRequest(TOKEN, signature, url, params);
        // Assert
        expect(ours, `signed over ${form}`).toBe(theirs);
      }
    }
    expect(isValidTwilioSignature(TOKEN, 'forged', url, PARAMS)).toBe(reference.validateRequest(TOKEN, 'forged', url, PARAMS));
  });

  it('signs exactly as the reference does', () => {
    for (const url of URLS) expect(twilioSignature(TOKEN, url, PARAMS)).toBe(reference.getExpectedTwilioSignature(TOKEN, url, PARAMS));
  });
});
