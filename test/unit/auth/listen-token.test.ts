import { describe, expect, it } from 'vitest';
import { hashListenToken, mintListenToken, parseListenToken } from '../../../shared/auth/listen-token';
import { hashWebCallToken, mintWebCallToken, parseWebCallToken } from '../../../shared/auth/web-call-token';
import { listenUrlFrom } from '../../../shared/domain/live-call';
import { startToken } from '../../../media-service/src/adapters/web-listen-socket';

const random = Uint8Array.from({ length: 32 }, (_, i) => i * 5 + 1);

describe('listen tokens', () => {
  it('mint wl_<call>.<business>.<secret> and parse back', () => {
    const token = mintListenToken(123, 45, random);
    expect(token).toBe(`wl_123.45.${Buffer.from(random).toString('base64url')}`);
    expect(parseListenToken(token)).toEqual({ callId: 123, businessId: 45 });
    expect(hashListenToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashListenToken(token)).toBe(hashWebCallToken(token));
  });

  it('never pass for web-call tokens, nor the other way round', () => {
    const listen = mintListenToken(1, 2, random);
    const web = mintWebCallToken(1, 2, random);
    expect(parseListenToken(web)).toBeUndefined();
    expect(parseWebCallToken(listen)).toBeUndefined();
  });

  it.each([
    '',
    'wl_1.2.short',
    `wl_1.2.${'A'.repeat(44)}`,
    `wl_x.2.${'A'.repeat(43)}`,
    `wl_${'9'.repeat(17)}.2.${'A'.repeat(43)}`,
    `wl_1.2.${'A'.repeat(42)}=`,
  ])('refuse %j', (token) => expect(parseListenToken(token)).toBeUndefined());

  it('refuse anything but 32 random bytes', () => {
    expect(() => mintListenToken(1, 2, new Uint8Array(31))).toThrow(RangeError);
  });
});

describe('listenUrlFrom', () => {
  it.each([
    ['ws://127.0.0.1:3001/web/calls', 'ws://127.0.0.1:3001/web/listen'],
    ['wss://media.example.com/web/calls', 'wss://media.example.com/web/listen'],
  ])('%s → %s', (webCallUrl, expected) => expect(listenUrlFrom(webCallUrl)).toBe(expected));

  it('is undefined for a URL that does not parse', () => expect(listenUrlFrom('not a url')).toBeUndefined());
});

describe("the listen socket's start message", () => {
  it.each([
    ['{"type":"start","token":"wl_1"}', 'wl_1'],
    ['{"type":"hangup"}', undefined],
    ['{"type":"start","token":5}', undefined],
    ['not json', undefined],
    ['null', undefined],
    [`{"type":"start","token":"${'a'.repeat(201)}"}`, undefined],
  ])('%s → %s', (text, token) => expect(startToken(text)).toBe(token));
});
