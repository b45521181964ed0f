import { describe, expect, it } from 'vitest';
import {
  isRememberableNumber,
  MEMORY_SUMMARY_MAX_CHARS,
  memoryContext,
  type CallerMemoryEntry,
} from '../../../shared/domain/memory-prompt';

const entry = (call_id: number, ended_at: string, summary: string, outcome: string | null = null): CallerMemoryEntry => ({
  call_id,
  ended_at,
  summary,
  outcome,
});

describe('memoryContext', () => {
  it('is empty for no entries, and for entries with only blank summaries', () => {
    // Arrange
    const blank = [entry(1, '2026-01-01T00:00:00Z', '   ')];
    // Act
    const results = [memoryContext([]), memoryContext(blank)];
    // Assert
    expect(results).toEqual(['', '']);
  });

  it('lists each call by its date with its outcome, in the order given (newest first)', () => {
    // Arrange
    const entries = [
      entry(9, '2026-03-02T10:00:00.000Z', 'Booked a cleaning for\n next Tuesday.', 'appointment_booked'),
      entry(4, '2026-02-11T16:30:00.000Z', 'Asked about opening hours.'),
    ];
    // Act
    const text = memoryContext(entries);
    // Assert
    expect(text).toBe(
      [
        'Earlier calls with this caller (newest first):',
        '- 2026-03-02: Booked a cleaning for next Tuesday. (outcome: appointment_booked)',
        '- 2026-02-11: Asked about opening hours.',
        'Use these only for continuity; do not read them out, and confirm details before relying on them.',
      ].join('\n'),
    );
  });

  it('cuts a long summary so the section stays short', () => {
    // Arrange
    const long = entry(1, '2026-01-01T00:00:00Z', 'word '.repeat(500));
    // Act
    const line = memoryContext([long]).split('\n')[1]!;
    // Assert
    expect(line.length).toBeLessThanOrEqual('- 2026-01-01: '.length + MEMORY_SUMMARY_MAX_CHARS);
    expect(line.endsWith('…')).toBe(true);
  });
});

describe('isRememberableNumber', () => {
  it.each([
    ['+15550100009', true],
    ['+442079460958', true],
    ['anonymous', false],
    ['client:alice', false],
    ['', false],
    ['+0123', false],
    ['5550100009', false],
  ])('%s → %s', (number, expected) => {
    // Act / Assert
    expect(isRememberableNumber(number)).toBe(expected);
  });
});
