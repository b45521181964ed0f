import { describe, expect, it } from 'vitest';
import { sayDate, sayList, sayTime, spokenDate, spokenTime, todayFromPrompt } from '../../../../media-service/src/sandbox/spoken-dates';
import { todayLine } from '../../../../shared/domain/booking-tools';

// Thursday 26 November 2026.
const TODAY = '2026-11-26';

describe('spokenDate', () => {
  it.each([
    ['Do you have anything today?', '2026-11-26'],
    ['What about tomorrow at 10am?', '2026-11-27'],
    ['The day after tomorrow, please.', '2026-11-28'],
    ['What times do you have on Friday?', '2026-11-27'],
    ['How about next Monday?', '2026-11-30'],
    ['Thursday works', '2026-12-03'],
    ['Wednesday', '2026-12-02'],
    ['on December 1st', '2026-12-01'],
    ['November 2', '2027-11-02'],
    ['on 2026-12-24 please', '2026-12-24'],
    ['on 2026-02-30 please', undefined],
    ['sometime next week', undefined],
    ['I would like to book a cleaning.', undefined],
  ])('%s → %s', (said, expected) => {
    // Act / Assert
    expect(spokenDate(said, TODAY)).toBe(expected);
  });

  it('crosses a month and a year end', () => {
    // Act / Assert
    expect(spokenDate('tomorrow', '2026-12-31')).toBe('2027-01-01');
    expect(spokenDate('Monday', '2026-12-31')).toBe('2027-01-04');
  });
});

describe('spokenTime', () => {
  it.each([
    ['Friday at 10am', '10:00'],
    ['at 10 am please', '10:00'],
    ['2:30 pm', '14:30'],
    ['2 p.m.', '14:00'],
    ['12pm', '12:00'],
    ['12am', '00:00'],
    ['noon', '12:00'],
    ['Monday at 2', '14:00'],
    ['at 9:15', '09:15'],
    ['at 16:45', '16:45'],
    ['on Friday', undefined],
    ['call me on 415 555 0199', undefined],
  ])('%s → %s', (said, expected) => {
    // Act / Assert
    expect(spokenTime(said)).toBe(expected);
  });
});

describe('the call’s today', () => {
  it("reads the prompt's today line in the business's zone, whatever this machine's zone", () => {
    // Arrange: 03:00 UTC on the 27th is still the 26th in Los Angeles
    const prompt = `Be kind.\n${todayLine(new Date('2026-11-27T03:00:00Z'), 'America/Los_Angeles')}`;
    // Act / Assert
    expect(todayFromPrompt(prompt)).toBe('2026-11-26');
    expect(todayFromPrompt('No date here.')).toBeUndefined();
  });
});

describe('spoken forms', () => {
  it('says dates, times and lists as people do', () => {
    // Act / Assert
    expect(sayDate('2026-11-27')).toBe('Friday, November 27');
    expect(sayTime('14:30')).toBe('2:30 PM');
    expect(sayTime('09:00')).toBe('9:00 AM');
    expect(sayList(['a'])).toBe('a');
    expect(sayList(['a', 'b', 'c'])).toBe('a, b and c');
  });
});
