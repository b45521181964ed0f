import { describe, expect, it } from 'vitest';
import { applyPronunciations, compilePronunciations } from '../../../../media-service/src/text/pronunciations';

describe('applyPronunciations', () => {
  const entries = [
    { word: 'Nguyen', say: 'win' },
    { word: 'Acme', say: 'ack-mee' },
    { word: 'Acme Dental', say: 'ack-mee dental clinic' },
    { word: 'SQL', say: 'sequel' },
    { word: 'C++', say: 'C plus plus' },
    { word: 'AT&T', say: 'A T and T' },
    { word: 'win', say: 'SHOULD NOT CASCADE' },
  ];

  it.each([
    { text: 'Dr. Nguyen will call.', expected: 'Dr. win will call.' },
    { text: 'dr. NGUYEN will call.', expected: 'dr. win will call.' },
    { text: 'Welcome to Acme Dental!', expected: 'Welcome to ack-mee dental clinic!' },
    { text: 'Acme, Acme Dental and acme.', expected: 'ack-mee, ack-mee dental clinic and ack-mee.' },
    { text: 'Nguyens and SQLite stay.', expected: 'Nguyens and SQLite stay.' },
    { text: 'We use SQL_SERVER and SQL.', expected: 'We use SQL_SERVER and sequel.' },
    { text: 'C++ and AT&T work.', expected: 'C plus plus and A T and T work.' },
    { text: 'Nguyen: to win.', expected: 'win: to SHOULD NOT CASCADE.' },
  ])('"$text" → "$expected"', ({ text, expected }) => {
    // Act
    const got = applyPronunciations(text, entries);
    // Assert
    expect(got).toBe(expected);
  });

  it('returns text unchanged with no entries, and keeps the first of duplicate words', () => {
    // Arrange
    const say = compilePronunciations([
      { word: 'Lisa', say: 'Leesa' },
      { word: 'lisa', say: 'Lysa' },
    ]);
    // Act + Assert
    expect(compilePronunciations([])('Hello Lisa')).toBe('Hello Lisa');
    expect(say('Hello LISA')).toBe('Hello Leesa');
  });
});
