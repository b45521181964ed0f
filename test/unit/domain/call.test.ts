import { describe, expect, it } from 'vitest';
import {
  CALL_CHANNELS,
  CALL_DIRECTIONS,
  CALL_STATUSES,
  ENDED_REASONS,
  OUTCOMES,
  parseCreateCallBody,
  parseListCallsQuery,
} from '../../../shared/domain/call';
import { parseIdParam } from '../../../shared/domain/ids';
import { ValidationError, type ValidationItem } from '../../../shared/errors';

const E164 = '^\\+[1-9]\\d{1,14}$';
const INT_PARSING = 'Input should be a valid integer, unable to parse string as an integer';

function caught(act: () => unknown): ValidationItem[] {
  try {
    act();
  } catch (error) {
    if (error instanceof ValidationError) return error.items;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('call enums (docs/design.md "Resources")', () => {
  it('list every value in the documented order', () => {
    // Arrange / Act / Assert
    expect(CALL_STATUSES).toEqual(['queued', 'ringing', 'in_progress', 'ended']);
    expect(ENDED_REASONS).toEqual([
      'caller_hung_up',
      'assistant_ended',
      'end_phrase',
      'silence_timeout',
      'max_duration',
      'voicemail',
      'no_answer',
      'busy',
      'transferred',
      'failed',
      'error',
      'canceled',
    ]);
    expect(OUTCOMES).toEqual([
      'resolved',
      'unresolved',
      'appointment_booked',
      'message_taken',
      'transferred',
      'voicemail',
      'no_answer',
      'busy',
      'failed',
    ]);
    expect(CALL_DIRECTIONS).toEqual(['inbound', 'outbound']);
    expect(CALL_CHANNELS).toEqual(['phone', 'web']);
  });
});

describe('parseCreateCallBody', () => {
  it('fills phone_number_id and variables with their defaults', () => {
    // Arrange / Act
    const body = parseCreateCallBody({ assistant_id: 12, to: '+15550100002' });

    // Assert
    expect(body).toEqual({ assistant_id: 12, to: '+15550100002', phone_number_id: null, variables: {} });
  });

  it('keeps a phone number id and variables', () => {
    // Arrange
    const input = { assistant_id: 1, to: '+442071838750', phone_number_id: 3, variables: { first_name: 'Ana' } };

    // Act / Assert
    expect(parseCreateCallBody(input)).toEqual(input);
  });

  it.each([['+12'], ['+123456789012345']])('accepts %s (2 and 15 digits)', (to) => {
    // Arrange / Act / Assert
    expect(parseCreateCallBody({ assistant_id: 1, to }).to).toBe(to);
  });

  describe.each<[string, string]>([
    ['no plus', '15550100002'],
    ['a leading zero', '+05550100002'],
    ['16 digits', '+1234567890123456'],
    ['one digit', '+1'],
    ['spaces', '+1 555 010 0002'],
    ['a trailing newline', '+15550100002\n'],
  ])('`to` with %s', (_name, to) => {
    it('is string_pattern_mismatch with the E.164 pattern', () => {
      // Arrange / Act
      const items = caught(() => parseCreateCallBody({ assistant_id: 1, to }));

      // Assert
      expect(items).toEqual([
        {
          loc: ['body', 'to'],
          msg: `String should match pattern '${E164}'`,
          type: 'string_pattern_mismatch',
          input: to,
          ctx: { pattern: E164 },
        },
      ]);
    });
  });

  describe.each<[string, unknown, [string, string][]]>([
    [
      'an empty body',
      {},
      [
        ['body.assistant_id', 'missing'],
        ['body.to', 'missing'],
      ],
    ],
    ['a string assistant id', { assistant_id: '1', to: '+15550100002' }, [['body.assistant_id', 'int_type']]],
    ['assistant id 0', { assistant_id: 0, to: '+15550100002' }, [['body.assistant_id', 'greater_than_equal']]],
    ['phone_number_id 1.5', { assistant_id: 1, to: '+15550100002', phone_number_id: 1.5 }, [['body.phone_number_id', 'int_from_float']]],
    ['a number as to', { assistant_id: 1, to: 15550100002 }, [['body.to', 'string_type']]],
    ['variables as a list', { assistant_id: 1, to: '+15550100002', variables: ['a'] }, [['body.variables', 'dict_type']]],
    ['a non-string variable', { assistant_id: 1, to: '+15550100002', variables: { n: 1 } }, [['body.variables.n', 'string_type']]],
    [
      'a variable of 1001 characters',
      { assistant_id: 1, to: '+15550100002', variables: { n: 'x'.repeat(1001) } },
      [['body.variables.n', 'string_too_long']],
    ],
    ['an unknown field', { assistant_id: 1, to: '+15550100002', from: '+15550100001' }, [['body.from', 'extra_forbidden']]],
    [
      'every field wrong',
      { assistant_id: 'a', to: 'b', phone_number_id: 'c', variables: 'd', x: 1 },
      [
        ['body.assistant_id', 'int_type'],
        ['body.to', 'string_pattern_mismatch'],
        ['body.phone_number_id', 'int_type'],
        ['body.variables', 'dict_type'],
        ['body.x', 'extra_forbidden'],
      ],
    ],
    ['a list body', [], [['body', 'model_attributes_type']]],
  ])('%s', (_name, input, expected) => {
    it('reports exactly these fields', () => {
      // Arrange / Act
      const items = caught(() => parseCreateCallBody(input));

      // Assert
      expect(items.map((item) => [item.loc.join('.'), item.type])).toEqual(expected);
    });
  });

  it('accepts 100 variables and refuses 101 with too_long', () => {
    // Arrange
    const variables = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`v${i}`, 'x']));

    // Act
    const ok = parseCreateCallBody({ assistant_id: 1, to: '+15550100002', variables: variables(100) });
    const items = caught(() => parseCreateCallBody({ assistant_id: 1, to: '+15550100002', variables: variables(101) }));

    // Assert
    expect(Object.keys(ok.variables)).toHaveLength(100);
    expect(items.map((item) => [item.type, item.ctx])).toEqual([
      ['too_long', { field_type: 'Dictionary', max_length: 100, actual_length: 101 }],
    ]);
  });
});

describe('parseListCallsQuery', () => {
  describe.each<[string, Record<string, string | undefined>, object]>([
    ['no parameters', {}, { limit: 50, offset: 0 }],
    ['the smallest page', { limit: '1', offset: '0' }, { limit: 1, offset: 0 }],
    ['the largest page at a deep offset (no upper bound)', { limit: '200', offset: '100000' }, { limit: 200, offset: 100000 }],
    ['filters', { assistant_id: '12', direction: 'outbound' }, { limit: 50, offset: 0, assistant_id: 12, direction: 'outbound' }],
    ['inbound calls', { direction: 'inbound' }, { limit: 50, offset: 0, direction: 'inbound' }],
    [
      'a creation window',
      { created_after: '2026-11-01', created_before: '2026-12-01T00:00:00+01:00' },
      { limit: 50, offset: 0, created_after: '2026-11-01T00:00:00.000Z', created_before: '2026-11-30T23:00:00.000Z' },
    ],
    ['status and outcome', { status: 'ended', outcome: 'resolved' }, { limit: 50, offset: 0, status: 'ended', outcome: 'resolved' }],
  ])('%s', (_name, query, expected) => {
    it('parses to numbers with defaults', () => {
      // Arrange / Act / Assert
      expect(parseListCallsQuery(query)).toEqual(expected);
    });
  });

  describe.each<[string, Record<string, string>, ValidationItem]>([
    [
      'limit 0',
      { limit: '0' },
      {
        loc: ['query', 'limit'],
        msg: 'Input should be greater than or equal to 1',
        type: 'greater_than_equal',
        input: '0',
        ctx: { ge: 1 },
      },
    ],
    [
      'limit 201',
      { limit: '201' },
      {
        loc: ['query', 'limit'],
        msg: 'Input should be less than or equal to 200',
        type: 'less_than_equal',
        input: '201',
        ctx: { le: 200 },
      },
    ],
    ['limit abc', { limit: 'abc' }, { loc: ['query', 'limit'], msg: INT_PARSING, type: 'int_parsing', input: 'abc' }],
    ['limit 1.5', { limit: '1.5' }, { loc: ['query', 'limit'], msg: INT_PARSING, type: 'int_parsing', input: '1.5' }],
    ['an empty limit', { limit: '' }, { loc: ['query', 'limit'], msg: INT_PARSING, type: 'int_parsing', input: '' }],
    [
      'offset -1',
      { offset: '-1' },
      {
        loc: ['query', 'offset'],
        msg: 'Input should be greater than or equal to 0',
        type: 'greater_than_equal',
        input: '-1',
        ctx: { ge: 0 },
      },
    ],
    ['assistant_id x', { assistant_id: 'x' }, { loc: ['query', 'assistant_id'], msg: INT_PARSING, type: 'int_parsing', input: 'x' }],
    [
      'direction both',
      { direction: 'both' },
      {
        loc: ['query', 'direction'],
        msg: "Input should be 'inbound' or 'outbound'",
        type: 'literal_error',
        input: 'both',
        ctx: { expected: "'inbound' or 'outbound'" },
      },
    ],
  ])('%s', (_name, query, expected) => {
    it('is one 422 item', () => {
      // Arrange / Act / Assert
      expect(caught(() => parseListCallsQuery(query))).toEqual([expected]);
    });
  });

  it('reports every bad parameter at once, in parameter order', () => {
    // Arrange
    const query = { direction: 'sideways', assistant_id: '0', offset: 'x', limit: '500' };

    // Act
    const items = caught(() => parseListCallsQuery(query));

    // Assert
    expect(items.map((item) => [item.loc, item.type])).toEqual([
      [['query', 'limit'], 'less_than_equal'],
      [['query', 'offset'], 'int_parsing'],
      [['query', 'assistant_id'], 'greater_than_equal'],
      [['query', 'direction'], 'literal_error'],
    ]);
  });
});

describe('parseIdParam', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['9007199254740991', 9007199254740991],
  ])('%s is %d', (raw, expected) => {
    // Arrange / Act / Assert
    expect(parseIdParam(raw, 'assistant_id')).toBe(expected);
  });

  describe.each<[string, ValidationItem]>([
    ['abc', { loc: ['path', 'call_id'], msg: INT_PARSING, type: 'int_parsing', input: 'abc' }],
    ['1.0', { loc: ['path', 'call_id'], msg: INT_PARSING, type: 'int_parsing', input: '1.0' }],
    [
      '0',
      {
        loc: ['path', 'call_id'],
        msg: 'Input should be greater than or equal to 1',
        type: 'greater_than_equal',
        input: '0',
        ctx: { ge: 1 },
      },
    ],
    [
      '-4',
      {
        loc: ['path', 'call_id'],
        msg: 'Input should be greater than or equal to 1',
        type: 'greater_than_equal',
        input: '-4',
        ctx: { ge: 1 },
      },
    ],
    [
      '9007199254740992',
      {
        loc: ['path', 'call_id'],
        msg: 'Input should be less than or equal to 9007199254740991',
        type: 'less_than_equal',
        input: '9007199254740992',
        ctx: { le: 9007199254740991 },
      },
    ],
  ])('%j', (raw, expected) => {
    it('is one 422 item at the path parameter', () => {
      // Arrange / Act / Assert
      expect(caught(() => parseIdParam(raw, 'call_id'))).toEqual([expected]);
    });
  });
});
