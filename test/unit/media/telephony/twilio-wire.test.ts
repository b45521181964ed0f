import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseTwilioAmdCallback, parseTwilioStatusCallback } from '../../../../media-service/src/adapters/twilio-telephony';
import {
  mediaMessage,
  parseServerMessage,
  parseTwilioMessage,
  toBase64,
} from '../../../../media-service/src/telephony/media-stream-messages';
import { isValidTwilioSignatureWithBody, twilioSignature } from '../../../../media-service/src/telephony/twilio-signature';

describe('parseTwilioStatusCallback', () => {
  it('reads status, duration, sequence number and SIP code', () => {
    // Act
    const update = parseTwilioStatusCallback({
      CallSid: 'CA1',
      CallStatus: 'completed',
      CallDuration: '42',
      SequenceNumber: '3',
      SipResponseCode: '200',
      Extra: 'x',
    });
    // Assert
    expect(update).toEqual({ callSid: 'CA1', status: 'completed', durationS: 42, sequenceNumber: 3, sipResponseCode: 200 });
  });

  it('leaves optional fields out when absent', () => {
    expect(parseTwilioStatusCallback({ CallSid: 'CA1', CallStatus: 'ringing' })).toEqual({ callSid: 'CA1', status: 'ringing' });
  });

  it.each([
    ['an unknown status', { CallSid: 'CA1', CallStatus: 'exploded' }],
    ['no call sid', { CallStatus: 'busy' }],
    ['a non-numeric duration', { CallSid: 'CA1', CallStatus: 'completed', CallDuration: '4s' }],
  ])('refuses %s', (_case, form) => {
    expect(parseTwilioStatusCallback(form as Record<string, string>)).toBeUndefined();
  });
});

describe('parseTwilioAmdCallback', () => {
  it('reads the verdict and detection time', () => {
    expect(parseTwilioAmdCallback({ CallSid: 'CA1', AnsweredBy: 'machine_end_beep', MachineDetectionDuration: '3100' })).toEqual({
      callSid: 'CA1',
      answeredBy: 'machine_end_beep',
      detectionMs: 3100,
    });
  });

  it('refuses an unknown verdict', () => {
    expect(parseTwilioAmdCallback({ CallSid: 'CA1', AnsweredBy: 'robot' })).toBeUndefined();
  });
});

describe('isValidTwilioSignatureWithBody', () => {
  const token = 'secret';
  const body = '{"StreamEvent":"stream-started"}';
  const url = `https://media.example.com/twilio/stream-status?bodySHA256=${createHash('sha256').update(body).digest('hex')}`;

  it('accepts a signed URL whose bodySHA256 matches the raw body', () => {
    expect(isValidTwilioSignatureWithBody(token, twilioSignature(token, url), url, body)).toBe(true);
  });

  it('refuses a changed body, a wrong signature or a missing hash', () => {
    const noHash = 'https://media.example.com/twilio/stream-status';
    expect(isValidTwilioSignatureWithBody(token, twilioSignature(token, url), url, `${body} `)).toBe(false);
    expect(isValidTwilioSignatureWithBody(token, twilioSignature('other', url), url, body)).toBe(false);
    expect(isValidTwilioSignatureWithBody(token, twilioSignature(token, noHash), noHash, body)).toBe(false);
  });
});

describe('media fast path and server messages', () => {
  it('accepts a well-formed media message without the schema and refuses a malformed one', () => {
    // Arrange
    const good = {
      event: 'media',
      sequenceNumber: '4',
      streamSid: 'MZ1',
      media: { track: 'inbound', chunk: '2', timestamp: '5', payload: 'AAA=' },
    };
    // Act / Assert
    expect(parseTwilioMessage(JSON.stringify(good))).toEqual(good);
    expect(parseTwilioMessage(JSON.stringify({ ...good, media: { payload: 'AAA=' } }))).toBeUndefined();
    expect(parseTwilioMessage(JSON.stringify({ ...good, sequenceNumber: 4 }))).toBeUndefined();
    expect(parseTwilioMessage('null')).toBeUndefined();
  });

  it('encodes a sub-view without copying its neighbours', () => {
    const whole = new Uint8Array([1, 2, 3, 4]);
    expect(toBase64(whole.subarray(1, 3))).toBe(Buffer.from([2, 3]).toString('base64'));
  });

  it('parses what our server sends (as the sandbox carrier reads it)', () => {
    // Act / Assert
    expect(parseServerMessage(mediaMessage('MZ1', new Uint8Array([0xff])))).toEqual({ event: 'media', streamSid: 'MZ1', payload: '/w==' });
    expect(parseServerMessage('{"event":"mark","streamSid":"MZ1","mark":{"name":"m"}}')).toEqual({
      event: 'mark',
      streamSid: 'MZ1',
      mark: { name: 'm' },
    });
    expect(parseServerMessage('{"event":"clear","streamSid":"MZ1"}')).toEqual({ event: 'clear', streamSid: 'MZ1' });
    expect(parseServerMessage('{"event":"media","streamSid":"MZ1","media":{}}')).toBeUndefined();
    expect(parseServerMessage('{"event":"dance","streamSid":"MZ1"}')).toBeUndefined();
    expect(parseServerMessage('{oops')).toBeUndefined();
  });
});
