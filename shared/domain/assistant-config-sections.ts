import * as v from 'valibot';
import { SETUP_ROLES, SETUP_TONES } from './setup-prompt';
import { DEEPGRAM_STT_MODELS, DEFAULT_OPENAI_STT_MODEL, OPENAI_STT_MODELS } from './speech-catalog';
import { intField, listField, numberField, readOnlyEcho, strictDict, stringField } from './validation';

/** ModelCfg `provider` values (spec): OpenAI, or any OpenAI-compatible endpoint at `custom_url`. */
export const MODEL_PROVIDERS = ['openai', 'custom'] as const;

/** TranscriberCfg `provider` values (spec). */
export const TRANSCRIBER_PROVIDERS = ['deepgram', 'openai'] as const;

/** AnalysisCfg `success_scale` values (spec); the scale decides the type of a call's `score`. */
export const SUCCESS_SCALES = ['pass_fail', 'score_10', 'descriptive'] as const;

/** StructuredField `type` values (spec): how analysis types an extracted value. */
export const STRUCTURED_TYPES = ['string', 'number', 'boolean', 'enum', 'date'] as const;

/** The plain-language setup that replaces a hand-written prompt (spec SimpleSetup). */
export const SimpleSetupSchema = strictDict({
  role: v.optional(v.picklist(SETUP_ROLES), 'receptionist'),
  name: v.optional(stringField({ max: 40 }), ''),
  tone: v.optional(v.picklist(SETUP_TONES), 'friendly'),
  helps_with: v.optional(stringField({ max: 1500, lines: true }), ''),
  always: v.optional(stringField({ max: 1500, lines: true }), ''),
  never: v.optional(stringField({ max: 1500, lines: true }), ''),
});

/** A parsed SimpleSetup; every field present. */
export type SimpleSetup = v.InferOutput<typeof SimpleSetupSchema>;

/** The ModelCfg fields every form shares, in the spec's order around `custom_key_set`. */
const MODEL_HEAD = {
  provider: v.optional(v.picklist(MODEL_PROVIDERS), 'openai'),
  model: v.optional(stringField({ max: 80 }), 'gpt-5.6-luna'),
  temperature: v.optional(numberField({ ge: 0, le: 1.5 }), 0.4),
  max_tokens: v.optional(intField({ ge: 40, le: 2000 }), 300),
  custom_url: v.optional(stringField({ max: 300 }), ''),
};
/**
 * `model.fallback`: the model that answers for the rest of a call once the assistant's model fails
 * (docs/design.md "Provider faults"). Not in the spec; its fields follow ModelCfg's.
 */
export const ModelFallbackSchema = strictDict({
  provider: v.optional(v.picklist(MODEL_PROVIDERS), 'openai'),
  model: stringField({ min: 1, max: 80 }),
  custom_url: v.optional(
    v.pipe(
      stringField({ max: 300 }),
      v.metadata({
        description:
          "For provider custom: the OpenAI-compatible base URL. It is sent the assistant's stored custom_key when it is the assistant's own custom_url, else no key.",
      }),
    ),
    '',
  ),
});

const MODEL_TAIL = {
  priority: v.optional(v.boolean(), true),
  race: v.optional(v.boolean(), true),
  fallback: v.optional(
    v.pipe(
      v.nullable(ModelFallbackSchema),
      v.metadata({
        description:
          'The model that answers for the rest of a call once this one fails with a 5xx, 408 or 429, a connection error or a stall (no chunk for 3.5 s before the first, 1.5 s between two). Null (default): the caller hears the safety fallback line and the call ends `error`.',
      }),
    ),
    null,
  ),
};

/**
 * ModelCfg as a client sends it: `custom_key` is write-only (sealed with KMS, never returned),
 * and `custom_key_set`, which GET returns, is accepted and ignored so a read config can be sent back.
 */
export const ModelCfgSchema = strictDict({
  ...MODEL_HEAD,
  custom_key: v.optional(
    v.pipe(
      stringField({ max: 500 }),
      v.metadata({ writeOnly: true, description: 'API key of the custom model endpoint; write-only, never returned.' }),
    ),
  ),
  custom_key_set: readOnlyEcho(),
  ...MODEL_TAIL,
});

/** ModelCfg as stored: the key lives sealed beside the config, never inside it. */
export const ModelCfgStoredSchema = strictDict({ ...MODEL_HEAD, ...MODEL_TAIL });

/** ModelCfg as the API returns it: `custom_key_set` says whether a key is stored. */
export const ModelCfgViewSchema = strictDict({
  ...MODEL_HEAD,
  custom_key_set: v.optional(v.boolean(), false),
  ...MODEL_TAIL,
});

/** Speech-to-text settings (spec TranscriberCfg). */
export const TranscriberCfgSchema = strictDict({
  provider: v.optional(v.picklist(TRANSCRIBER_PROVIDERS), 'deepgram'),
  model: v.optional(
    v.pipe(
      stringField({ max: 60 }),
      v.metadata({
        description: `For deepgram: ${DEEPGRAM_STT_MODELS.join(', ')} (flux-general-en on a non-English assistant runs flux-general-multi). For openai: ${OPENAI_STT_MODELS.join(', ')} (default ${DEFAULT_OPENAI_STT_MODEL} when left out). Any other value is a 422.`,
      }),
    ),
    'flux-general-en',
  ),
  keyterms: v.optional(listField(stringField({ max: 100 }), 50), []),
  eot_threshold: v.optional(numberField({ ge: 0.5, le: 0.9 }), 0.7),
  eager: v.optional(v.boolean(), true),
});

/** One pronunciation rule: say `say` wherever the text has `word` (spec Pronounce). */
export const PronounceSchema = strictDict({
  word: stringField({ min: 1, max: 60 }),
  say: stringField({ min: 1, max: 120 }),
});

/** Text-to-speech settings (spec VoiceCfg). */
export const VoiceCfgSchema = strictDict({
  voice_id: v.optional(
    v.pipe(
      stringField({ max: 80 }),
      v.metadata({
        description:
          'A Deepgram Aura-2 voice (aura-2-<name>-<language>) speaking the assistant\'s language; empty for the language\'s default voice (docs/design.md "Languages").',
      }),
    ),
    '',
  ),
  speed: v.optional(numberField({ ge: 0.7, le: 1.2 }), 1.0),
  volume: v.optional(numberField({ ge: 0.5, le: 1.5 }), 1.0),
  read_titles: v.optional(v.boolean(), true),
  pronunciations: v.optional(listField(PronounceSchema, 100), []),
});

/**
 * Built-in tools the assistant may use. `sms` and `payment_links` default to false: nothing that
 * sends messages or money is on unless asked for (docs/design.md "Other rules", the machine-readable description).
 */
export const BuiltinToolsSchema = strictDict({
  booking: v.optional(v.boolean(), true),
  messages: v.optional(v.boolean(), true),
  transfer: v.optional(v.boolean(), true),
  sms: v.optional(v.boolean(), false),
  payment_links: v.optional(v.boolean(), false),
  knowledge: v.optional(v.boolean(), true),
  end_call: v.optional(v.boolean(), true),
  email_caller: v.optional(v.boolean(), true),
  team_messages: v.optional(v.boolean(), true),
});

/** One value the analysis extracts from a finished call (spec StructuredField). */
export const StructuredFieldSchema = strictDict({
  name: stringField({ max: 60, pattern: /^[A-Za-z_][A-Za-z0-9_]*$/ }),
  type: v.optional(v.picklist(STRUCTURED_TYPES), 'string'),
  description: v.optional(stringField({ max: 300, lines: true }), ''),
  options: v.optional(listField(stringField({ max: 100 }), 30), []),
});

/** A parsed StructuredField; every field present. */
export type StructuredField = v.InferOutput<typeof StructuredFieldSchema>;

/** Post-call analysis settings (spec AnalysisCfg). */
export const AnalysisCfgSchema = strictDict({
  summary_prompt: v.optional(stringField({ max: 2000, lines: true }), ''),
  success_rubric: v.optional(stringField({ max: 2000, lines: true }), ''),
  success_scale: v.optional(v.picklist(SUCCESS_SCALES), 'score_10'),
  structured: v.optional(listField(StructuredFieldSchema, 40), []),
});
