import type { ValidationItem } from '../errors';
import type { AssistantConfig } from './assistant-config';
import { LANGUAGES, LANGUAGE_CODES, describeLanguages, supportedLanguage } from './languages';
import {
  AURA_2_VOICES,
  AURA_2_VOICE_NAMES,
  DEEPGRAM_STT_MODELS,
  DEFAULT_OPENAI_STT_MODEL,
  OPENAI_STT_MODELS,
  auraVoiceLanguage,
  auraVoices,
  type AuraLanguage,
} from './speech-catalog';
import type { Loc } from './validation-errors';

/**
 * The checks on an assistant's speech settings that span fields, run once the schema passed:
 * the language is one the service runs (and, in standard mode, one an Aura-2 voice speaks), the
 * transcription model belongs to its provider, and the voice is a known Aura-2 voice for that
 * language. Each failure is a 422 item in pydantic's `value_error` shape listing what is allowed.
 */

const STT_MODELS: Record<AssistantConfig['transcriber']['provider'], readonly string[]> = {
  deepgram: DEEPGRAM_STT_MODELS,
  openai: OPENAI_STT_MODELS,
};

function item(loc: Loc, message: string, input: unknown, ctx: Record<string, unknown>): ValidationItem {
  return { loc, msg: `Value error, ${message}`, type: 'value_error', input, ctx: { error: message, ...ctx } };
}

const quoted = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');

/**
 * Fills what the schema cannot default on its own: `transcriber.model` left out under
 * `provider: openai` is OpenAI's model, not Flux's.
 */
export function applySpeechDefaults(config: AssistantConfig, input: unknown): AssistantConfig {
  const sent = (input as { transcriber?: { model?: unknown } } | null | undefined)?.transcriber?.model;
  if (config.transcriber.provider !== 'openai' || sent !== undefined) return config;
  return { ...config, transcriber: { ...config.transcriber, model: DEFAULT_OPENAI_STT_MODEL } };
}

/** Every speech-setting problem of a parsed config, as 422 items under `loc`. */
export function checkSpeechSettings(config: AssistantConfig, loc: Loc): ValidationItem[] {
  const items: ValidationItem[] = [];
  const language = supportedLanguage(config.language);
  const standard = config.mode === 'standard';
  if (!language) {
    const message = `language '${config.language}' is not supported; use one of ${describeLanguages()}, optionally with a region (en-US, es-MX)`;
    items.push(item([...loc, 'language'], message, config.language, { expected: LANGUAGE_CODES }));
  } else if (standard && language.voice === null) {
    const spoken = LANGUAGES.filter((l) => l.voice !== null);
    const message = `${language.code} (${language.name}) has no Aura-2 voice, so it runs only with mode 'live' (OpenAI voices speak it); standard mode runs ${describeLanguages(spoken)}`;
    items.push(item([...loc, 'language'], message, config.language, { expected: spoken.map((l) => l.code) }));
  }
  const { provider, model } = config.transcriber;
  const models = STT_MODELS[provider];
  if (!models.includes(model)) {
    const message = `'${model}' is not a transcription model the engine runs with provider ${provider}; use one of ${quoted(models)}`;
    items.push(item([...loc, 'transcriber', 'model'], message, model, { expected: models }));
  }
  items.push(...checkVoice(config, loc, standard ? language?.code : undefined));
  return items;
}

/** `voice_id`: empty (the language's voice) or an Aura-2 voice; in standard mode, one that speaks the language. */
function checkVoice(config: AssistantConfig, loc: Loc, languageCode: string | undefined): ValidationItem[] {
  const voice = config.voice.voice_id.trim();
  if (voice === '') return [];
  const at = [...loc, 'voice', 'voice_id'];
  const choices =
    languageCode !== undefined && Object.hasOwn(AURA_2_VOICE_NAMES, languageCode) ? auraVoices(languageCode as AuraLanguage) : [];
  const speaks = auraVoiceLanguage(voice);
  if (speaks === undefined) {
    const list = choices.length > 0 ? choices : AURA_2_VOICES;
    const message = `'${voice}' is not a Deepgram Aura-2 voice; leave it empty for the language's default voice or use one of ${quoted(list)}`;
    return [item(at, message, voice, { expected: list })];
  }
  if (languageCode === undefined || speaks === languageCode || choices.length === 0) return [];
  const message = `'${voice}' speaks ${speaks}, but the assistant's language is ${languageCode}; leave it empty for the default voice or use one of ${quoted(choices)}`;
  return [item(at, message, voice, { expected: choices })];
}
