import { describe, expect, it } from 'vitest';
import { ENDED_REASONS, type EndedReason, type Outcome } from '../../../shared/domain/call';
import { callerSpoke, decideOutcome, needsLlmAnalysis, outcomeForEndedReason } from '../../../shared/domain/outcome';

const CONVERSATION = [
  { role: 'assistant', text: 'Hello, Acme Dental.' },
  { role: 'user', text: 'Hi, I need a cleaning.' },
];
const SILENT = [
  { role: 'assistant', text: 'Hello, Acme Dental.' },
  { role: 'user', text: '   ' },
];

describe('outcomeForEndedReason (docs/design.md "Resources")', () => {
  it.each<[EndedReason, Outcome | null]>([
    ['no_answer', 'no_answer'],
    ['busy', 'busy'],
    ['failed', 'failed'],
    ['voicemail', 'voicemail'],
    ['transferred', 'transferred'],
    ['error', null],
    ['canceled', null],
    ['caller_hung_up', null],
    ['assistant_ended', null],
    ['end_phrase', null],
    ['silence_timeout', null],
    ['max_duration', null],
  ])('%s → %s', (reason, outcome) => {
    expect(outcomeForEndedReason(reason)).toBe(outcome);
  });

  it('covers every ended reason', () => {
    for (const reason of ENDED_REASONS) expect(() => outcomeForEndedReason(reason)).not.toThrow();
  });
});

describe('needsLlmAnalysis', () => {
  it.each<[EndedReason, boolean]>([
    ['caller_hung_up', true],
    ['assistant_ended', true],
    ['end_phrase', true],
    ['silence_timeout', true],
    ['max_duration', true],
    ['transferred', true],
    ['error', true],
    ['no_answer', false],
    ['busy', false],
    ['failed', false],
    ['voicemail', false],
    ['canceled', false],
  ])('%s with a conversation → %s', (reason, expected) => {
    expect(needsLlmAnalysis(reason, CONVERSATION)).toBe(expected);
  });

  it('is false when the caller never said anything', () => {
    expect(needsLlmAnalysis('caller_hung_up', SILENT)).toBe(false);
    expect(needsLlmAnalysis('silence_timeout', [])).toBe(false);
    expect(callerSpoke(SILENT)).toBe(false);
  });
});

describe('decideOutcome', () => {
  it.each<[string, EndedReason, Outcome | null, typeof CONVERSATION, Outcome | null]>([
    ['the ended reason wins over the analysis', 'transferred', 'resolved', CONVERSATION, 'transferred'],
    ['the analysis decides a conversation', 'caller_hung_up', 'appointment_booked', CONVERSATION, 'appointment_booked'],
    ['no analysis after a conversation', 'caller_hung_up', null, CONVERSATION, 'unresolved'],
    ['a silent caller', 'silence_timeout', null, SILENT, 'unresolved'],
    ['our error before the caller spoke', 'error', null, SILENT, 'failed'],
    ['our error mid-conversation, analysed', 'error', 'message_taken', CONVERSATION, 'message_taken'],
    ['our error mid-conversation, not analysed', 'error', null, CONVERSATION, 'unresolved'],
    ['a canceled call', 'canceled', null, [], null],
    ['busy', 'busy', null, [], 'busy'],
  ])('%s', (_, reason, llm, transcript, expected) => {
    expect(decideOutcome(reason, llm, transcript)).toBe(expected);
  });
});
