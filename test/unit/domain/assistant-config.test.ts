import { describe, expect, it } from 'vitest';
import {
  AssistantConfigStoredSchema,
  defaultAssistantConfig,
  parseAssistantConfig,
  toConfigView,
} from '../../../shared/domain/assistant-config';
import { parseWith } from '../../../shared/domain/validation-errors';
import { ValidationError, type ValidationItem } from '../../../shared/errors';

const LOC = ['body', 'config'];
type Path = (string | number)[];

/** The spec's defaults, written out in full: parse of `{}` must equal this. */
const DEFAULTS = {
  first_message_mode: 'assistant_first',
  first_message: '',
  outbound_first_message: '',
  system_prompt: '',
  business_context: true,
  language: 'en',
  mode: 'standard',
  live_voice: 'marin',
  model: {
    provider: 'openai',
    model: 'gpt-5.6-luna',
    temperature: 0.4,
    max_tokens: 300,
    custom_url: '',
    priority: true,
    race: true,
    fallback: null,
  },
  transcriber: { provider: 'deepgram', model: 'flux-general-en', keyterms: [], eot_threshold: 0.7, eager: true },
  voice: { voice_id: '', speed: 1.0, volume: 1.0, read_titles: true, pronunciations: [] },
  builtin: {
    booking: true,
    messages: true,
    transfer: true,
    sms: false,
    payment_links: false,
    knowledge: true,
    end_call: true,
    email_caller: true,
    team_messages: true,
  },
  tool_ids: [],
  knowledge_ids: null,
  analysis: { summary_prompt: '', success_rubric: '', success_scale: 'score_10', structured: [] },
  advanced: {
    max_duration_s: 600,
    silence_timeout_s: 12,
    idle_messages: [],
    idle_max: 2,
    end_call_message: '',
    end_call_phrases: [],
    recording: true,
    recording_notice: true,
    ai_disclosure: true,
    waivers: {},
    interrupt_min_words: 1,
    background: 'off',
    voicemail_detection: true,
    voicemail_message: '',
    server_url: '',
    hipaa: false,
    memory: true,
    safety_fallback: true,
    fillers: true,
    interruptions: 'anytime',
    greeting_delay_ms: 0,
    greet_after_silence_s: 0,
    keypad: true,
    redact: [],
    keep_days: 0,
    server_events: [],
  },
  variables: {},
  workflow_id: null,
  setup: null,
};

/** A config input with `value` at `path`; numeric segments become one-item arrays around `item`. */
function at(path: Path, value: unknown, item: Record<string, unknown> = {}): Record<string, unknown> {
  return path.reduceRight<unknown>(
    (inner, key) => (typeof key === 'number' ? [{ ...item, ...(inner as object) }] : { [key]: inner }),
    value,
  ) as Record<string, unknown>;
}

function errorsOf(input: unknown): ValidationItem[] {
  try {
    parseAssistantConfig(input, LOC);
  } catch (error) {
    if (error instanceof ValidationError) return error.items;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('defaults', () => {
  it('parse of {} is the full default config', () => {
    // Arrange / Act
    const parsed = parseAssistantConfig({}, LOC);

    // Assert
    expect(parsed).toEqual({ config: DEFAULTS, customKey: undefined });
    expect(defaultAssistantConfig()).toEqual(DEFAULTS);
  });

  it.each(['model', 'transcriber', 'voice', 'builtin', 'analysis', 'advanced'])('an empty %s object takes its object defaults', (key) => {
    // Arrange / Act
    const { config } = parseAssistantConfig({ [key]: {} }, LOC);

    // Assert
    expect(config).toEqual(DEFAULTS);
  });

  it('fills setup and structured-field defaults; null and the nullable ids are accepted', () => {
    // Arrange / Act
    const filled = parseAssistantConfig({ setup: { role: 'scheduler' }, analysis: { structured: [{ name: 'caller_name' }] } }, LOC).config;
    const nulls = parseAssistantConfig({ setup: null, knowledge_ids: null, workflow_id: null }, LOC).config;
    const ids = parseAssistantConfig({ knowledge_ids: [3], workflow_id: 9, tool_ids: [1, 2] }, LOC).config;

    // Assert
    expect(filled.setup).toEqual({ role: 'scheduler', name: '', tone: 'friendly', helps_with: '', always: '', never: '' });
    expect(filled.analysis.structured).toEqual([{ name: 'caller_name', type: 'string', description: '', options: [] }]);
    expect(nulls).toEqual(DEFAULTS);
    expect([ids.knowledge_ids, ids.workflow_id, ids.tool_ids]).toEqual([[3], 9, [1, 2]]);
  });

  it('returns fresh objects: mutating one parse never leaks into the next', () => {
    // Arrange
    const first = defaultAssistantConfig();

    // Act
    first.tool_ids.push(1);
    first.advanced.waivers.x = { y: 1 };

    // Assert
    expect(defaultAssistantConfig()).toEqual(DEFAULTS);
  });
});

// [path, min, max, just below, just above, integer?]
const NUMERIC_BOUNDS: [Path, number, number, number, number, boolean][] = [
  [['model', 'temperature'], 0, 1.5, -0.01, 1.51, false],
  [['model', 'max_tokens'], 40, 2000, 39, 2001, true],
  [['transcriber', 'eot_threshold'], 0.5, 0.9, 0.49, 0.91, false],
  [['voice', 'speed'], 0.7, 1.2, 0.69, 1.21, false],
  [['voice', 'volume'], 0.5, 1.5, 0.49, 1.51, false],
  [['advanced', 'max_duration_s'], 30, 3600, 29, 3601, true],
  [['advanced', 'silence_timeout_s'], 5, 120, 4, 121, true],
  [['advanced', 'idle_max'], 1, 5, 0, 6, true],
  [['advanced', 'interrupt_min_words'], 1, 5, 0, 6, true],
  [['advanced', 'greeting_delay_ms'], 0, 3000, -1, 3001, true],
  [['advanced', 'greet_after_silence_s'], 0, 15, -1, 16, true],
  [['advanced', 'keep_days'], 0, 3650, -1, 3651, true],
];

describe.each(NUMERIC_BOUNDS)('%j bounds', (path, min, max, below, above, integer) => {
  it.each([min, max])('accepts %d', (value) => {
    // Arrange / Act
    const { config } = parseAssistantConfig(at(path, value), LOC);

    // Assert
    expect((config as unknown as Record<string, Record<string, unknown>>)[path[0]!]![path[1]!]).toBe(value);
  });

  it(`refuses ${below} with greater_than_equal and ${above} with less_than_equal`, () => {
    // Arrange / Act
    const low = errorsOf(at(path, below));
    const high = errorsOf(at(path, above));

    // Assert
    expect(low).toEqual([
      {
        loc: [...LOC, ...path],
        msg: `Input should be greater than or equal to ${min}`,
        type: 'greater_than_equal',
        input: below,
        ctx: { ge: min },
      },
    ]);
    expect(high).toEqual([
      {
        loc: [...LOC, ...path],
        msg: `Input should be less than or equal to ${max}`,
        type: 'less_than_equal',
        input: above,
        ctx: { le: max },
      },
    ]);
  });

  it('refuses a numeric string, and for an integer a fraction, without coercion', () => {
    // Arrange
    const cases: [unknown, string][] = integer
      ? [
          [String(min), 'int_type'],
          [min + 0.5, 'int_from_float'],
        ]
      : [[String(min), 'float_type']];

    // Act
    const types = cases.map(([value]) => errorsOf(at(path, value)).map((item) => item.type));

    // Assert
    expect(types).toEqual(cases.map(([, type]) => [type]));
  });
});

const WORD = { word: 'w', say: 's' };
// [path, max, sibling fields an item in an array needs, min]
const STRING_BOUNDS: [Path, number, Record<string, unknown>?, number?][] = [
  [['first_message'], 1000],
  [['outbound_first_message'], 1000],
  [['system_prompt'], 30_000],
  [['setup', 'name'], 40],
  [['setup', 'helps_with'], 1500],
  [['setup', 'always'], 1500],
  [['setup', 'never'], 1500],
  [['model', 'model'], 80],
  [['model', 'custom_url'], 300],
  [['model', 'custom_key'], 500],
  [['voice', 'pronunciations', 0, 'word'], 60, WORD, 1],
  [['voice', 'pronunciations', 0, 'say'], 120, WORD, 1],
  [['analysis', 'summary_prompt'], 2000],
  [['analysis', 'success_rubric'], 2000],
  [['analysis', 'structured', 0, 'name'], 60, {}],
  [['analysis', 'structured', 0, 'description'], 300, { name: 'f' }],
  [['advanced', 'end_call_message'], 300],
  [['advanced', 'voicemail_message'], 600],
  [['advanced', 'server_url'], 500],
  [['variables', 'greeting'], 1000],
];

describe.each(STRING_BOUNDS)('%j length', (path, max, item = {}) => {
  it(`accepts ${max} characters and refuses ${max + 1} with string_too_long`, () => {
    // Arrange
    const tooLong = 'a'.repeat(max + 1);

    // Act
    const valid = () => parseAssistantConfig(at(path, 'a'.repeat(max), item), LOC);
    const items = errorsOf(at(path, tooLong, item));

    // Assert
    expect(valid).not.toThrow();
    expect(items).toEqual([
      {
        loc: [...LOC, ...path],
        msg: `String should have at most ${max} characters`,
        type: 'string_too_long',
        input: tooLong,
        ctx: { max_length: max },
      },
    ]);
  });
});

// Speech settings hold only listed values (speech-settings.test.ts), so no valid value is at the bound.
describe.each([
  [['language'], 16],
  [['transcriber', 'model'], 60],
  [['voice', 'voice_id'], 80],
] as [Path, number][])('%j length', (path, max) => {
  it(`refuses ${max + 1} characters with string_too_long alone`, () => {
    // Arrange
    const tooLong = 'a'.repeat(max + 1);

    // Act
    const items = errorsOf(at(path, tooLong, {}));

    // Assert
    expect(items).toEqual([
      {
        loc: [...LOC, ...path],
        msg: `String should have at most ${max} characters`,
        type: 'string_too_long',
        input: tooLong,
        ctx: { max_length: max },
      },
    ]);
  });
});

describe.each(STRING_BOUNDS.filter((row) => row[3] === 1))('%j minimum', (path, _max, item = {}) => {
  it('refuses an empty string with string_too_short', () => {
    // Arrange / Act
    const items = errorsOf(at(path, '', item));

    // Assert
    expect(items).toEqual([
      {
        loc: [...LOC, ...path],
        msg: 'String should have at least 1 character',
        type: 'string_too_short',
        input: '',
        ctx: { min_length: 1 },
      },
    ]);
  });
});

// [path, max, a valid item, sibling fields of the enclosing array item]
const LIST_BOUNDS: [Path, number, unknown, Record<string, unknown>?][] = [
  [['transcriber', 'keyterms'], 50, 'appointment'],
  [['tool_ids'], 64, 1],
  [['voice', 'pronunciations'], 100, WORD],
  [['analysis', 'structured'], 40, { name: 'f' }],
  [['analysis', 'structured', 0, 'options'], 30, 'yes', { name: 'f' }],
  [['advanced', 'idle_messages'], 5, 'Still there?'],
  [['advanced', 'end_call_phrases'], 20, 'bye'],
  [['advanced', 'redact'], 5, 'card'],
  [['advanced', 'server_events'], 3, 'call.started'],
];

describe.each(LIST_BOUNDS)('%j items', (path, max, value, item) => {
  it(`accepts ${max} items and refuses ${max + 1} with too_long`, () => {
    // Arrange
    const tooMany = Array.from({ length: max + 1 }, () => value);

    // Act
    const valid = () => parseAssistantConfig(at(path, tooMany.slice(1), item), LOC);
    const items = errorsOf(at(path, tooMany, item));

    // Assert
    expect(valid).not.toThrow();
    expect(items).toEqual([
      {
        loc: [...LOC, ...path],
        msg: `List should have at most ${max} items after validation, not ${max + 1}`,
        type: 'too_long',
        input: tooMany,
        ctx: { field_type: 'List', max_length: max, actual_length: max + 1 },
      },
    ]);
  });
});

// [path, allowed values, pydantic's expected text]
const ENUMS: [Path, string[], string][] = [
  [
    ['first_message_mode'],
    ['assistant_first', 'wait_for_user', 'model_generated'],
    "'assistant_first', 'wait_for_user' or 'model_generated'",
  ],
  [['mode'], ['standard', 'live'], "'standard' or 'live'"],
  [['model', 'provider'], ['openai', 'custom'], "'openai' or 'custom'"],
  [['transcriber', 'provider'], ['deepgram', 'openai'], "'deepgram' or 'openai'"],
  [
    ['setup', 'role'],
    ['receptionist', 'scheduler', 'lead_qualifier', 'support'],
    "'receptionist', 'scheduler', 'lead_qualifier' or 'support'",
  ],
  [['setup', 'tone'], ['friendly', 'professional', 'relaxed'], "'friendly', 'professional' or 'relaxed'"],
  [['analysis', 'success_scale'], ['pass_fail', 'score_10', 'descriptive'], "'pass_fail', 'score_10' or 'descriptive'"],
  [
    ['analysis', 'structured', 0, 'type'],
    ['string', 'number', 'boolean', 'enum', 'date'],
    "'string', 'number', 'boolean', 'enum' or 'date'",
  ],
  [['advanced', 'background'], ['off', 'office'], "'off' or 'office'"],
  [['advanced', 'interruptions'], ['anytime', 'after_greeting', 'never'], "'anytime', 'after_greeting' or 'never'"],
  [['advanced', 'redact', 0], ['card', 'ssn', 'email', 'phone', 'dob'], "'card', 'ssn', 'email', 'phone' or 'dob'"],
  [
    ['advanced', 'server_events', 0],
    ['call.started', 'call.transferred', 'call.completed'],
    "'call.started', 'call.transferred' or 'call.completed'",
  ],
];

/** A value inside an array of scalars (redact, server_events) sits in a one-item list. */
function enumInput(path: Path, value: string): Record<string, unknown> {
  const last = path[path.length - 1];
  if (typeof last === 'number') return at(path.slice(0, -1), [value]);
  return at(path, value, path.includes('structured') ? { name: 'f' } : {});
}

describe.each(ENUMS)('%j values', (path, values, expected) => {
  it.each(values)('accepts %s', (value) => {
    // Arrange / Act / Assert
    expect(() => parseAssistantConfig(enumInput(path, value), LOC)).not.toThrow();
  });

  it('refuses anything else with literal_error', () => {
    // Arrange / Act
    const items = errorsOf(enumInput(path, 'nope'));

    // Assert
    expect(items).toEqual([
      { loc: [...LOC, ...path], msg: `Input should be ${expected}`, type: 'literal_error', input: 'nope', ctx: { expected } },
    ]);
  });
});

/** Every boolean of the default config, as a path. */
function booleanPaths(node: Record<string, unknown>, prefix: Path = []): Path[] {
  return Object.entries(node).flatMap(([key, value]) => {
    if (typeof value === 'boolean') return [[...prefix, key]];
    return value && typeof value === 'object' && !Array.isArray(value)
      ? booleanPaths(value as Record<string, unknown>, [...prefix, key])
      : [];
  });
}

describe.each(booleanPaths(DEFAULTS))('%j', (...path) => {
  it('refuses "true" with bool_type', () => {
    // Arrange / Act
    const items = errorsOf(at(path, 'true'));

    // Assert
    expect(items).toEqual([{ loc: [...LOC, ...path], msg: 'Input should be a valid boolean', type: 'bool_type', input: 'true' }]);
  });
});

describe('toConfigView', () => {
  it('adds custom_key_set after custom_url, and the view parses back to the same config', () => {
    // Arrange
    const stored = defaultAssistantConfig();

    // Act
    const view = toConfigView(stored, true);
    const echoed = parseAssistantConfig(view, LOC);

    // Assert
    expect(Object.keys(view.model)).toEqual([
      'provider',
      'model',
      'temperature',
      'max_tokens',
      'custom_url',
      'custom_key_set',
      'priority',
      'race',
      'fallback',
    ]);
    expect(view.model.custom_key_set).toBe(true);
    expect(echoed).toEqual({ config: stored, customKey: undefined });
    expect(parseWith(AssistantConfigStoredSchema, stored, [])).toEqual(stored);
  });
});

describe.each<[string, unknown, Path, unknown]>([
  ['an unknown top-level key', { temprature: 0.5 }, ['temprature'], 0.5],
  ['an unknown model key', { model: { temprature: 0.5 } }, ['model', 'temprature'], 0.5],
  ['an unknown key in a list item', { voice: { pronunciations: [{ ...WORD, lang: 'en' }] } }, ['voice', 'pronunciations', 0, 'lang'], 'en'],
  ['an unknown setup key', { setup: { persona: 'x' } }, ['setup', 'persona'], 'x'],
])('%s', (_name, input, path, value) => {
  it('is extra_forbidden with the value as input', () => {
    // Arrange / Act
    const items = errorsOf(input);

    // Assert
    expect(items).toEqual([{ loc: [...LOC, ...path], msg: 'Extra inputs are not permitted', type: 'extra_forbidden', input: value }]);
  });
});
