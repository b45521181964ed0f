import { describe, expect, it } from 'vitest';
import {
  clearMessage,
  FRAME_BYTES,
  markMessage,
  mediaMessage,
  mediaMessageBytes,
  mediaMessageHead,
  MULAW_SILENCE,
  padToFrames,
  parseServerMessage,
  parseTwilioMessage,
} from '../../../../media-service/src/telephony/media-stream-messages';

describe('Twilio Media Streams messages', () => {
  it.each([
    ['connected', { event: 'connected', protocol: 'Call', version: '1.0.0' }],
    [
      'start',
      {
        event: 'start',
        sequenceNumber: '1',
        streamSid: 'MZ1',
        start: {
          accountSid: 'AC1',
          streamSid: 'MZ1',
          callSid: 'CA1',
          tracks: ['inbound'],
          customParameters: { callId: '42' },
          mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
        },
      },
    ],
    [
      'media',
      { event: 'media', sequenceNumber: '4', streamSid: 'MZ1', media: { track: 'inbound', chunk: '2', timestamp: '5', payload: 'AAEC' } },
    ],
    ['dtmf', { event: 'dtmf', sequenceNumber: '5', streamSid: 'MZ1', dtmf: { track: 'inbound_track', digit: '1' } }],
    ['mark', { event: 'mark', sequenceNumber: '6', streamSid: 'MZ1', mark: { name: 'r1-c2' } }],
    ['stop', { event: 'stop', sequenceNumber: '7', streamSid: 'MZ1', stop: { accountSid: 'AC1', callSid: 'CA1' } }],
  ])('parses the documented %s message', (event, message) => {
    expect(parseTwilioMessage(JSON.stringify(message))?.event).toBe(event);
  });

  it.each([
    ['malformed JSON', '{"event":'],
    ['an unknown event', '{"event":"teleport"}'],
    ['media without payload', '{"event":"media","sequenceNumber":"1","streamSid":"MZ","media":{"timestamp":"1"}}'],
    ['a mark without a name', '{"event":"mark","sequenceNumber":"6","streamSid":"MZ1","mark":{}}'],
    ['a mark whose name is not a string', '{"event":"mark","sequenceNumber":"6","streamSid":"MZ1","mark":{"name":7}}'],
    ['a mark without its stream', '{"event":"mark","sequenceNumber":"6","mark":{"name":"r1"}}'],
    ['a mark that is null', '{"event":"mark","sequenceNumber":"6","streamSid":"MZ1","mark":null}'],
    ['a JSON array', '[1,2]'],
  ])('drops %s without throwing', (_case, text) => {
    expect(parseTwilioMessage(text)).toBeUndefined();
  });

  it('builds media, mark and clear exactly as Twilio expects', () => {
    expect(JSON.parse(mediaMessage('MZ1', new Uint8Array([0, 1, 2])))).toEqual({
      event: 'media',
      streamSid: 'MZ1',
      media: { payload: 'AAEC' },
    });
    expect(JSON.parse(markMessage('MZ1', 'r1'))).toEqual({ event: 'mark', streamSid: 'MZ1', mark: { name: 'r1' } });
    expect(JSON.parse(clearMessage('MZ1'))).toEqual({ event: 'clear', streamSid: 'MZ1' });
  });

  it.each([
    ['a frame', 'MZ1', Uint8Array.from({ length: 160 }, (_, i) => (i * 37) & 0xff)],
    ['a short tail', 'MZ1', new Uint8Array([0xff, 0x7f])],
    ['a stream id JSON must escape', 'MZ"\\é', new Uint8Array([1, 2, 3])],
  ])('writes media bytes identical to the JSON message (%s)', (_case, sid, mulaw) => {
    // Arrange
    const head = mediaMessageHead(sid);
    // Act
    const bytes = mediaMessageBytes(head, mulaw);
    // Assert
    expect(bytes.toString('utf8')).toBe(mediaMessage(sid, mulaw));
    expect(parseServerMessage(bytes.toString('utf8'))).toEqual({
      event: 'media',
      streamSid: sid,
      payload: Buffer.from(mulaw).toString('base64'),
    });
  });

  it('pads the last partial frame with μ-law silence', () => {
    const padded = padToFrames(new Uint8Array(170).fill(1));
    expect(padded.length).toBe(2 * FRAME_BYTES);
    expect(padded[169]).toBe(1);
    expect(padded[170]).toBe(MULAW_SILENCE);
    expect(padToFrames(new Uint8Array(160)).length).toBe(160);
  });
});
