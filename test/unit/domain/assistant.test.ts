import { describe, expect, it } from 'vitest';
import { TEMPLATE_NAMES, parseCreateAssistantBody, parseUpdateAssistantBody } from '../../../shared/domain/assistant';
import { defaultAssistantConfig, toConfigView } from '../../../shared/domain/assistant-config';
import { ValidationError, type ValidationItem } from '../../../shared/errors';

const NOT_AN_OBJECT = 'Input should be a valid dictionary or object to extract fields from';

function caught(act: () => unknown): ValidationItem[] {
  try {
    act();
  } catch (error) {
    if (error instanceof ValidationError) return error.items;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

/** What a client gets from GET /assistants/{id} and may send back unchanged. */
function readBack() {
  return {
    id: 7,
    name: 'Front desk',
    is_default: true,
    created_at: '2026-11-22T09:21:23.123Z',
    updated_at: '2026-11-22T09:21:23.123Z',
    config: toConfigView(defaultAssistantConfig(), true),
  };
}

describe('parseCreateAssistantBody', () => {
  it('defaults to an unnamed receptionist with no config', () => {
    // Arrange / Act
    const input = parseCreateAssistantBody({});

    // Assert
    expect(input).toEqual({ name: '', template: 'receptionist', config: null });
  });

  it.each(TEMPLATE_NAMES)('accepts the %s template', (template) => {
    // Arrange / Act / Assert
    expect(parseCreateAssistantBody({ template }).template).toBe(template);
  });

  it('parses a full config with its defaults and splits the write-only key out', () => {
    // Arrange
    const body = { name: 'Sales', config: { model: { provider: 'custom', custom_url: 'https://llm.example.com', custom_key: 'sk-9' } } };

    // Act
    const input = parseCreateAssistantBody(body);

    // Assert
    expect(input.customKey).toBe('sk-9');
    expect(input.config).toEqual({
      ...defaultAssistantConfig(),
      model: { ...defaultAssistantConfig().model, provider: 'custom', custom_url: 'https://llm.example.com' },
    });
    expect(JSON.stringify(input.config)).not.toContain('sk-9');
  });

  it('accepts and ignores read-only fields sent back', () => {
    // Arrange
    const { id, is_default, created_at, updated_at } = readBack();

    // Act
    const input = parseCreateAssistantBody({ id, is_default, created_at, updated_at, name: 'Copy', config: null });

    // Assert
    expect(input).toEqual({ name: 'Copy', template: 'receptionist', config: null });
  });

  describe.each<[string, unknown, ValidationItem[]]>([
    [
      'a name of 121 characters',
      { name: 'n'.repeat(121) },
      [
        {
          loc: ['body', 'name'],
          msg: 'String should have at most 120 characters',
          type: 'string_too_long',
          input: 'n'.repeat(121),
          ctx: { max_length: 120 },
        },
      ],
    ],
    [
      'an unknown template',
      { template: 'dentist' },
      [
        {
          loc: ['body', 'template'],
          msg: "Input should be 'receptionist', 'scheduler', 'lead_qualifier', 'support' or 'blank'",
          type: 'literal_error',
          input: 'dentist',
          ctx: { expected: "'receptionist', 'scheduler', 'lead_qualifier', 'support' or 'blank'" },
        },
      ],
    ],
    [
      'an unknown field',
      { nam: 'x' },
      [{ loc: ['body', 'nam'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden', input: 'x' }],
    ],
    [
      'a config that is a list',
      { config: [] },
      [{ loc: ['body', 'config'], msg: NOT_AN_OBJECT, type: 'model_attributes_type', input: [] }],
    ],
    ['an array body', [], [{ loc: ['body'], msg: NOT_AN_OBJECT, type: 'model_attributes_type', input: [] }]],
    ['a string body', 'hello', [{ loc: ['body'], msg: NOT_AN_OBJECT, type: 'model_attributes_type', input: 'hello' }]],
    ['a null body', null, [{ loc: ['body'], msg: NOT_AN_OBJECT, type: 'model_attributes_type', input: null }]],
  ])('%s', (_name, body, expected) => {
    it('is a 422 with exactly these items', () => {
      // Arrange / Act / Assert
      expect(caught(() => parseCreateAssistantBody(body))).toEqual(expected);
    });
  });

  it('reports every invalid field of the body and its config at once', () => {
    // Arrange
    const body = {
      name: 5,
      config: {
        first_message: 7,
        model: { max_tokens: 10 },
        voice: { pronunciations: [{ word: 'x' }] },
        tool_ids: ['1'],
        advanced: { waivers: { consent: { version: 1.5 } }, redact: ['iban'] },
        variables: { a: 1 },
        knowledge_ids: 'none',
        zz: true,
      },
      extra: 1,
    };

    // Act
    const items = caught(() => parseCreateAssistantBody(body));

    // Assert
    expect(items.map((item) => [item.loc.join('.'), item.type])).toEqual([
      ['body.name', 'string_type'],
      ['body.config.first_message', 'string_type'],
      ['body.config.model.max_tokens', 'greater_than_equal'],
      ['body.config.voice.pronunciations.0.say', 'missing'],
      ['body.config.tool_ids.0', 'int_type'],
      ['body.config.knowledge_ids', 'list_type'],
      ['body.config.advanced.waivers.consent.version', 'int_from_float'],
      ['body.config.advanced.redact.0', 'literal_error'],
      ['body.config.variables.a', 'string_type'],
      ['body.config.zz', 'extra_forbidden'],
      ['body.extra', 'extra_forbidden'],
    ]);
  });

  it('bounds config variables to 100 entries of at most 1000 characters, and takes string or integer waivers', () => {
    // Arrange
    const variables = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`v${i}`, 'x']));
    const waivers = { consent: { signed_by: 'Ana', version: 2 } };

    // Act
    const tooMany = caught(() => parseCreateAssistantBody({ config: { variables } }));
    const tooLong = caught(() => parseCreateAssistantBody({ config: { variables: { a: 'x'.repeat(1001) } } }));
    const parsed = parseCreateAssistantBody({ config: { advanced: { waivers }, variables: { a: 'x'.repeat(1000) } } });

    // Assert
    expect(tooMany).toEqual([
      {
        loc: ['body', 'config', 'variables'],
        msg: 'Dictionary should have at most 100 items after validation, not 101',
        type: 'too_long',
        input: variables,
        ctx: { field_type: 'Dictionary', max_length: 100, actual_length: 101 },
      },
    ]);
    expect(tooLong.map((item) => [item.loc, item.type])).toEqual([[['body', 'config', 'variables', 'a'], 'string_too_long']]);
    expect(parsed.config?.advanced.waivers).toEqual(waivers);
  });
});

describe('parseUpdateAssistantBody', () => {
  it('a name-only update carries no config', () => {
    // Arrange / Act
    const input = parseUpdateAssistantBody({ name: 'Night line' });

    // Assert
    expect(input).toEqual({ name: 'Night line' });
  });

  it('an assistant read with GET can be sent back as is: read-only fields and custom_key_set are ignored', () => {
    // Arrange
    const body = readBack();

    // Act
    const input = parseUpdateAssistantBody(body);

    // Assert
    expect(input).toEqual({ name: 'Front desk', config: defaultAssistantConfig() });
  });

  it('a config replaces the whole configuration: settings left out return to their defaults', () => {
    // Arrange / Act
    const input = parseUpdateAssistantBody({ config: { advanced: { keep_days: 30 }, model: { custom_key: 'sk-new' } } });

    // Assert
    expect(input.config).toEqual({ ...defaultAssistantConfig(), advanced: { ...defaultAssistantConfig().advanced, keep_days: 30 } });
    expect(input.customKey).toBe('sk-new');
  });

  describe.each<[string, unknown, ValidationItem[]]>([
    [
      'an empty name',
      { name: '' },
      [
        {
          loc: ['body', 'name'],
          msg: 'String should have at least 1 character',
          type: 'string_too_short',
          input: '',
          ctx: { min_length: 1 },
        },
      ],
    ],
    [
      'a name of 121 characters',
      { name: 'n'.repeat(121) },
      [
        {
          loc: ['body', 'name'],
          msg: 'String should have at most 120 characters',
          type: 'string_too_long',
          input: 'n'.repeat(121),
          ctx: { max_length: 120 },
        },
      ],
    ],
    ['a null config', { config: null }, [{ loc: ['body', 'config'], msg: NOT_AN_OBJECT, type: 'model_attributes_type', input: null }]],
    [
      'an unknown field',
      { template: 'blank' },
      [{ loc: ['body', 'template'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden', input: 'blank' }],
    ],
    ['an array body', [{ name: 'x' }], [{ loc: ['body'], msg: NOT_AN_OBJECT, type: 'model_attributes_type', input: [{ name: 'x' }] }]],
  ])('%s', (_name, body, expected) => {
    it('is a 422 with exactly these items', () => {
      // Arrange / Act / Assert
      expect(caught(() => parseUpdateAssistantBody(body))).toEqual(expected);
    });
  });

  it.each([['x'], ['n'.repeat(120)]])('accepts a name of %#: 1 and 120 characters', (name) => {
    // Arrange / Act / Assert
    expect(parseUpdateAssistantBody({ name })).toEqual({ name });
  });
});
