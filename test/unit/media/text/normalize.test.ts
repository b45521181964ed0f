import { describe, expect, it } from 'vitest';
import { expandTitles, normalizeForSpeech, stripUnspeakable } from '../../../../media-service/src/text/normalize';

describe('stripUnspeakable', () => {
  it.each([
    { text: 'This is **very** important.', expected: 'This is very important.' },
    { text: 'Use *emphasis* and _this_ too.', expected: 'Use emphasis and this too.' },
    { text: 'Keep snake_case_names and 2*3 math.', expected: 'Keep snake_case_names and 2 times 3 math.' },
    { text: '## Opening hours\n- Monday\n- Tuesday', expected: 'Opening hours\nMonday\nTuesday' },
    { text: 'See [our site](https://acme.example) now.', expected: 'See our site now.' },
    { text: 'Run `npm test` please.', expected: 'Run npm test please.' },
    { text: 'Great news 🎉! See you soon 👋🏽.', expected: 'Great news! See you soon.' },
    { text: 'Family 👨‍👩‍👧 and flag 🇺🇸 and ❤️ love.', expected: 'Family and flag and love.' },
    { text: '> Quoted <b>bold</b> text', expected: 'Quoted bold text' },
    { text: '~~old~~ new', expected: 'old new' },
    { text: 'Costs 3.50, at 10:30.', expected: 'Costs 3.50, at 10:30.' },
  ])('"$text"', ({ text, expected }) => {
    // Act
    const got = stripUnspeakable(text);
    // Assert
    expect(got).toBe(expected);
  });
});

describe('expandTitles', () => {
  it.each([
    { text: 'Dr. Smith will see you.', expected: 'Doctor Smith will see you.' },
    { text: 'Mr. and Mrs. Jones, Ms. Lee and Prof. Kim.', expected: 'Mister and Missus Jones, Miz Lee and Professor Kim.' },
    { text: 'We are at 12 Main St. near the park.', expected: 'We are at 12 Main Street near the park.' },
    { text: 'We are at 12 Main St.', expected: 'We are at 12 Main Street.' },
    { text: 'Visit St. Mary’s church.', expected: 'Visit Saint Mary’s church.' },
    { text: 'Fly to St. Louis on 5th St. tomorrow.', expected: 'Fly to Saint Louis on 5th Street tomorrow.' },
    { text: 'turn at st. then left', expected: 'turn at st. then left' },
    { text: 'We moved to 4 Oak Dr. last year.', expected: 'We moved to 4 Oak Drive last year.' },
    { text: 'Ask the Dr. about it.', expected: 'Ask the Doctor about it.' },
    {
      text: 'Bring ID, insurance, etc. to the visit, e.g. a card.',
      expected: 'Bring ID, insurance, et cetera to the visit, for example a card.',
    },
    { text: 'Apples, pears, etc.', expected: 'Apples, pears, et cetera.' },
    { text: 'Suite 5, 10 Elm Ave. and Mt. Hood.', expected: 'Suite 5, 10 Elm Avenue and Mount Hood.' },
  ])('"$text"', ({ text, expected }) => {
    // Act
    const got = expandTitles(text);
    // Assert
    expect(got).toBe(expected);
  });
});

describe('normalizeForSpeech', () => {
  it('strips markup always and expands titles only when read_titles is on', () => {
    // Arrange
    const text = '**Dr. Smith** can see you 😊';
    // Act + Assert
    expect(normalizeForSpeech(text, { readTitles: true })).toBe('Doctor Smith can see you');
    expect(normalizeForSpeech(text, { readTitles: false })).toBe('Dr. Smith can see you');
  });
});
