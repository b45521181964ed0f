/**
 * The speech models and voices the call engine can run, per provider: the lists an assistant's
 * `transcriber.model`, `voice.voice_id` and `live_voice` are validated against. Copied from the
 * vendors' SDKs (`@deepgram/sdk` 5.13 `SpeakV1Model` and `ListenV2Model`, `openai` 7.57
 * realtime types); a unit test compares them with the installed SDKs, so a bump that changes a
 * list fails loudly instead of drifting.
 */

/**
 * Deepgram models the engine's recogniser speaks: Flux on `/v2/listen`, the only Deepgram
 * streaming models with turn detection (Nova models on `/v1/listen` have none, so the engine
 * cannot take turns on them). `flux-general-multi` hears en, es, fr, de, hi, ru, pt, ja, it, nl.
 */
export const DEEPGRAM_STT_MODELS = ['flux-general-en', 'flux-general-multi'] as const;

/**
 * OpenAI realtime transcription models that work with server voice detection (the engine's turn
 * events come from it). Left out: `gpt-realtime-whisper` (needs manual commits, no VAD) and
 * `gpt-4o-transcribe-diarize` (speaker segments, not turns).
 */
export const OPENAI_STT_MODELS = [
  'gpt-transcribe',
  'gpt-live-transcribe',
  'gpt-4o-transcribe',
  'gpt-4o-mini-transcribe',
  'gpt-4o-mini-transcribe-2025-12-15',
  'whisper-1',
] as const;

/** The transcription model of `transcriber.provider: openai` when none is given. */
export const DEFAULT_OPENAI_STT_MODEL = 'gpt-transcribe';

/** `gpt-transcribe` and `gpt-live-transcribe` take `keywords`; older models get the key terms as a prompt. */
export const OPENAI_STT_MODELS_WITH_KEYWORDS: readonly string[] = ['gpt-transcribe', 'gpt-live-transcribe'];

/** OpenAI Realtime voices (`live_voice`); every one speaks every language the model does. */
export const REALTIME_VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'sage', 'shimmer', 'verse', 'marin', 'cedar'] as const;

/** Deepgram Aura-2 voice names by language: the model is `aura-2-<name>-<language>`. */
export const AURA_2_VOICE_NAMES = {
  en: [
    'amalthea',
    'andromeda',
    'apollo',
    'arcas',
    'aries',
    'asteria',
    'athena',
    'atlas',
    'aurora',
    'callista',
    'cora',
    'cordelia',
    'delia',
    'draco',
    'electra',
    'harmonia',
    'helena',
    'hera',
    'hermes',
    'hyperion',
    'iris',
    'janus',
    'juno',
    'jupiter',
    'luna',
    'mars',
    'minerva',
    'neptune',
    'odysseus',
    'ophelia',
    'orion',
    'orpheus',
    'pandora',
    'phoebe',
    'pluto',
    'saturn',
    'selene',
    'thalia',
    'theia',
    'vesta',
    'zeus',
  ],
  es: [
    'agustina',
    'alvaro',
    'antonia',
    'aquila',
    'carina',
    'celeste',
    'diana',
    'estrella',
    'gloria',
    'javier',
    'luciano',
    'nestor',
    'olivia',
    'selena',
    'silvia',
    'sirio',
    'valerio',
  ],
  fr: ['agathe', 'hector'],
  de: ['aurelia', 'elara', 'fabian', 'julius', 'kara', 'lara', 'viktoria'],
  it: ['cesare', 'cinzia', 'demetra', 'dionisio', 'elio', 'flavio', 'livia', 'maia', 'melia', 'perseo'],
  nl: ['beatrix', 'cornelia', 'daphne', 'hestia', 'lars', 'leda', 'rhea', 'roman', 'sander'],
  ja: ['ama', 'ebisu', 'fujin', 'izanami', 'uzume'],
} as const satisfies Record<string, readonly string[]>;

/** A language Aura-2 speaks. */
export type AuraLanguage = keyof typeof AURA_2_VOICE_NAMES;

/** The Aura-2 voices of one language, as model ids (`aura-2-celeste-es`). */
export function auraVoices(language: AuraLanguage): string[] {
  return AURA_2_VOICE_NAMES[language].map((name) => `aura-2-${name}-${language}`);
}

/** Every Aura-2 voice id. */
export const AURA_2_VOICES: readonly string[] = (Object.keys(AURA_2_VOICE_NAMES) as AuraLanguage[]).flatMap(auraVoices);

/** The language an Aura-2 voice speaks (`aura-2-celeste-es` → `es`), or undefined for an unknown voice. */
export function auraVoiceLanguage(voice: string): AuraLanguage | undefined {
  if (!AURA_2_VOICES.includes(voice)) return undefined;
  return voice.slice(voice.lastIndexOf('-') + 1) as AuraLanguage;
}
