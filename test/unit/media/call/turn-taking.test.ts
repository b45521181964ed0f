import { describe, expect, it } from 'vitest';
import {
  isBackchannel,
  shouldInterrupt,
  soundsLikeVoicemail,
  truncateToFraction,
  words,
  type InterruptContext,
} from '../../../../media-service/src/call/turn-taking';

describe('words', () => {
  describe.each([
    { text: 'Hello, World!', expected: ['hello', 'world'] },
    { text: '  Mm-hmm.  ', expected: ['mm-hmm'] },
    { text: "I'd like   two\ttickets", expected: ["i'd", 'like', 'two', 'tickets'] },
    { text: 'wait - stop', expected: ['wait', 'stop'] },
    { text: 'wait -- stop', expected: ['wait', 'stop'] },
    { text: 'Está bien, 42', expected: ['está', 'bien', '42'] },
    { text: '...', expected: [] },
    { text: '', expected: [] },
  ])('$text', ({ text, expected }) => {
    it('splits into lower-case words', () => {
      // Arrange / Act
      const list = words(text);
      // Assert
      expect(list).toEqual(expected);
    });
  });
});

describe('isBackchannel', () => {
  describe.each([
    { text: '', expected: true },
    { text: '  ', expected: true },
    { text: 'Mm-hmm.', expected: true },
    { text: 'Uh-huh', expected: true },
    { text: 'uh huh', expected: true },
    { text: 'mm hmm', expected: true },
    { text: 'Yeah.', expected: true },
    { text: 'Okay, okay.', expected: true },
    { text: 'yeah yeah yeah', expected: true },
    { text: 'Got it.', expected: true },
    { text: 'All right', expected: true },
    { text: 'I see.', expected: true },
    { text: 'yeah yeah yeah yeah', expected: false },
    { text: 'Wait.', expected: false },
    { text: 'No', expected: false },
    { text: 'yeah but wait', expected: false },
    { text: 'okay so what time', expected: false },
  ])('$text', ({ text, expected }) => {
    it(`is ${expected}`, () => {
      // Arrange / Act
      const result = isBackchannel(text);
      // Assert
      expect(result).toBe(expected);
    });
  });
});

describe('shouldInterrupt', () => {
  const base: InterruptContext = { mode: 'anytime', minWords: 1, assistantSpeaking: true, greetingDone: true, transcript: 'wait' };

  describe.each<{ name: string; context: Partial<InterruptContext>; expected: boolean }>([
    { name: 'anytime, one word', context: {}, expected: true },
    { name: 'assistant quiet', context: { assistantSpeaking: false }, expected: false },
    {
      name: 'assistant quiet, many words',
      context: { assistantSpeaking: false, transcript: 'I want to book please', minWords: 1 },
      expected: false,
    },
    { name: 'never', context: { mode: 'never', transcript: 'stop stop stop please' }, expected: false },
    { name: 'after_greeting during greeting', context: { mode: 'after_greeting', greetingDone: false }, expected: false },
    { name: 'after_greeting after greeting', context: { mode: 'after_greeting', greetingDone: true }, expected: true },
    { name: 'anytime during greeting', context: { greetingDone: false }, expected: true },
    { name: 'backchannel', context: { transcript: 'mm-hmm' }, expected: false },
    { name: 'backchannel phrase', context: { transcript: 'Okay, got it.', minWords: 1 }, expected: false },
    { name: 'empty transcript', context: { transcript: '' }, expected: false },
    { name: 'below min words', context: { minWords: 3, transcript: 'wait please' }, expected: false },
    { name: 'at min words', context: { minWords: 3, transcript: 'wait, please stop' }, expected: true },
    { name: 'punctuation is not a word', context: { minWords: 2, transcript: 'wait ... !' }, expected: false },
    { name: 'backchannel words do count inside a real sentence', context: { minWords: 3, transcript: 'yeah no wait' }, expected: true },
  ])('$name', ({ context, expected }) => {
    it(`is ${expected}`, () => {
      // Arrange
      const input = { ...base, ...context };
      // Act
      const result = shouldInterrupt(input);
      // Assert
      expect(result).toBe(expected);
    });
  });
});

describe('soundsLikeVoicemail', () => {
  describe.each([
    { text: 'Please leave a message after the tone.', expected: true },
    { text: 'after the beep', expected: true },
    { text: "Hi, you've reached Sam. I'm not available right now.", expected: true },
    { text: "You've reached Sam. He isn't available.", expected: true },
    { text: 'You have reached the voicemail of 555-0100.', expected: true },
    { text: 'The mailbox is full. Leave your name and number.', expected: true },
    { text: "Hello, this is Priya Shah's phone. Leave me a message and I'll get back to you.", expected: true },
    { text: "Leave us a message and we'll call you back.", expected: true },
    { text: "I'll get back to you on that.", expected: false },
    { text: 'Sorry, we are not able to take your call. Please leave a message.', expected: true },
    { text: 'We are not here to take your call; leave your number.', expected: true },
    { text: 'Hello?', expected: false },
    { text: 'Hi, this is Sam speaking.', expected: false },
    { text: "You've reached Sam.", expected: false },
    { text: 'Can I leave a message for Dr. Lee?', expected: false },
    { text: 'Is this about my voicemail from yesterday?', expected: false },
    { text: 'Nothing is available this week.', expected: false },
  ])('$text', ({ text, expected }) => {
    it(`is ${expected}`, () => {
      // Arrange / Act
      const result = soundsLikeVoicemail(text);
      // Assert
      expect(result).toBe(expected);
    });
  });
});

describe('truncateToFraction', () => {
  const text = 'Hello there, how are you today?';

  describe.each([
    { fraction: 1, expected: text },
    { fraction: 1.5, expected: text },
    { fraction: 0, expected: '' },
    { fraction: -0.2, expected: '' },
    { fraction: 0.5, expected: 'Hello there, how' },
    { fraction: 12 / 31, expected: 'Hello there,' },
    { fraction: 0.99, expected: text },
    { fraction: 30.6 / 31, expected: text },
    { fraction: 0.1, expected: '' },
    { fraction: 5 / 31, expected: 'Hello' },
  ])('fraction $fraction', ({ fraction, expected }) => {
    it('cuts at a word boundary, rounding down to the last whole word heard', () => {
      // Arrange / Act
      const cut = truncateToFraction(text, fraction);
      // Assert
      expect(cut).toBe(expected);
    });
  });

  describe.each([
    { text: 'Goodbye.', fraction: 0.5, expected: '' },
    { text: 'Goodbye.', fraction: 0.97, expected: 'Goodbye.' },
    { text: '', fraction: 0.5, expected: '' },
    { text: 'a b', fraction: 0.4, expected: 'a' },
  ])('$text at $fraction', ({ text: input, fraction, expected }) => {
    it(`is ${JSON.stringify(expected)}`, () => {
      // Arrange / Act
      const cut = truncateToFraction(input, fraction);
      // Assert
      expect(cut).toBe(expected);
    });
  });
});
