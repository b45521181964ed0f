import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { luhnValid, redactDeep, redactText, ssnValid, type RedactKind } from '../../../shared/domain/redact';

const ALL: RedactKind[] = ['card', 'ssn', 'email', 'phone', 'dob'];

describe('luhnValid / ssnValid', () => {
  it.each([
    ['4111111111111111', true],
    ['5555555555554444', true],
    ['378282246310005', true],
    ['6011111111111117', true],
    ['4111111111111112', false],
    ['1234567812345678', false],
    ['', false],
  ])('luhn(%s) is %s', (digits, valid) => {
    expect(luhnValid(digits)).toBe(valid);
  });

  it.each([
    ['123', '45', '6789', true],
    ['000', '12', '3456', false],
    ['666', '12', '3456', false],
    ['900', '12', '3456', false],
    ['999', '12', '3456', false],
    ['123', '00', '4567', false],
    ['123', '45', '0000', false],
  ])('ssn %s-%s-%s is %s', (area, group, serial, valid) => {
    expect(ssnValid(area, group, serial)).toBe(valid);
  });
});

describe('redactText', () => {
  it.each<[string, RedactKind[], string, string]>([
    // card
    ['Visa with spaces', ['card'], 'Card 4111 1111 1111 1111 please', 'Card [card ending 1111] please'],
    ['Visa with dashes', ['card'], '4111-1111-1111-1111', '[card ending 1111]'],
    ['Visa contiguous', ['card'], 'number 4111111111111111.', 'number [card ending 1111].'],
    ['Mastercard', ['card'], '5555 5555 5555 4444', '[card ending 4444]'],
    ['Amex 4-6-5', ['card'], 'amex 3782 822463 10005 ok', 'amex [card ending 0005] ok'],
    ['Discover', ['card'], '6011 1111 1111 1117', '[card ending 1117]'],
    ['card then CVV', ['card'], '4111 1111 1111 1111 123', '[card ending 1111] 123'],
    ['Luhn-invalid (order number)', ['card'], 'order 4111 1111 1111 1112', 'order 4111 1111 1111 1112'],
    ['too short', ['card'], '411111111111', '411111111111'],
    ['too long', ['card'], '41111111111111111111', '41111111111111111111'],
    // ssn
    ['SSN dashed', ['ssn'], 'SSN 123-45-6789.', 'SSN [ssn].'],
    ['SSN spaced', ['ssn'], 'it is 123 45 6789', 'it is [ssn]'],
    ['SSN 9 digits', ['ssn'], 'it is 123456789', 'it is [ssn]'],
    ['SSN area 000', ['ssn'], '000-12-3456', '000-12-3456'],
    ['SSN area 666', ['ssn'], '666-12-3456', '666-12-3456'],
    ['SSN area 9xx (ITIN)', ['ssn'], '912-34-5678', '912-34-5678'],
    ['SSN group 00', ['ssn'], '123-00-4567', '123-00-4567'],
    ['SSN serial 0000', ['ssn'], '123-45-0000', '123-45-0000'],
    ['SSN mixed separators', ['ssn'], '123-45 6789', '123-45 6789'],
    // email
    ['email', ['email'], 'write to ana.b+x@mail.example.co.uk now', 'write to [email] now'],
    ['not an email', ['email'], 'at 3@ the office', 'at 3@ the office'],
    // phone
    ['E.164', ['phone'], 'call +15550100001', 'call [phone]'],
    ['NANP brackets', ['phone'], 'call (415) 555-0100 now', 'call [phone] now'],
    ['NANP dots', ['phone'], '415.555.0100', '[phone]'],
    ['NANP with 1', ['phone'], '1-800-555-0199', '[phone]'],
    ['NANP contiguous', ['phone'], '4155550100', '[phone]'],
    ['international', ['phone'], '+44 20 7946 0958', '[phone]'],
    ['international brackets', ['phone'], '+1 (415) 555-0100', '[phone]'],
    ['UK national', ['phone'], 'ring 020 7946 0958', 'ring [phone]'],
    ['UK mobile', ['phone'], '07700 900123', '[phone]'],
    ['French', ['phone'], '01 23 45 67 89', '[phone]'],
    ['not a phone: short', ['phone'], 'room 1205, 3 kids', 'room 1205, 3 kids'],
    ['not a phone: area code 123', ['phone'], '123-456-7890', '123-456-7890'],
    // dob
    ['US numeric', ['dob'], 'born 04/12/1985.', 'born [dob].'],
    ['ISO', ['dob'], '1985-04-12', '[dob]'],
    ['two-digit year', ['dob'], '4/12/85', '[dob]'],
    ['European dotted', ['dob'], '12.04.1985', '[dob]'],
    ['spelled MDY', ['dob'], 'April 12th 1985', '[dob]'],
    ['spelled MDY comma', ['dob'], 'Apr. 12, 1985', '[dob]'],
    ['spelled DMY', ['dob'], '12 April 1985', '[dob]'],
    ['spelled DMY of', ['dob'], 'the 12th of April, 1985', '[dob]'],
    ['no year near birth word', ['dob'], 'my date of birth is April 12th', 'my date of birth is [dob]'],
    ['no year after DOB', ['dob'], 'DOB: 4/12 thanks', 'DOB: [dob] thanks'],
    ['appointment without year', ['dob'], 'see you Tuesday the 14th', 'see you Tuesday the 14th'],
    ['ISO timestamp', ['dob'], '2026-11-22T09:21:23.123Z', '2026-11-22T09:21:23.123Z'],
    ['SQL timestamp', ['dob'], '2026-11-22 09:21', '2026-11-22 09:21'],
    ['impossible month', ['dob'], '13/13/2020', '13/13/2020'],
    ['version number', ['dob'], 'v1.2.10', 'v1.2.10'],
  ])('%s', (_, kinds, input, expected) => {
    expect(redactText(input, kinds)).toBe(expected);
  });

  it('redacts only the kinds asked for', () => {
    const text = 'Ana, ana@example.com, +15550100001';
    expect(redactText(text, ['email'])).toBe('Ana, [email], +15550100001');
    expect(redactText(text, [])).toBe(text);
  });

  it('handles mixed text with every kind, cards before phones', () => {
    // Arrange
    const text =
      'Hi, I am Ana, born April 12th 1985. Email ana@example.com, cell (415) 555-0100, SSN 123-45-6789, ' +
      'card 4111 1111 1111 1111 exp 12/25, order 4111 1111 1111 1112.';

    // Act
    const redacted = redactText(text, ALL);

    // Assert
    expect(redacted).toBe(
      'Hi, I am Ana, born [dob]. Email [email], cell [phone], SSN [ssn], card [card ending 1111] exp 12/25, order 4111 1111 1111 1112.',
    );
  });

  it('leaves near misses alone even with every kind on', () => {
    expect(redactText('SSN 000-12-3456, order 4111 1111 1111 1112', ALL)).toBe('SSN 000-12-3456, order 4111 1111 1111 1112');
  });

  it('leaves no valid card number behind, whatever its grouping and surroundings (property)', () => {
    const pan = fc
      .tuple(
        fc.constantFrom('4', '51', '37', '6011'),
        fc.integer({ min: 13, max: 19 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 19, maxLength: 19 }),
      )
      .map(([prefix, length, digits]) => {
        const body = (prefix + digits.join('')).slice(0, length - 1);
        const check = [...Array(10).keys()].find((d) => luhnValid(body + d))!;
        return body + check;
      });
    const grouped = fc.tuple(pan, fc.constantFrom('', ' ', '-')).map(([digits, sep]) => digits.replace(/(\d{4})(?=\d)/g, `$1${sep}`));
    const filler = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '.', ',', ':') });
    fc.assert(
      fc.property(filler, grouped, filler, (before, card, after) => {
        const out = redactText(`${before} ${card} ${after}`, ['card']);
        return !out.includes(card) && out.includes(`[card ending ${card.replace(/\D/g, '').slice(-4)}]`);
      }),
      { numRuns: 200 },
    );
  });

  it('leaves Luhn-invalid 16-digit numbers untouched (property)', () => {
    const invalid = fc
      .array(fc.integer({ min: 0, max: 9 }), { minLength: 16, maxLength: 16 })
      .map((digits) => digits.join(''))
      .filter((digits) => !luhnValid(digits));
    fc.assert(
      fc.property(invalid, (digits) => redactText(`order ${digits}`, ['card']) === `order ${digits}`),
      { numRuns: 200 },
    );
  });
});

describe('redactDeep', () => {
  it('redacts every string of a nested value and keeps keys, numbers and booleans', () => {
    // Arrange
    const call = {
      id: 123456789,
      summary: 'Caller gave ana@example.com.',
      transcript: [
        { role: 'assistant', text: "What's your date of birth?", start_ms: 0, end_ms: 900, interrupted: false },
        { role: 'user', text: 'March 3rd, 1990. Card 4111 1111 1111 1111', start_ms: 1000, end_ms: 4000, interrupted: false },
      ],
      analysis: { structured_data: { phone: '+15550100001', email: 'ana@example.com', count: 2, ok: true, missing: null } },
    };

    // Act
    const redacted = redactDeep(call, ALL);

    // Assert
    expect(redacted).toEqual({
      id: 123456789,
      summary: 'Caller gave [email].',
      transcript: [
        { role: 'assistant', text: "What's your date of birth?", start_ms: 0, end_ms: 900, interrupted: false },
        { role: 'user', text: '[dob]. Card [card ending 1111]', start_ms: 1000, end_ms: 4000, interrupted: false },
      ],
      analysis: { structured_data: { phone: '[phone]', email: '[email]', count: 2, ok: true, missing: null } },
    });
    expect(call.summary).toBe('Caller gave ana@example.com.');
  });

  it('keeps the values of skipped keys and ISO timestamps', () => {
    const payload = {
      type: 'call.completed',
      timestamp: '2026-11-22T09:21:23.123Z',
      data: { to_number: '+15550100002', summary: 'Call +15550100002' },
    };
    expect(redactDeep(payload, ['phone', 'dob'], { skipKeys: ['to_number'] })).toEqual({
      type: 'call.completed',
      timestamp: '2026-11-22T09:21:23.123Z',
      data: { to_number: '+15550100002', summary: 'Call [phone]' },
    });
  });

  it('redacts a bare string and passes other primitives through', () => {
    expect(redactDeep('ssn 123-45-6789', ['ssn'])).toBe('ssn [ssn]');
    expect(redactDeep(42, ['ssn'])).toBe(42);
    expect(redactDeep(null, ['ssn'])).toBeNull();
  });
});
