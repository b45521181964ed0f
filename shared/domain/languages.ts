import type { AssistantConfig } from './assistant-config';
import type { DEEPGRAM_STT_MODELS } from './speech-catalog';

/**
 * The languages an assistant can run in (`config.language`), and what each one runs on: the one
 * table the API validates against, the engine picks its recogniser and voice from, and the README's
 * support matrix describes (docs/decisions.md "Languages").
 *
 * - Recogniser: Deepgram Flux `flux-general-en` for English; `flux-general-multi` (10 languages,
 *   with a `language_hint`) for the others; or OpenAI realtime transcription when
 *   `transcriber.provider` is `openai`, told the language.
 * - Voice (standard mode): the language's Aura-2 voice when `voice.voice_id` is empty. Aura-2
 *   speaks 7 languages; Portuguese, Hindi and Russian have no Aura-2 voice, so they run only in
 *   `mode: live`, whose OpenAI voices (`live_voice`) speak every language: that is their fallback
 *   voice. A standard assistant in one of them is refused (422) rather than read out by a voice
 *   that cannot pronounce it.
 */
export interface LanguageSupport {
  /** ISO 639-1 code (`es`). */
  code: string;
  /** English name, for messages and the README. */
  name: string;
  /** The Flux model that hears it. */
  flux: (typeof DEEPGRAM_STT_MODELS)[number];
  /** The default Aura-2 voice, or null when Aura-2 does not speak it (live mode only). */
  voice: string | null;
  /** The locale of the carrier's own text-to-speech (TwiML `<Say language>`). */
  locale: string;
}

/** The supported languages, English first. */
export const LANGUAGES: readonly LanguageSupport[] = [
  { code: 'en', name: 'English', flux: 'flux-general-en', voice: 'aura-2-thalia-en', locale: 'en-US' },
  { code: 'es', name: 'Spanish', flux: 'flux-general-multi', voice: 'aura-2-celeste-es', locale: 'es-ES' },
  { code: 'fr', name: 'French', flux: 'flux-general-multi', voice: 'aura-2-agathe-fr', locale: 'fr-FR' },
  { code: 'de', name: 'German', flux: 'flux-general-multi', voice: 'aura-2-viktoria-de', locale: 'de-DE' },
  { code: 'it', name: 'Italian', flux: 'flux-general-multi', voice: 'aura-2-livia-it', locale: 'it-IT' },
  { code: 'nl', name: 'Dutch', flux: 'flux-general-multi', voice: 'aura-2-rhea-nl', locale: 'nl-NL' },
  { code: 'ja', name: 'Japanese', flux: 'flux-general-multi', voice: 'aura-2-izanami-ja', locale: 'ja-JP' },
  { code: 'pt', name: 'Portuguese', flux: 'flux-general-multi', voice: null, locale: 'pt-BR' },
  { code: 'hi', name: 'Hindi', flux: 'flux-general-multi', voice: null, locale: 'hi-IN' },
  { code: 'ru', name: 'Russian', flux: 'flux-general-multi', voice: null, locale: 'ru-RU' },
];

/** A supported language code. */
export type LanguageCode = 'en' | 'es' | 'fr' | 'de' | 'it' | 'nl' | 'ja' | 'pt' | 'hi' | 'ru';

/** The codes of {@link LANGUAGES}, in table order. */
export const LANGUAGE_CODES = LANGUAGES.map((language) => language.code) as LanguageCode[];

// A language, optionally a region (en-US, es-419); case-insensitive as BCP 47 is.
const TAG = /^([a-z]{2})(?:[-_](?:[a-z]{2}|\d{3}))?$/i;

/**
 * The supported language a `language` value names (`en-US` → English), or undefined when the
 * service cannot run it. Tags are case-insensitive; a region may follow the language.
 *
 * @example supportedLanguage('es-MX')?.name // 'Spanish'
 */
export function supportedLanguage(tag: string): LanguageSupport | undefined {
  const code = TAG.exec(tag.trim())?.[1]?.toLowerCase();
  return LANGUAGES.find((language) => language.code === code);
}

/**
 * The language a stored config runs in: a config saved before languages were checked may hold
 * one the service cannot run, and such calls run in English (as they always did).
 */
export function callLanguage(config: Pick<AssistantConfig, 'language'>): LanguageSupport {
  return supportedLanguage(config.language) ?? LANGUAGES[0]!;
}

/** What the standard pipeline runs a call on. */
export interface SpeechPlan {
  language: LanguageSupport;
  stt: { provider: 'deepgram' | 'openai'; model: string; language: LanguageCode };
  /** The Aura-2 voice. */
  voice: string;
}

/**
 * The recogniser and voice of a standard-mode call. `flux-general-en` on a non-English assistant
 * runs `flux-general-multi` (Flux English hears only English; a config read back and sent with a
 * new `language` keeps the default model), and an empty `voice_id` is the language's voice. A
 * standard assistant saved in a language without an Aura-2 voice before the API refused that
 * keeps the voice it always had, `aura-2-thalia-en`, rather than failing its calls.
 */
export function speechPlan(config: Pick<AssistantConfig, 'language' | 'transcriber' | 'voice'>): SpeechPlan {
  const language = callLanguage(config);
  const code = language.code as LanguageCode;
  const { provider, model } = config.transcriber;
  const sttModel = provider === 'deepgram' && model === 'flux-general-en' && code !== 'en' ? language.flux : model;
  const chosen = config.voice.voice_id.trim();
  return {
    language,
    stt: { provider, model: sttModel, language: code },
    voice: chosen !== '' ? chosen : (language.voice ?? LANGUAGES[0]!.voice!),
  };
}

/** `es (Spanish), fr (French)…`: how a 422 lists the supported languages. */
export function describeLanguages(languages: readonly LanguageSupport[] = LANGUAGES): string {
  return languages.map((language) => `${language.code} (${language.name})`).join(', ');
}
