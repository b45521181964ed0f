import * as v from 'valibot';
import { ValidationError, type ValidationItem } from '../errors';
import { INT_TYPE_MESSAGE, MULTI_LINE_TEXT_PATTERN, SINGLE_LINE_TEXT_PATTERN, intField, strictDict } from './validation';

/** Where a 422 item points: `body`, `query`, `path` or `header`, then keys and array indices. */
export type Loc = (string | number)[];

/** pydantic's message for a non-object where a model is expected (FastAPI's body check too). */
export const MODEL_ATTRIBUTES_MESSAGE = 'Input should be a valid dictionary or object to extract fields from';

const INT_PARSING_MESSAGE = 'Input should be a valid integer, unable to parse string as an integer';

type Issue = v.BaseIssue<unknown>;
type Described = Pick<ValidationItem, 'type' | 'msg' | 'ctx'>;

function plural(count: unknown, word: string): string {
  return `${String(count)} ${word}${count === 1 ? '' : 's'}`;
}

/** pydantic's `'a', 'b' or 'c'`, from valibot's `("a" | "b" | "c")` expectation. */
function literalExpected(expects: string | null): string {
  const options = [...(expects ?? '').matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => `'${match[1]}'`);
  if (options.length <= 1) return options[0] ?? String(expects);
  return `${options.slice(0, -1).join(', ')} or ${options[options.length - 1]}`;
}

function tooLong(fieldType: 'List' | 'Dictionary', max: unknown, actual: number): Described {
  return {
    type: 'too_long',
    msg: `${fieldType} should have at most ${plural(max, 'item')} after validation, not ${actual}`,
    ctx: { field_type: fieldType, max_length: max, actual_length: actual },
  };
}

function describeLength(issue: Issue & { requirement?: unknown }): Described {
  const max = issue.type === 'max_length';
  const bound = issue.requirement;
  if (typeof issue.input === 'string') {
    return max
      ? { type: 'string_too_long', msg: `String should have at most ${plural(bound, 'character')}`, ctx: { max_length: bound } }
      : { type: 'string_too_short', msg: `String should have at least ${plural(bound, 'character')}`, ctx: { min_length: bound } };
  }
  const actual = Array.isArray(issue.input) ? issue.input.length : 0;
  if (max) return tooLong('List', bound, actual);
  return {
    type: 'too_short',
    msg: `List should have at least ${plural(bound, 'item')} after validation, not ${actual}`,
    ctx: { field_type: 'List', min_length: bound, actual_length: actual },
  };
}

function describeValidation(issue: Issue & { requirement?: unknown }): Described {
  const bound = issue.requirement;
  switch (issue.type) {
    case 'max_length':
    case 'min_length':
      return describeLength(issue);
    case 'max_entries':
      return tooLong('Dictionary', bound, Object.keys(issue.input as object).length);
    case 'min_value':
      return { type: 'greater_than_equal', msg: `Input should be greater than or equal to ${String(bound)}`, ctx: { ge: bound } };
    case 'max_value':
      return { type: 'less_than_equal', msg: `Input should be less than or equal to ${String(bound)}`, ctx: { le: bound } };
    case 'integer':
      return { type: 'int_from_float', msg: 'Input should be a valid integer, got a number with a fractional part' };
    case 'regex': {
      const pattern = bound instanceof RegExp ? bound.source : String(bound);
      if (bound === SINGLE_LINE_TEXT_PATTERN || bound === MULTI_LINE_TEXT_PATTERN) {
        const except = bound === MULTI_LINE_TEXT_PATTERN ? ' other than tabs and line breaks' : '';
        return { type: 'string_pattern_mismatch', msg: `String should have no control characters${except}`, ctx: { pattern } };
      }
      return { type: 'string_pattern_mismatch', msg: `String should match pattern '${pattern}'`, ctx: { pattern } };
    }
    default:
      return valueError(issue.message);
  }
}

const SCHEMA_TYPES: Readonly<Record<string, Described>> = {
  string: { type: 'string_type', msg: 'Input should be a valid string' },
  boolean: { type: 'bool_type', msg: 'Input should be a valid boolean' },
  array: { type: 'list_type', msg: 'Input should be a valid list' },
  record: { type: 'dict_type', msg: 'Input should be a valid dictionary' },
  strict_object: { type: 'model_attributes_type', msg: MODEL_ATTRIBUTES_MESSAGE },
  loose_object: { type: 'model_attributes_type', msg: MODEL_ATTRIBUTES_MESSAGE },
  object: { type: 'model_attributes_type', msg: MODEL_ATTRIBUTES_MESSAGE },
};

function describeSchema(issue: Issue): Described {
  if (issue.type === 'number') {
    return issue.message === INT_TYPE_MESSAGE
      ? { type: 'int_type', msg: INT_TYPE_MESSAGE }
      : { type: 'float_type', msg: 'Input should be a valid number' };
  }
  if (issue.type === 'picklist' || issue.type === 'literal') {
    const expected = literalExpected(issue.expected);
    return { type: 'literal_error', msg: `Input should be ${expected}`, ctx: { expected } };
  }
  return SCHEMA_TYPES[issue.type] ?? valueError(issue.message);
}

/** Longest message a value error repeats: a library's message can quote the input whole. */
const MAX_VALUE_ERROR_MESSAGE = 300;

/** A value error whose message (which may quote the input) is cut, so a 422 never echoes a huge value. */
function valueError(message: string): Described {
  const error = message.length > MAX_VALUE_ERROR_MESSAGE ? `${message.slice(0, MAX_VALUE_ERROR_MESSAGE)}…` : message;
  return { type: 'value_error', msg: `Value error, ${error}`, ctx: { error } };
}

const OBJECT_TYPES = new Set(['strict_object', 'loose_object', 'object']);

/** One issue as a pydantic item: type, msg, ctx and the offending input. */
function toItem(issue: Issue, loc: Loc): ValidationItem {
  const last = issue.path?.[issue.path.length - 1];
  if (last?.origin === 'key' && OBJECT_TYPES.has(issue.type)) {
    return issue.expected === 'never'
      ? { loc, msg: 'Extra inputs are not permitted', type: 'extra_forbidden', input: last.value }
      : { loc, msg: 'Field required', type: 'missing', input: last.input };
  }
  // A union fails as a whole only when every member rejects the type; report the first member.
  if (issue.type === 'union' && issue.issues?.[0]) return toItem({ ...issue.issues[0], path: issue.path }, loc);
  const described = issue.kind === 'validation' ? describeValidation(issue) : describeSchema(issue);
  // A pipe check sees the parsed value (defaults filled in); the client must see what it sent.
  const input = last ? last.value : issue.input;
  const item: ValidationItem = { loc, msg: described.msg, type: described.type, input };
  if (described.ctx) item.ctx = described.ctx;
  return item;
}

/** The loc of an issue: the prefix, then each object key and array index on its path. */
function issueLoc(issue: Issue, locPrefix: Loc): Loc {
  const loc: Loc = [...locPrefix];
  for (const step of issue.path ?? []) loc.push(typeof step.key === 'number' ? step.key : String(step.key));
  return loc;
}

/**
 * The most items a 422 lists: a small body can hold thousands of invalid fields, and a response
 * naming each would run to megabytes (past Lambda's 6 MB response limit). The first ones found
 * are enough to fix the request.
 */
export const MAX_VALIDATION_ITEMS = 50;

/**
 * Maps valibot issues to pydantic v2 items (docs/design.md "Errors": clients of the original service read
 * `type`, `msg` and `ctx`), one item per invalid field, in the order valibot found them, at most
 * {@link MAX_VALIDATION_ITEMS}.
 */
export function issuesToItems(issues: readonly Issue[], locPrefix: Loc): ValidationItem[] {
  const seen = new Set<string>();
  const items: ValidationItem[] = [];
  for (const issue of issues) {
    if (items.length === MAX_VALIDATION_ITEMS) break;
    const item = toItem(issue, issueLoc(issue, locPrefix));
    const key = JSON.stringify(item.loc);
    if (seen.has(key)) continue;
    seen.add(key);
    items.push(item);
  }
  return items;
}

/**
 * Parses `input` with every issue reported (abortEarly off) but one per field (abortPipeEarly
 * on, so a failed integer check never also reports the range).
 *
 * @example
 * const body = parseWith(CreateCallBodySchema, json, ['body']); // throws ValidationError (422)
 */
export function parseWith<S extends v.GenericSchema>(schema: S, input: unknown, locPrefix: Loc): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortEarly: false, abortPipeEarly: true });
  if (!result.success) throw new ValidationError(issuesToItems(result.issues, locPrefix));
  return result.output;
}

/** One 422 item, pydantic v2 style (spec Errors); documents {@link ValidationItem}. */
export const ValidationItemSchema = strictDict({
  loc: v.array(v.union([v.string(), intField()])),
  msg: v.string(),
  type: v.string(),
  input: v.optional(v.unknown()),
  ctx: v.optional(v.record(v.string(), v.unknown())),
});

/** The 422 body: every invalid field, one item each (docs/design.md "Errors"). */
export const HttpValidationErrorSchema = strictDict({ detail: v.array(ValidationItemSchema) });

/** The 422 item for a body that is not JSON; the HTTP layer builds it before any schema runs. */
export function jsonInvalidItem(error: string): ValidationItem {
  return { loc: ['body'], msg: 'JSON decode error', type: 'json_invalid', ctx: { error } };
}

/**
 * A query or path value as an integer, like FastAPI's lax int parsing of strings: optional
 * surrounding whitespace and sign, then digits. Anything else is an `int_parsing` item.
 */
export function parseIntString(raw: string, loc: Loc): number | ValidationItem {
  if (!/^\s*[+-]?\d+\s*$/.test(raw)) return { loc, msg: INT_PARSING_MESSAGE, type: 'int_parsing', input: raw };
  return Number(raw.trim());
}

/** The most characters of a client's input a 422 item echoes back. */
export const MAX_ECHOED_INPUT_CHARS = 100;

/**
 * What a 422 item may echo of the client's input: strings cut to {@link MAX_ECHOED_INPUT_CHARS}
 * (with "…"), and a list or object whose JSON would be longer replaced by a short description, so
 * an error is always small whatever was sent. Sizing never recurses: it walks the value with an
 * explicit stack and stops at the bound.
 */
export function boundedInput(value: unknown): unknown {
  if (typeof value === 'string') return value.length > MAX_ECHOED_INPUT_CHARS ? `${value.slice(0, MAX_ECHOED_INPUT_CHARS)}…` : value;
  if (value === null || typeof value !== 'object') return value;
  if (jsonFits(value, MAX_ECHOED_INPUT_CHARS)) return value;
  return Array.isArray(value) ? `<a list of ${value.length} items>` : `<an object with ${Object.keys(value).length} keys>`;
}

/** Whether `value`'s JSON takes at most `budget` characters (roughly: keys, strings and numbers counted). */
function jsonFits(value: object, budget: number): boolean {
  let used = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next !== null && typeof next === 'object') {
      const entries: unknown[] = Array.isArray(next) ? next : Object.entries(next).flat();
      used += 2 + entries.length;
      if (used > budget) return false;
      for (const entry of entries) pending.push(entry);
    } else {
      used += String(next).length + 2;
    }
    if (used > budget) return false;
  }
  return true;
}
