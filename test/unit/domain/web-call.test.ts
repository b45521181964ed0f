import { describe, expect, it } from 'vitest';
import { defaultBusinessProfile } from '../../../shared/domain/business-profile';
import { applyBusinessPatch } from '../../../shared/domain/business-settings';
import { normalizeOrigin, parseCreateWebCallBody } from '../../../shared/domain/web-call';
import { ValidationError, type ValidationItem } from '../../../shared/errors';
import { TEXTING_RULES } from '../../../shared/phone/texting';

function caught(act: () => unknown): ValidationItem[] {
  try {
    act();
  } catch (error) {
    if (error instanceof ValidationError) return error.items;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

const patch = (body: unknown) => applyBusinessPatch(defaultBusinessProfile(), body, ['US'], TEXTING_RULES).profile;

describe('normalizeOrigin', () => {
  it.each([
    ['https://shop.example.com', 'https://shop.example.com'],
    ['http://localhost:8080', 'http://localhost:8080'],
    ['HTTPS://Shop.EXAMPLE.com', 'https://shop.example.com'],
    ['https://shop.example.com:443', 'https://shop.example.com'],
    ['http://shop.example.com:80', 'http://shop.example.com'],
    ['http://shop.example.com:443', 'http://shop.example.com:443'],
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
    ['https://xn--bcher-kva.example', 'https://xn--bcher-kva.example'],
    ['https://shop.example.com/', 'https://shop.example.com'],
  ])('keeps %s as %s', (input, origin) => {
    // Arrange / Act / Assert
    expect(normalizeOrigin(input)).toEqual({ origin });
  });

  it.each([
    ['shop.example.com', 'not an origin'],
    ['ftp://shop.example.com', 'scheme must be http or https'],
    ['wss://shop.example.com', 'scheme must be http or https'],
    ['https://shop.example.com/page', 'no path'],
    ['https://shop.example.com?x=1', 'no path, query'],
    ['https://shop.example.com#top', 'fragment'],
    ['https://user:pw@shop.example.com', 'no user name or password'],
    ['https://*.example.com', 'domain name or an IP address'],
    ['https://', 'domain name or an IP address'],
    ['https://-bad.example', 'domain name or an IP address'],
    ['https://shop.example.com:0', 'port must be 1 to 65535'],
    ['https://shop.example.com:65536', 'port must be 1 to 65535'],
    ['https://shop.example.com:', 'domain name or an IP address'],
  ])('refuses %s (%s)', (input, words) => {
    // Arrange / Act
    const result = normalizeOrigin(input);
    // Assert
    expect(result).toEqual({ error: expect.stringContaining(words) });
  });
});

describe('web_origins in PATCH /business', () => {
  it('defaults to [] and stores the origins normalised, duplicates removed in order', () => {
    // Arrange / Act
    const profile = patch({ web_origins: ['https://B.example.com', 'http://localhost:8080', 'https://b.example.com:443'] });
    // Assert
    expect(defaultBusinessProfile().web_origins).toEqual([]);
    expect(profile.web_origins).toEqual(['https://b.example.com', 'http://localhost:8080']);
  });

  it('keeps the stored list when the patch leaves it out, and [] clears it', () => {
    // Arrange
    const stored = { ...defaultBusinessProfile(), web_origins: ['https://a.example'] };
    // Act
    const kept = applyBusinessPatch(stored, { display_name: 'Acme' }, [], TEXTING_RULES).profile;
    const cleared = applyBusinessPatch(stored, { web_origins: [] }, [], TEXTING_RULES).profile;
    // Assert
    expect(kept.web_origins).toEqual(['https://a.example']);
    expect(cleared.web_origins).toEqual([]);
  });

  it('refuses each bad entry with a 422 item at its index', () => {
    // Arrange / Act
    const items = caught(() => patch({ web_origins: ['https://ok.example', 'https://ok.example/path', 'ftp://x.example'] }));
    // Assert
    expect(items).toEqual([
      {
        loc: ['body', 'web_origins', 1],
        msg: 'Value error, an origin has no path, query or fragment',
        type: 'value_error',
        input: 'https://ok.example/path',
        ctx: { error: 'an origin has no path, query or fragment' },
      },
      {
        loc: ['body', 'web_origins', 2],
        msg: 'Value error, the scheme must be http or https',
        type: 'value_error',
        input: 'ftp://x.example',
        ctx: { error: 'the scheme must be http or https' },
      },
    ]);
  });

  it('refuses more than 20 origins, an entry over 200 characters and a non-string', () => {
    // Arrange
    const many = Array.from({ length: 21 }, (_, i) => `https://s${i}.example`);
    const long = `https://${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.example`; // 207 characters
    // Act / Assert
    expect(caught(() => patch({ web_origins: many })).map((item) => [item.loc, item.type])).toEqual([
      [['body', 'web_origins'], 'too_long'],
    ]);
    expect(caught(() => patch({ web_origins: [long] })).map((item) => [item.loc, item.type])).toEqual([
      [['body', 'web_origins', 0], 'string_too_long'],
    ]);
    expect(caught(() => patch({ web_origins: [42] })).map((item) => item.loc)).toEqual([['body', 'web_origins', 0]]);
  });
});

describe('parseCreateWebCallBody', () => {
  it('defaults variables to {} and refuses unknown fields and bad variables as POST /calls does', () => {
    // Arrange / Act
    const parsed = parseCreateWebCallBody({ assistant_id: 7 });
    const items = caught(() => parseCreateWebCallBody({ assistant_id: 0, to: '+14155550123', variables: { name: 5 } }));
    // Assert
    expect(parsed).toEqual({ assistant_id: 7, variables: {} });
    expect(items.map((item) => item.loc)).toEqual(
      expect.arrayContaining([
        ['body', 'assistant_id'],
        ['body', 'to'],
        ['body', 'variables', 'name'],
      ]),
    );
  });
});
