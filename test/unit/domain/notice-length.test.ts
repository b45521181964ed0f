import { describe, expect, it } from 'vitest';
import { parseAssistantConfig } from '../../../shared/domain/assistant-config';
import { defaultBusinessProfile } from '../../../shared/domain/business-profile';
import { buildCallScript, splitGreeting } from '../../../shared/domain/call-script';
import { LANGUAGE_CODES, type LanguageCode } from '../../../shared/domain/languages';
import { TEMPLATE_NAMES, templateConfig } from '../../../shared/domain/templates';
import { auraAudioBytes, DEFAULT_AURA_TUNING } from '../../../media-service/src/sandbox/aura-session';
import { BYTES_PER_MS } from '../../../media-service/src/audio/mulaw';

/**
 * How long the default notices take to say (docs/decisions.md "How long the notices take to say"):
 * the recording notice and AI disclosure together at most 5 s, and with the greeting at most 7 s,
 * both by a real voice and by the sandbox voice.
 *
 * The real voice (Aura-2 in standard mode, the Realtime voices in live mode) at speed 1 is modelled
 * in characters a second per language. English: 2.6 words a second of 5.7 characters with the space,
 * about 15. The other languages say the same content in about the same time (languages carry
 * information at about the same rate), so their rate follows how many more characters their text
 * needs for it; Japanese is read at about 330 characters a minute. Punctuation counts, as the short
 * pause it is.
 */
const CHARS_PER_SECOND: Record<LanguageCode, number> = {
  en: 15,
  es: 17,
  fr: 17,
  de: 16.5,
  it: 17,
  nl: 16.5,
  pt: 17,
  ru: 16,
  hi: 15,
  ja: 5.5,
};
/** The reference business name: 16 characters (the demo's "Demo Dental" has 11); in Japanese, its usual katakana-and-kanji form. */
const REFERENCE_NAME: Partial<Record<LanguageCode, string>> = { ja: 'アクメ歯科' };
const LATIN_NAME = 'Acme Dental Care';
const NOTICE_MAX_MS = 5000;
const OPENING_MAX_MS = 7000;

/** A real voice at speed 1. */
const realMs = (text: string, language: LanguageCode) => (text.trim().length / CHARS_PER_SECOND[language]) * 1000;
/** The sandbox voice at its `npm run dev` pace: the audio it sends for `text`. */
const sandboxMs = (text: string) => auraAudioBytes(text, 1, DEFAULT_AURA_TUNING.msPerChar) / BYTES_PER_MS;

/** What a call from the template says first, by the real call script: the greeting's lead with the notice, then its question. */
function opening(template: (typeof TEMPLATE_NAMES)[number], language: LanguageCode, direction: 'inbound' | 'outbound' = 'inbound') {
  const { config } = parseAssistantConfig(templateConfig(template), ['config']);
  const profile = { ...defaultBusinessProfile(), display_name: REFERENCE_NAME[language] ?? LATIN_NAME };
  const script = buildCallScript({ config: { ...config, language }, callVariables: {}, profile, memory: '', direction });
  const { lead, question } = splitGreeting(script.firstMessage);
  const utterances = [lead === '' ? script.notice : `${lead} ${script.notice}`, question].filter((text) => text !== '');
  return { greeting: script.firstMessage, notice: script.notice, utterances };
}

const GREETED = TEMPLATE_NAMES.filter((name) => name !== 'blank');

describe('the default notices are short', () => {
  it.each(LANGUAGE_CODES)('%s: the recording notice and AI disclosure take at most 5 s to say', (language) => {
    // Act
    const { notice } = opening('receptionist', language);
    // Assert: both notices are due by default, and both are said
    expect(notice).not.toBe('');
    expect(realMs(notice, language)).toBeLessThanOrEqual(NOTICE_MAX_MS);
    expect(sandboxMs(notice)).toBeLessThanOrEqual(NOTICE_MAX_MS);
  });

  it.each(GREETED.flatMap((template) => [[template, 'inbound'] as const, [template, 'outbound'] as const]))(
    '%s, %s: the greeting with the notices takes at most 7 s to say',
    (template, direction) => {
      // Act
      const { utterances } = opening(template, 'en', direction);
      // Assert
      const real = utterances.reduce((sum, text) => sum + realMs(text, 'en'), 0);
      const sandbox = utterances.reduce((sum, text) => sum + sandboxMs(text), 0);
      expect(real).toBeLessThanOrEqual(OPENING_MAX_MS);
      expect(sandbox).toBeLessThanOrEqual(OPENING_MAX_MS);
    },
  );

  it.each(LANGUAGE_CODES)('%s: the notices leave time for the longest template greeting within 7 s', (language) => {
    // Arrange: the templates' greetings are English; said in another language they take about as long
    const greetings = GREETED.flatMap((template) => [opening(template, 'en').greeting, opening(template, 'en', 'outbound').greeting]);
    const greetingMs = Math.max(...greetings.map((greeting) => realMs(greeting, 'en')));
    // Act
    const { notice } = opening('receptionist', language);
    // Assert
    expect(greetingMs + realMs(notice, language)).toBeLessThanOrEqual(OPENING_MAX_MS);
  });

  it('the model: a notice at the 5 s bound is one the sandbox voice also says in about 5 s', () => {
    // 75 English characters: 5 s by the real model, 4.9 s by the sandbox voice (65 ms a character)
    const text = 'x'.repeat(75);
    expect(realMs(text, 'en')).toBe(5000);
    expect(sandboxMs(text)).toBe(4880);
  });
});
