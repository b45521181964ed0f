import * as v from 'valibot';
import { ValidationError } from '../errors';
import { AdvancedCfgSchema } from './assistant-config-advanced';
import {
  AnalysisCfgSchema,
  BuiltinToolsSchema,
  ModelCfgSchema,
  ModelCfgStoredSchema,
  ModelCfgViewSchema,
  SimpleSetupSchema,
  TranscriberCfgSchema,
  VoiceCfgSchema,
} from './assistant-config-sections';
import { LANGUAGES } from './languages';
import { REALTIME_VOICES } from './speech-catalog';
import { applySpeechDefaults, checkSpeechSettings } from './speech-settings';
import { idField, listField, recordField, strictDict, stringField } from './validation';
import { parseWith, type Loc } from './validation-errors';

export { BACKGROUND_SOUNDS, INTERRUPTION_MODES, REDACT_KINDS, SERVER_EVENT_KINDS, AdvancedCfgSchema } from './assistant-config-advanced';
export {
  MODEL_PROVIDERS,
  STRUCTURED_TYPES,
  SUCCESS_SCALES,
  TRANSCRIBER_PROVIDERS,
  AnalysisCfgSchema,
  BuiltinToolsSchema,
  ModelCfgSchema,
  ModelCfgStoredSchema,
  ModelCfgViewSchema,
  PronounceSchema,
  SimpleSetupSchema,
  StructuredFieldSchema,
  TranscriberCfgSchema,
  VoiceCfgSchema,
  type SimpleSetup,
  type StructuredField,
} from './assistant-config-sections';
export { SETUP_ROLES, SETUP_TONES } from './setup-prompt';

/** `first_message_mode` values (spec): who speaks first, and whether the greeting is generated. */
export const FIRST_MESSAGE_MODES = ['assistant_first', 'wait_for_user', 'model_generated'] as const;

/** `mode` values (spec): the STT → LLM → TTS pipeline, or speech-to-speech (`live`). */
export const ASSISTANT_MODES = ['standard', 'live'] as const;

/**
 * Bounds of `variables` (config and POST /calls): the spec gives none, so these keep a config
 * well inside DynamoDB's 400 KB item: at most 100 entries, each value at most 1000 characters.
 */
export const VARIABLES_BOUNDS = { maxEntries: 100, maxValueChars: 1000 } as const;

/** The variables every call has without being given them (`builtinVariables` in `call-script.ts`). */
export const BUILTIN_VARIABLES = ['direction', 'business_name', 'customer_number', 'date', 'time'] as const;

const VARIABLES_DESCRIPTION =
  'Values for `{{name}}` placeholders in the greetings, the system prompt, the idle, goodbye and voicemail messages and workflow texts. ' +
  "A call's own variables win over the assistant's, which win over the built-in ones every call has: " +
  BUILTIN_VARIABLES.map((name) => `\`${name}\``).join(', ') +
  ' (docs/design.md "Variables"). An unknown placeholder stays as written.';

/** `{{name}}` placeholder values: string to string, within {@link VARIABLES_BOUNDS}. */
export function variablesField() {
  return v.pipe(
    recordField(stringField({ max: VARIABLES_BOUNDS.maxValueChars, lines: true }), VARIABLES_BOUNDS.maxEntries),
    v.metadata({ description: VARIABLES_DESCRIPTION }),
  );
}

const LANGUAGE_DESCRIPTION =
  'The language the assistant speaks and hears (recogniser with `transcriber.provider: deepgram`; default voice in standard mode): ' +
  LANGUAGES.map((l) => `${l.code} ${l.name} (${l.flux}; ${l.voice ?? 'no Aura-2 voice: live mode only, in `live_voice`'})`).join(', ') +
  '; a region may follow (en-US, es-MX). With `transcriber.provider: openai` the OpenAI transcriber is told the language. It also picks the fixed lines (notices, fallback, fillers); anything else is a 422 listing the supported languages (docs/design.md "Languages").';

const FIRST_MESSAGE_DESCRIPTION =
  'What the assistant says first on an inbound call (`assistant_first`, or `wait_for_user` greeting a silent caller); empty: the model writes the greeting. ' +
  '`{{name}}` placeholders are filled (docs/design.md "Variables").';

const OUTBOUND_FIRST_MESSAGE_DESCRIPTION =
  'What the assistant says first on an outbound call, worded for a person the business called. Empty: `first_message`, unless it thanks the person for calling ' +
  '("Thanks for calling", "Gracias por llamar", in any supported language); then a standard line in the assistant\'s language ' +
  '("Hello, this is <business> calling. Do you have a moment?"). `{{name}}` placeholders are filled (docs/design.md "Variables").';

/** The AssistantConfig fields before `model`, in the spec's order (stored and returned forms). */
const CONFIG_HEAD = {
  first_message_mode: v.optional(v.picklist(FIRST_MESSAGE_MODES), 'assistant_first'),
  first_message: v.optional(v.pipe(stringField({ max: 1000, lines: true }), v.metadata({ description: FIRST_MESSAGE_DESCRIPTION })), ''),
  outbound_first_message: v.optional(
    v.pipe(stringField({ max: 1000, lines: true }), v.metadata({ description: OUTBOUND_FIRST_MESSAGE_DESCRIPTION })),
    '',
  ),
  system_prompt: v.optional(stringField({ max: 30_000, lines: true }), ''),
  business_context: v.optional(v.boolean(), true),
  language: v.optional(v.pipe(stringField({ max: 16 }), v.metadata({ description: LANGUAGE_DESCRIPTION })), 'en'),
  mode: v.optional(v.picklist(ASSISTANT_MODES), 'standard'),
  live_voice: v.optional(stringField({ max: 40 }), 'marin'),
};

/**
 * The head as a client sends it: `live_voice` must be an OpenAI Realtime voice. Stored configs
 * keep the plain string form, so a config saved before the check still reads.
 */
const CONFIG_HEAD_INPUT = {
  ...CONFIG_HEAD,
  live_voice: v.optional(
    v.pipe(v.picklist(REALTIME_VOICES), v.metadata({ description: 'The OpenAI Realtime voice of `mode: live`.' })),
    'marin',
  ),
};

/** The AssistantConfig fields after `model`, in the spec's order. */
const CONFIG_TAIL = {
  transcriber: v.optional(TranscriberCfgSchema, {}),
  voice: v.optional(VoiceCfgSchema, {}),
  builtin: v.optional(BuiltinToolsSchema, {}),
  tool_ids: v.optional(listField(idField(), 64), []),
  knowledge_ids: v.optional(v.nullable(listField(idField(), 20)), null),
  analysis: v.optional(AnalysisCfgSchema, {}),
  advanced: v.optional(AdvancedCfgSchema, {}),
  variables: v.optional(variablesField(), {}),
  workflow_id: v.optional(v.nullable(idField()), null),
  setup: v.optional(v.nullable(SimpleSetupSchema), null),
};

/**
 * The full configuration a client sends (spec AssistantConfig). Every field is optional and
 * takes its default, because `config` replaces the whole configuration (spec PATCH rule).
 */
export const AssistantConfigSchema = strictDict({ ...CONFIG_HEAD_INPUT, model: v.optional(ModelCfgSchema, {}), ...CONFIG_TAIL });

/** The configuration as stored: no custom key (sealed beside it) and no `custom_key_set`. */
export const AssistantConfigStoredSchema = strictDict({
  ...CONFIG_HEAD,
  model: v.optional(ModelCfgStoredSchema, {}),
  ...CONFIG_TAIL,
});

/** The configuration as the API returns it, with `model.custom_key_set`. */
export const AssistantConfigViewSchema = strictDict({
  ...CONFIG_HEAD,
  model: v.optional(ModelCfgViewSchema, {}),
  ...CONFIG_TAIL,
});

/** A parsed, stored configuration: every field present, without the write-only key. */
export type AssistantConfig = v.InferOutput<typeof AssistantConfigStoredSchema>;

/** What a client may send as `config`. */
export type AssistantConfigInput = v.InferInput<typeof AssistantConfigSchema>;

/** What the API returns as `config`. */
export type AssistantConfigView = v.InferOutput<typeof AssistantConfigViewSchema>;

/** A config as {@link AssistantConfigSchema} outputs it, custom key included. */
type ParsedConfigInput = v.InferOutput<typeof AssistantConfigSchema>;

/**
 * Splits the write-only `model.custom_key` out of a parsed config and drops the ignored
 * `custom_key_set`, so the key can never reach storage or a response by accident.
 */
export function splitCustomKey(parsed: ParsedConfigInput): { config: AssistantConfig; customKey: string | undefined } {
  const { custom_key: customKey, custom_key_set: _ignored, ...model } = parsed.model;
  return { config: { ...parsed, model }, customKey };
}

/**
 * Validates a client's config (every problem at once, pydantic-style, loc under `loc`), then its
 * speech settings (language, transcription model, voices: `speech-settings.ts`), and returns it
 * with every default filled, plus the write-only custom key if one was sent.
 *
 * @example
 * const { config, customKey } = parseAssistantConfig(body.config, ['body', 'config']);
 */
export function parseAssistantConfig(input: unknown, loc: Loc): { config: AssistantConfig; customKey: string | undefined } {
  return completeAssistantConfig(parseWith(AssistantConfigSchema, input, loc), input, loc);
}

/**
 * The checks after the schema, for a config parsed inside a larger body (POST and PATCH
 * /assistants): the custom key split out, the speech defaults and settings (`input` is the config
 * as sent, to tell a left-out `transcriber.model` from a sent one), the size limit.
 */
export function completeAssistantConfig(
  parsed: ParsedConfigInput,
  input: unknown,
  loc: Loc,
): { config: AssistantConfig; customKey: string | undefined } {
  const { config: split, customKey } = splitCustomKey(parsed);
  const config = applySpeechDefaults(split, input);
  const speech = checkSpeechSettings(config, loc);
  if (speech.length > 0) throw new ValidationError(speech);
  checkConfigSize(config, loc);
  return { config, customKey };
}

/** Refuses (422 `value_error` at `loc`) a config whose JSON is over {@link MAX_CONFIG_BYTES}. */
export function checkConfigSize(config: AssistantConfig, loc: Loc): void {
  const bytes = new TextEncoder().encode(JSON.stringify(config)).length;
  if (bytes <= MAX_CONFIG_BYTES) return;
  throw new ValidationError([
    {
      loc,
      msg: `Value error, the config is ${bytes} bytes of JSON; at most ${MAX_CONFIG_BYTES} are allowed`,
      type: 'value_error',
      ctx: { error: 'config too large', max_bytes: MAX_CONFIG_BYTES },
    },
  ]);
}

/**
 * The largest config, as UTF-8 JSON once parsed (every field within its own bound can still add
 * up): 128 KiB keeps the assistant item far below DynamoDB's 400 KB item limit, with room for a
 * 30,000-character prompt in any script.
 */
export const MAX_CONFIG_BYTES = 128 * 1024;

/** Every setting at its default: what `{}` means, and the `blank` template. */
export function defaultAssistantConfig(): AssistantConfig {
  return parseAssistantConfig({}, []).config;
}

/** The config a response carries: the stored config plus whether a custom key is stored. */
export function toConfigView(config: AssistantConfig, customKeySet: boolean): AssistantConfigView {
  const { priority, race, fallback, ...head } = config.model;
  return { ...config, model: { ...head, custom_key_set: customKeySet, priority, race, fallback } };
}
