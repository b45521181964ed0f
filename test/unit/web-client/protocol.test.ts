import { describe, expect, it } from 'vitest';
import { dtmfMessage, hangupMessage, markMessage, parseServerMessage, sayMessage, startMessage } from '../../../web-client/src/protocol';

describe('parseServerMessage', () => {
  it.each([
    { type: 'started', call_id: 12, sample_rate: 16000, encoding: 'pcm_s16le' },
    { type: 'state', state: 'thinking' },
    { type: 'transcript', role: 'caller', text: 'Hi', final: false },
    { type: 'transcript', role: 'assistant', text: 'Sorry', final: true, interrupted: true },
    { type: 'latency', turn: 2, ms: 640.5 },
    { type: 'tool', name: 'book', arguments: { time: '10:00' }, status: 'error' },
    { type: 'tool', name: 'book', arguments: {}, status: 'ok', result: { id: 3 } },
    { type: 'ended', reason: 'assistant-ended-call' },
    { type: 'error', code: 'bad_token', message: 'Refused.' },
    { type: 'mark', name: 'm-1' },
    { type: 'clear' },
  ])('accepts $type', (message) => {
    expect(parseServerMessage(JSON.stringify(message))).toEqual(message);
  });

  it.each([
    ['not JSON', '{"type":'],
    ['not an object', '["clear"]'],
    ['null', 'null'],
    ['no type', '{"name":"m"}'],
    ['an unknown type', '{"type":"hello"}'],
    ['an inherited name as type', '{"type":"toString"}'],
    ['a fractional call id', '{"type":"started","call_id":1.5,"sample_rate":16000,"encoding":"pcm_s16le"}'],
    ['an unknown state', '{"type":"state","state":"sleeping"}'],
    ['a transcript without final', '{"type":"transcript","role":"caller","text":"Hi"}'],
    ['a transcript from a third party', '{"type":"transcript","role":"agent","text":"Hi","final":true}'],
    ['a string interrupted', '{"type":"transcript","role":"caller","text":"Hi","final":true,"interrupted":"yes"}'],
    ['a latency in text', '{"type":"latency","turn":1,"ms":"600"}'],
    ['tool arguments as a list', '{"type":"tool","name":"t","arguments":[],"status":"ok"}'],
    ['an unknown tool status', '{"type":"tool","name":"t","arguments":{},"status":"pending"}'],
    ['a mark without a name', '{"type":"mark"}'],
    ['an error without a code', '{"type":"error","message":"x"}'],
  ])('drops %s', (_case, text) => {
    expect(parseServerMessage(text)).toBeUndefined();
  });
});

describe('client messages', () => {
  it('builds each message', () => {
    expect(JSON.parse(startMessage('wc_1.2.abc'))).toEqual({ type: 'start', token: 'wc_1.2.abc' });
    expect(JSON.parse(sayMessage('Hello'))).toEqual({ type: 'say', text: 'Hello' });
    expect(JSON.parse(dtmfMessage('0123456789*#'))).toEqual({ type: 'dtmf', digits: '0123456789*#' });
    expect(JSON.parse(markMessage('m "1"'))).toEqual({ type: 'mark', name: 'm "1"' });
    expect(JSON.parse(hangupMessage())).toEqual({ type: 'hangup' });
  });

  it('takes typed speech of 1 to 500 characters', () => {
    expect(() => sayMessage('x'.repeat(500))).not.toThrow();
    expect(() => sayMessage('')).toThrow(RangeError);
    expect(() => sayMessage('x'.repeat(501))).toThrow(RangeError);
  });

  it.each(['', '12a', '1 2', '#'.repeat(33), 'A'])('refuses the digits %j', (digits) => {
    expect(() => dtmfMessage(digits)).toThrow(RangeError);
  });
});
