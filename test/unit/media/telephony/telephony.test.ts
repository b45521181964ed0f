import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signStreamToken, verifyStreamToken } from '../../../../media-service/src/telephony/stream-token';
import {
  connectStreamTwiml,
  dialTwiml,
  escapeXml,
  sayAndHangupTwiml,
  STREAM_ATTEMPTS,
} from '../../../../media-service/src/telephony/twiml';
import { isValidTwilioSignature, twilioSignature } from '../../../../media-service/src/telephony/twilio-signature';

const token = '12345';
const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const params = { CallSid: 'CA1234567890ABCDE', Caller: '+12349013030', Digits: '1234', From: '+12349013030', To: '+18005551212' };

describe('X-Twilio-Signature', () => {
  it('is base64 HMAC-SHA1 of the URL followed by the sorted keys and values', () => {
    // Arrange: the documented algorithm, spelled out by hand
    const data = `${url}CallSidCA1234567890ABCDECaller+12349013030Digits1234From+12349013030To+18005551212`;
    const expected = createHmac('sha1', token).update(data).digest('base64');
    // Act / Assert
    expect(twilioSignature(token, url, params)).toBe(expected);
  });

  it('de-duplicates and sorts repeated fields', () => {
    // Arrange
    const data = `${url}StatusCallbackEventansweredStatusCallbackEventcompletedStatusCallbackEventinitiated`;
    // Act / Assert
    expect(twilioSignature(token, url, { StatusCallbackEvent: ['initiated', 'completed', 'answered', 'completed'] })).toBe(
      createHmac('sha1', token).update(data).digest('base64'),
    );
  });

  it.each([
    ['the exact URL', url, url, true],
    ['the URL signed with an explicit :443', 'https://mycompany.com:443/myapp.php?foo=1&bar=2', url, true],
    ['a different path', 'https://mycompany.com/other.php?foo=1&bar=2', url, false],
    ['another host', 'https://evil.example/myapp.php?foo=1&bar=2', url, false],
  ])('accepts only matching URLs: %s', (_case, signedUrl, checkedUrl, valid) => {
    // Arrange
    const signature = twilioSignature(token, signedUrl, params);
    // Act / Assert
    expect(isValidTwilioSignature(token, signature, checkedUrl, params)).toBe(valid);
  });

  it('refuses a missing signature, a changed parameter or the wrong token', () => {
    // Arrange
    const signature = twilioSignature(token, url, params);
    // Act / Assert
    expect(isValidTwilioSignature(token, undefined, url, params)).toBe(false);
    expect(isValidTwilioSignature(token, signature, url, { ...params, To: '+18005550000' })).toBe(false);
    expect(isValidTwilioSignature('other-token', signature, url, params)).toBe(false);
  });

  it('validates a media WebSocket upgrade with the wss URL and no params', () => {
    // Arrange
    const wss = 'wss://media.example.com/twilio/media';
    // Act / Assert
    expect(isValidTwilioSignature(token, twilioSignature(token, wss), wss)).toBe(true);
  });
});

describe('TwiML', () => {
  it('carries stream parameters as <Parameter> children with escaping', () => {
    // Act
    const xml = connectStreamTwiml('wss://media.example.com/twilio/media', { callId: '42', token: 'a&b"c' }, 1);
    // Assert
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Connect><Stream url="wss://media.example.com/twilio/media">' +
        '<Parameter name="callId" value="42"/><Parameter name="token" value="a&amp;b&quot;c"/></Stream></Connect></Response>',
    );
  });

  it('opens the stream STREAM_ATTEMPTS times, so a refusal at a full task runs the next <Connect> elsewhere', () => {
    // Act
    const xml = connectStreamTwiml('wss://media.example.com/twilio/media', { call_id: '7' });
    // Assert
    const connect = '<Connect><Stream url="wss://media.example.com/twilio/media"><Parameter name="call_id" value="7"/></Stream></Connect>';
    expect(STREAM_ATTEMPTS).toBe(3);
    expect(xml).toBe(`<?xml version="1.0" encoding="UTF-8"?><Response>${connect.repeat(3)}</Response>`);
  });

  it('escapes spoken text and dial targets', () => {
    // Act / Assert
    expect(escapeXml(`<&>"'`)).toBe('&lt;&amp;&gt;&quot;&apos;');
    expect(sayAndHangupTwiml('Sorry <all> lines')).toContain('<Say>Sorry &lt;all&gt; lines</Say><Hangup/>');
    expect(dialTwiml('+15550100999', '+15550100001')).toContain('<Dial callerId="+15550100001">+15550100999</Dial>');
  });
});

describe('stream token', () => {
  const secret = 'stream-secret';
  const claims = { callId: 42, businessId: 7, expiresAt: 1_000_000 };

  it('round-trips valid claims', () => {
    expect(verifyStreamToken(secret, signStreamToken(secret, claims), 999_999)).toEqual(claims);
  });

  it.each([
    ['expired', signStreamToken(secret, claims), 1_000_000],
    ['tampered call id', signStreamToken(secret, claims).replace(/^42/, '43'), 0],
    ['signed with another secret', signStreamToken('other', claims), 0],
    ['garbage', 'not-a-token', 0],
    ['empty', '', 0],
  ])('refuses a %s token', (_case, value, now) => {
    expect(verifyStreamToken(secret, value, now)).toBeUndefined();
  });
});
