import type { MODEL_PROVIDERS, TRANSCRIBER_PROVIDERS } from '../../../shared/domain/assistant-config-sections';
import type { LanguageModel } from '../ports/language-model';
import type { SpeechToSpeech } from '../ports/speech-to-speech';
import type { SpeechToText } from '../ports/speech-to-text';
import type { TextToSpeech } from '../ports/text-to-speech';

/**
 * The providers a process can reach, keyed by the names an assistant's config uses, so a call picks
 * its recogniser, voice, model and live session by looking a name up, and a new provider is one
 * more entry, not a new field and an `if` (docs/decisions.md "Providers are chosen from a registry").
 */

/** `voice.voice_id` names a Deepgram Aura-2 voice; the API has no voice provider field yet. */
export const VOICE_PROVIDER = 'deepgram';

/** `mode: live` runs on OpenAI Realtime (`live_voice` is one of its voices); no field names it yet. */
export const LIVE_PROVIDER = 'openai';

/** The name each kind of provider is keyed by: the config's `transcriber.provider`, `model.provider`… */
export interface ProviderNames {
  recognisers: (typeof TRANSCRIBER_PROVIDERS)[number];
  voices: typeof VOICE_PROVIDER;
  speechToSpeech: typeof LIVE_PROVIDER;
  models: (typeof MODEL_PROVIDERS)[number];
}

/** Where a call's model is: `custom_url` for `provider: custom` ('' for the platform's). */
export interface ModelEndpoint {
  url: string;
  /** The API key the endpoint may be sent (the assistant's own key, opened only when asked for). */
  apiKey(): Promise<string>;
}

/** One model provider: a client for an endpoint of it (the platform's OpenAI ignores the endpoint). */
export interface ModelSource {
  open(endpoint: ModelEndpoint): Promise<LanguageModel>;
}

/** The port each kind of provider offers. */
export interface ProviderPorts {
  recognisers: SpeechToText;
  voices: TextToSpeech;
  speechToSpeech: SpeechToSpeech;
  models: ModelSource;
}

/** A kind of provider: recognisers (standard mode), voices (standard mode), speech to speech (live mode), models. */
export type ProviderKind = keyof ProviderPorts;

/** One configured provider and the name it has in a call's `metrics.providers` (`deepgram`, `deepgram-sandbox`). */
export interface ProviderEntry<Port> {
  readonly port: Port;
  readonly label: string;
}

/** The providers of one kind that this process has, by name; a name left out is not configured. */
export type ProviderShelf<K extends ProviderKind> = Readonly<Partial<Record<ProviderNames[K], ProviderEntry<ProviderPorts[K]>>>>;

/**
 * Every provider a call may use, built once per process by the composition root.
 *
 * @example
 * const registry: ProviderRegistry = {
 *   recognisers: { deepgram: { port: flux, label: 'deepgram' }, openai: { port: whisper, label: 'openai' } },
 *   voices: { deepgram: { port: aura, label: 'deepgram' } },
 *   speechToSpeech: { openai: { port: realtime, label: 'openai-realtime' } },
 *   models: modelSources({ ... }),
 * };
 */
export type ProviderRegistry = { readonly [K in ProviderKind]: ProviderShelf<K> };

/** The speech providers alone: what a process starts before it has the keys to build its models. */
export type SpeechProviders = Omit<ProviderRegistry, 'models'>;

/** A lookup's answer: the entry, or why the call cannot have it (a value, for the caller to log). */
export type ProviderLookup<Port> = { ok: true; entry: ProviderEntry<Port> } | { ok: false; reason: string };

/** How a missing provider of each kind is named in the log (`no openai recogniser configured`). */
const KIND_NOUNS: Record<ProviderKind, string> = {
  recognisers: 'recogniser',
  voices: 'voice',
  speechToSpeech: 'speech-to-speech provider',
  models: 'model provider',
};

/**
 * The provider of `kind` named `name`, or "not configured" as a value. Only the registry's own
 * entries count (never `Object.prototype`'s), so a name is never half found.
 *
 * @example
 * const recogniser = findProvider(deps.registry, 'recognisers', config.transcriber.provider);
 * if (!recogniser.ok) log.warn('call.speech.unavailable', { reason: recogniser.reason });
 */
export function findProvider<K extends ProviderKind>(
  registry: Pick<ProviderRegistry, K>,
  kind: K,
  name: ProviderNames[K],
): ProviderLookup<ProviderPorts[K]> {
  const shelf: Partial<Record<string, ProviderEntry<ProviderPorts[K]>>> = registry[kind];
  const entry = Object.hasOwn(shelf, name) ? shelf[name] : undefined;
  return entry ? { ok: true, entry } : { ok: false, reason: `no ${name} ${KIND_NOUNS[kind]} configured` };
}
