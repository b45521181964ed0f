import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { parseAddPhoneNumberInput } from '../../../shared/domain/phone-number';
import { parseCreateToolBody } from '../../../shared/domain/tool';
import {
  idField,
  intField,
  listField,
  looseDict,
  numberField,
  recordField,
  strictDict,
  stringField,
} from '../../../shared/domain/validation';
import { issuesToItems, jsonInvalidItem, parseIntString, parseWith } from '../../../shared/domain/validation-errors';
import { ValidationError, type ValidationItem } from '../../../shared/errors';

/** Every field kind the mapper must translate, in one schema. */
const Probe = strictDict({
  s: v.optional(stringField({ min: 1, max: 3 })),
  s1: v.optional(stringField({ max: 1 })),
  p: v.optional(stringField({ max: 10, pattern: /^[a-z]+$/ })),
  i: v.optional(intField({ ge: 1, le: 5 })),
  f: v.optional(numberField({ ge: 0.5, le: 1.5 })),
  b: v.optional(v.boolean()),
  e: v.optional(v.picklist(['a', 'b', 'c'])),
  e2: v.optional(v.picklist(['x', 'y'])),
  one: v.optional(v.literal('object')),
  l: v.optional(listField(v.string(), 2)),
  d: v.optional(recordField(v.string(), 2)),
  o: v.optional(strictDict({ req: v.string() })),
  u: v.optional(v.union([v.string(), intField()])),
  n: v.optional(v.nullable(idField())),
});

/** The items of the ValidationError `act` throws; fails the test when it throws none. */
function caught(act: () => unknown): ValidationItem[] {
  try {
    act();
  } catch (error) {
    if (error instanceof ValidationError) return error.items;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

function itemsFor(input: unknown, loc: (string | number)[] = ['body']): ValidationItem[] {
  return caught(() => parseWith(Probe, input, loc));
}

describe('issuesToItems: pydantic v2 vocabulary', () => {
  describe.each<[string, Record<string, unknown>, ValidationItem]>([
    ['string_type', { s: 5 }, { loc: ['body', 's'], msg: 'Input should be a valid string', type: 'string_type', input: 5 }],
    [
      'string_too_long',
      { s: 'abcd' },
      {
        loc: ['body', 's'],
        msg: 'String should have at most 3 characters',
        type: 'string_too_long',
        input: 'abcd',
        ctx: { max_length: 3 },
      },
    ],
    [
      'string_too_long (singular)',
      { s1: 'ab' },
      { loc: ['body', 's1'], msg: 'String should have at most 1 character', type: 'string_too_long', input: 'ab', ctx: { max_length: 1 } },
    ],
    [
      'string_too_short (singular)',
      { s: '' },
      { loc: ['body', 's'], msg: 'String should have at least 1 character', type: 'string_too_short', input: '', ctx: { min_length: 1 } },
    ],
    [
      'string_pattern_mismatch',
      { p: 'A1' },
      {
        loc: ['body', 'p'],
        msg: "String should match pattern '^[a-z]+$'",
        type: 'string_pattern_mismatch',
        input: 'A1',
        ctx: { pattern: '^[a-z]+$' },
      },
    ],
    ['int_type (string)', { i: '5' }, { loc: ['body', 'i'], msg: 'Input should be a valid integer', type: 'int_type', input: '5' }],
    ['int_type (boolean)', { i: true }, { loc: ['body', 'i'], msg: 'Input should be a valid integer', type: 'int_type', input: true }],
    [
      'int_from_float',
      { i: 2.5 },
      {
        loc: ['body', 'i'],
        msg: 'Input should be a valid integer, got a number with a fractional part',
        type: 'int_from_float',
        input: 2.5,
      },
    ],
    [
      'int_from_float, not also the range',
      { i: 9.5 },
      {
        loc: ['body', 'i'],
        msg: 'Input should be a valid integer, got a number with a fractional part',
        type: 'int_from_float',
        input: 9.5,
      },
    ],
    [
      'greater_than_equal',
      { i: 0 },
      { loc: ['body', 'i'], msg: 'Input should be greater than or equal to 1', type: 'greater_than_equal', input: 0, ctx: { ge: 1 } },
    ],
    [
      'less_than_equal',
      { i: 6 },
      { loc: ['body', 'i'], msg: 'Input should be less than or equal to 5', type: 'less_than_equal', input: 6, ctx: { le: 5 } },
    ],
    ['float_type', { f: '1' }, { loc: ['body', 'f'], msg: 'Input should be a valid number', type: 'float_type', input: '1' }],
    [
      'greater_than_equal (float bound)',
      { f: 0.49 },
      {
        loc: ['body', 'f'],
        msg: 'Input should be greater than or equal to 0.5',
        type: 'greater_than_equal',
        input: 0.49,
        ctx: { ge: 0.5 },
      },
    ],
    ['bool_type', { b: 'true' }, { loc: ['body', 'b'], msg: 'Input should be a valid boolean', type: 'bool_type', input: 'true' }],
    [
      'literal_error (3 options)',
      { e: 'z' },
      {
        loc: ['body', 'e'],
        msg: "Input should be 'a', 'b' or 'c'",
        type: 'literal_error',
        input: 'z',
        ctx: { expected: "'a', 'b' or 'c'" },
      },
    ],
    [
      'literal_error (2 options)',
      { e2: 'z' },
      { loc: ['body', 'e2'], msg: "Input should be 'x' or 'y'", type: 'literal_error', input: 'z', ctx: { expected: "'x' or 'y'" } },
    ],
    [
      'literal_error (1 option)',
      { one: 'array' },
      { loc: ['body', 'one'], msg: "Input should be 'object'", type: 'literal_error', input: 'array', ctx: { expected: "'object'" } },
    ],
    ['list_type', { l: 'a' }, { loc: ['body', 'l'], msg: 'Input should be a valid list', type: 'list_type', input: 'a' }],
    [
      'too_long (list)',
      { l: ['a', 'b', 'c'] },
      {
        loc: ['body', 'l'],
        msg: 'List should have at most 2 items after validation, not 3',
        type: 'too_long',
        input: ['a', 'b', 'c'],
        ctx: { field_type: 'List', max_length: 2, actual_length: 3 },
      },
    ],
    [
      'list item loc is its index',
      { l: ['a', 7] },
      { loc: ['body', 'l', 1], msg: 'Input should be a valid string', type: 'string_type', input: 7 },
    ],
    ['dict_type', { d: 'a' }, { loc: ['body', 'd'], msg: 'Input should be a valid dictionary', type: 'dict_type', input: 'a' }],
    ['dict_type (array)', { d: [] }, { loc: ['body', 'd'], msg: 'Input should be a valid dictionary', type: 'dict_type', input: [] }],
    [
      'too_long (dictionary)',
      { d: { a: '1', b: '2', c: '3' } },
      {
        loc: ['body', 'd'],
        msg: 'Dictionary should have at most 2 items after validation, not 3',
        type: 'too_long',
        input: { a: '1', b: '2', c: '3' },
        ctx: { field_type: 'Dictionary', max_length: 2, actual_length: 3 },
      },
    ],
    [
      'model_attributes_type (array)',
      { o: [] },
      {
        loc: ['body', 'o'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        type: 'model_attributes_type',
        input: [],
      },
    ],
    ['missing (input is the parent)', { o: {} }, { loc: ['body', 'o', 'req'], msg: 'Field required', type: 'missing', input: {} }],
    [
      'extra_forbidden (input is the value)',
      { o: { req: 'x', zz: [1] } },
      { loc: ['body', 'o', 'zz'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden', input: [1] },
    ],
    [
      'union: integer member',
      { u: 1.5 },
      {
        loc: ['body', 'u'],
        msg: 'Input should be a valid integer, got a number with a fractional part',
        type: 'int_from_float',
        input: 1.5,
      },
    ],
    [
      'union: no member matches the type',
      { u: false },
      { loc: ['body', 'u'], msg: 'Input should be a valid string', type: 'string_type', input: false },
    ],
    [
      'nullable id below 1',
      { n: 0 },
      { loc: ['body', 'n'], msg: 'Input should be greater than or equal to 1', type: 'greater_than_equal', input: 0, ctx: { ge: 1 } },
    ],
  ])('%s', (_name, input, expected) => {
    it('is one item with type, msg, ctx and input', () => {
      // Arrange / Act
      const items = itemsFor(input);

      // Assert
      expect(items).toEqual([expected]);
    });
  });

  it.each([[[]], ['text'], [null], [7]])('a non-object %j is model_attributes_type at the prefix', (input) => {
    // Arrange / Act
    const items = itemsFor(input, ['body']);

    // Assert
    expect(items).toEqual([
      { loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', type: 'model_attributes_type', input },
    ]);
  });

  it('reports every invalid field at once, in field order, one item each', () => {
    // Arrange
    const input = { zz: 1, s: 5, i: 'x', e: 'q', o: {} };

    // Act
    const items = itemsFor(input, ['body', 'config']);

    // Assert
    expect(items.map((item) => [item.loc, item.type])).toEqual([
      [['body', 'config', 's'], 'string_type'],
      [['body', 'config', 'i'], 'int_type'],
      [['body', 'config', 'e'], 'literal_error'],
      [['body', 'config', 'o', 'req'], 'missing'],
      [['body', 'config', 'zz'], 'extra_forbidden'],
    ]);
  });

  it('keeps only the first item for one loc', () => {
    // Arrange
    const issues = v.safeParse(v.object({ a: v.string() }), { a: 1 }).issues ?? [];

    // Act
    const items = issuesToItems([...issues, ...issues], ['query']);

    // Assert
    expect(items).toHaveLength(1);
  });

  it('parseWith returns the output when valid, nulls and open objects included', () => {
    // Arrange
    const open = looseDict({ type: v.literal('object') });

    // Act
    const probe = parseWith(Probe, { n: null, u: 3, d: { a: 'b' } }, ['body']);
    const loose = parseWith(open, { type: 'object', extra: 1 }, ['body']);

    // Assert
    expect(probe).toEqual({ n: null, u: 3, d: { a: 'b' } });
    expect(loose).toEqual({ type: 'object', extra: 1 });
  });
});

// (The offending `input` is cut where the 422 body is written; this is about the message.)
describe('issuesToItems: a value error never echoes a huge input', () => {
  it('cuts a library message that quotes the input to 300 characters', () => {
    // Arrange: valibot's own message for a failed custom check quotes the received value whole
    const schema = v.object({
      p: v.custom<object>(
        (input) => typeof input === 'object',
        (issue) => `Expected Object but received ${String(issue.received)}`,
      ),
    });
    const result = v.safeParse(schema, { p: 'x'.repeat(31_000) });
    // Act
    const [item] = issuesToItems(result.issues!, ['body']);
    // Assert
    expect(item!.type).toBe('value_error');
    expect(item!.msg.length).toBeLessThan(330);
    expect(String(item!.ctx?.error).length).toBeLessThan(310);
  });
});

describe('parseIntString', () => {
  describe.each<[string, number]>([
    ['0', 0],
    ['42', 42],
    [' 7 ', 7],
    ['+3', 3],
    ['-2', -2],
  ])('%j', (raw, expected) => {
    it(`is ${expected}`, () => {
      // Arrange / Act / Assert
      expect(parseIntString(raw, ['query', 'limit'])).toBe(expected);
    });
  });

  it.each([[''], ['abc'], ['1.5'], ['1e3'], ['0x10'], ['1 2']])('%j is int_parsing', (raw) => {
    // Arrange / Act
    const result = parseIntString(raw, ['query', 'limit']);

    // Assert
    expect(result).toEqual({
      loc: ['query', 'limit'],
      msg: 'Input should be a valid integer, unable to parse string as an integer',
      type: 'int_parsing',
      input: raw,
    });
  });
});

describe('jsonInvalidItem', () => {
  it('is a json_invalid item at body carrying the parser error', () => {
    // Arrange / Act
    const item = jsonInvalidItem('Unexpected token } in JSON at position 9');

    // Assert
    expect(item).toEqual({
      loc: ['body'],
      msg: 'JSON decode error',
      type: 'json_invalid',
      ctx: { error: 'Unexpected token } in JSON at position 9' },
    });
  });
});

describe('ops inputs (phone-number.ts, tool.ts)', () => {
  it('add-number fills its defaults and refuses a non-E.164 number', () => {
    // Arrange / Act
    const parsed = parseAddPhoneNumberInput({ number: '+15550100001' });
    const items = caught(() => parseAddPhoneNumberInput({ number: '5550100001', provider: 'carrier-pigeon' }));

    // Assert
    expect(parsed).toEqual({ number: '+15550100001', label: '', provider: 'sandbox', assistant_id: null });
    expect(items.map((item) => [item.loc, item.type])).toEqual([
      [['number'], 'string_pattern_mismatch'],
      [['provider'], 'literal_error'],
    ]);
  });

  it('a new tool gets its defaults, with a fresh parameters object each time', () => {
    // Arrange
    const input = { name: 'lookup_order', description: 'Looks up an order', server_url: 'https://example.com/tools' };

    // Act
    const first = parseCreateToolBody(input, []);
    const second = parseCreateToolBody(input, []);

    // Assert
    expect(first).toEqual({ ...input, parameters: { type: 'object', properties: {} }, timeout_ms: 10_000, filler: null });
    expect(first.parameters).not.toBe(second.parameters);
  });

  describe.each<[string, Record<string, unknown>, string, string]>([
    ['a name that is not a function name', { name: 'look up' }, 'name', 'string_pattern_mismatch'],
    ['a name of 65 characters', { name: 'a'.repeat(65) }, 'name', 'string_too_long'],
    ['a built-in name', { name: 'take_message' }, 'name', 'value_error'],
    ['a filler of 201 characters', { filler: 'f'.repeat(201) }, 'filler', 'string_too_long'],
    ['parameters that are not an object schema', { parameters: { type: 'array' } }, 'type', 'literal_error'],
    ['a timeout below 500 ms', { timeout_ms: 499 }, 'timeout_ms', 'greater_than_equal'],
    ['a timeout above 30 s', { timeout_ms: 30_001 }, 'timeout_ms', 'less_than_equal'],
    ['a description of 1001 characters', { description: 'd'.repeat(1001) }, 'description', 'string_too_long'],
  ])('a tool with %s', (_name, change, lastLoc, type) => {
    it(`is ${type}`, () => {
      // Arrange
      const input = { name: 'lookup_order', description: 'Looks up an order', server_url: 'https://example.com/tools', ...change };

      // Act
      const items = caught(() => parseCreateToolBody(input, ['tool']));

      // Assert
      expect(items).toHaveLength(1);
      expect(items[0]?.loc[0]).toBe('tool');
      expect(items[0]?.loc.at(-1)).toBe(lastLoc);
      expect(items[0]?.type).toBe(type);
    });
  });
});

describe('stringField bounds', () => {
  it('counts characters (code points), as JSON Schema and pydantic do: an emoji is one', () => {
    const field = stringField({ max: 3 });
    expect(v.safeParse(field, '😀😀😀').success).toBe(true);
    const over = v.safeParse(field, '😀😀a😀');
    expect(over.success).toBe(false);
    expect(over.issues?.[0]).toMatchObject({ type: 'max_length', received: '4' });
  });
});

describe('the storable-number rule (intField, numberField)', () => {
  const Numbers = strictDict({ n: v.optional(numberField()), p: v.optional(numberField({ ge: 0, le: 10 })), i: v.optional(intField()) });
  const itemFor = (input: Record<string, unknown>) => {
    const result = v.safeParse(Numbers, input, { abortPipeEarly: true });
    return result.success ? undefined : issuesToItems(result.issues, ['body'])[0];
  };

  it.each([
    [{ n: 1e300 }, 'less_than_equal'],
    [{ n: -1e17 }, 'greater_than_equal'],
    [{ n: 5e-324 }, 'value_error'],
    [{ p: 1e-200 }, 'value_error'],
    [{ i: 2 ** 60 }, 'less_than_equal'],
  ])('refuses %j (%s)', (input, type) => {
    expect(itemFor(input)).toMatchObject({ type });
  });

  it.each([{ n: 0 }, { n: 1e-130 }, { n: -9_007_199_254_740_991 }, { p: 0 }, { i: Number.MAX_SAFE_INTEGER }])('takes %j', (input) => {
    expect(itemFor(input)).toBeUndefined();
  });
});

describe('the free-text rule (stringField)', () => {
  const Text = strictDict({ one: v.optional(stringField({ max: 50 })), many: v.optional(stringField({ max: 50, lines: true })) });
  const itemFor = (input: Record<string, unknown>) => {
    const result = v.safeParse(Text, input, { abortPipeEarly: true });
    return result.success ? undefined : issuesToItems(result.issues, ['body'])[0];
  };

  it.each(['a\u0000b', 'a\nb', 'a\tb', 'a\rb', 'a\u001bb', 'a\u007fb', 'a\u0085b', 'a\u2028b', 'a\u2029b', 'a\u202eb', 'a\u2066b'])(
    'single-line text refuses %j',
    (text) => {
      expect(itemFor({ one: text })).toMatchObject({ type: 'string_pattern_mismatch', msg: 'String should have no control characters' });
    },
  );

  it.each(['a\u0000b', 'a\u000bb', 'a\u007fb', 'a\u0085b', 'a\u2028b', 'a\u202eb'])('multi-line text refuses %j', (text) => {
    expect(itemFor({ many: text })).toMatchObject({
      type: 'string_pattern_mismatch',
      msg: 'String should have no control characters other than tabs and line breaks',
    });
  });

  it('takes plain and right-to-left text, and tabs and line breaks where lines are allowed', () => {
    expect(itemFor({ one: 'Café ☕ — שלום\u200f', many: 'one\n\ttwo\r\nthree' })).toBeUndefined();
  });

  it('refuses an empty dictionary key (DynamoDB stores none)', () => {
    const result = v.safeParse(recordField(v.string()), { '': 'x' });
    expect(result.success).toBe(false);
  });
});
