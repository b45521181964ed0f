import * as v from 'valibot';
import { ValidationError, type ValidationItem } from '../errors';
import { isStorableNumber, MIN_STORABLE_MAGNITUDE } from './storable-json';

/** Where a 422 item points: `body`, `query`, `path` or `header`, then keys and array indices. */
export type Loc = (string | number)[];

/**
 * The message our integer schemas give valibot's `number` type check. Valibot has no integer
 * type, so this marker is how {@link issuesToItems} tells pydantic's `int_type` from `float_type`.
 */
export const INT_TYPE_MESSAGE = 'Input should be a valid integer';

/** pydantic's message for a non-object where a model is expected (FastAPI's body check too). */
export const MODEL_ATTRIBUTES_MESSAGE = 'Input should be a valid dictionary or object to extract fields from';

const INT_PARSING_MESSAGE = 'Input should be a valid integer, unable to parse string as an integer';

/** Largest integer a JSON number carries exactly; the implicit upper bound of every id. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

type Issue = v.BaseIssue<unknown>;
type Described = Pick<ValidationItem, 'type' | 'msg' | 'ctx'>;

/**
 * An integer field with pydantic's strictness: "5" is `int_type`, 5.5 is `int_from_float`, and
 * the bounds are inclusive (`ge`/`le`), reported one at a time (parse with abortPipeEarly). A bound
 * left out is ±2^53 (`MAX_ID`): DynamoDB's document client refuses a larger number, and a value it
 * refuses would fail the whole save with a 500 (shared/domain/storable-json.ts).
 */
export function intField(bounds: { ge?: number; le?: number } = {}): v.GenericSchema<number> {
  const actions: v.GenericPipeAction<number>[] = [v.integer(), v.minValue(bounds.ge ?? -MAX_ID), v.maxValue(bounds.le ?? MAX_ID)];
  return actions.reduce<v.GenericSchema<number>>((schema, action) => v.pipe(schema, action), v.number(INT_TYPE_MESSAGE));
}

/** A positive id (ids are unique integers ≥ 1 across the service, docs/design.md "Response shapes"). */
export function idField(): v.GenericSchema<number> {
  return intField({ ge: 1, le: MAX_ID });
}

/**
 * A number field (integers accepted, as pydantic's float does) with inclusive bounds, and only
 * numbers DynamoDB can store (shared/domain/storable-json.ts): a bound left out is ±2^53, and a
 * range around 0 refuses the magnitudes under 1e-130 (0 itself is fine). One rule for every number
 * a client sends, so none can make a save fail with a 500.
 */
export function numberField(bounds: { ge?: number; le?: number } = {}): v.GenericSchema<number> {
  const ge = bounds.ge ?? -MAX_ID;
  const le = bounds.le ?? MAX_ID;
  const actions: v.GenericPipeAction<number>[] = [v.minValue(ge), v.maxValue(le)];
  if (ge < MIN_STORABLE_MAGNITUDE && le > -MIN_STORABLE_MAGNITUDE) actions.push(storableNearZero());
  return actions.reduce<v.GenericSchema<number>>((schema, action) => v.pipe(schema, action), v.number());
}

/**
 * DynamoDB's "Number underflow": no magnitude under 1e-130 but 0. A `check` (JSON Schema cannot
 * say "not in this open interval"; the OpenAPI conversion leaves checks out, the README says it).
 */
function storableNearZero(): v.GenericPipeAction<number> {
  return v.check(isStorableNumber, `a number this near 0 cannot be stored: send 0, or one at least ${MIN_STORABLE_MAGNITUDE} from it`);
}

/**
 * What every free text refuses (see {@link SINGLE_LINE_TEXT_PATTERN}) as a character-class body, for
 * a field pattern of its own; written as escapes, so the OpenAPI pattern stays readable.
 */
export const REFUSED_IN_TEXT = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069';

/** Tab, line feed and carriage return: refused in single-line text only. */
const LINE_BREAKS_AND_TABS = '\\u0009\\u000A\\u000D';

/**
 * The characters no free text may hold: C0 controls (NUL, ESC…), DEL, C1 controls, the Unicode
 * line and paragraph separators, and the bidi embedding, override and isolate controls
 * (U+202A-U+202E, U+2066-U+2069), which can reorder what follows them in a text or an email.
 * Text reaches SMS, emails and prompts, and a NUL once reached an SMS prefix. Multi-line text
 * (prompts, message bodies, notes) may also hold tab, line feed and carriage return.
 */
export const SINGLE_LINE_TEXT_PATTERN = new RegExp(`^[^${LINE_BREAKS_AND_TABS}${REFUSED_IN_TEXT}]*$`);

/** {@link SINGLE_LINE_TEXT_PATTERN} less tab (U+0009), line feed (U+000A) and carriage return (U+000D). */
export const MULTI_LINE_TEXT_PATTERN = new RegExp(`^[^${REFUSED_IN_TEXT}]*$`);

/**
 * `v.maxLength` counting characters (code points), as JSON Schema's `maxLength` and pydantic do:
 * an emoji is one character, not two UTF-16 units. Same type, so OpenAPI and error mapping see
 * `max_length`; the count is paid only for a string whose UTF-16 length is over the bound.
 */
function maxCharacters(max: number): v.MaxLengthAction<string, number, undefined> {
  return {
    ...v.maxLength<string, number>(max),
    '~run'(dataset, config) {
      if (dataset.typed && dataset.value.length > max) {
        const characters = codePoints(dataset.value);
        if (characters > max) v._addIssue(this, 'length', dataset, config, { received: `${characters}` });
      }
      return dataset;
    },
  };
}

function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/**
 * A string field: lengths in characters, then a pattern. Without a pattern of its own the field is
 * free text and gets {@link SINGLE_LINE_TEXT_PATTERN}, or {@link MULTI_LINE_TEXT_PATTERN} with
 * `lines: true`; a field's own pattern must refuse those characters itself.
 *
 * @example
 * stringField({ min: 1, max: 120 });                // a name: no control characters at all
 * stringField({ max: 30_000, lines: true });         // a prompt: tabs and line breaks too
 */
export function stringField(bounds: { min?: number; max?: number; pattern?: RegExp; lines?: boolean } = {}): v.GenericSchema<string> {
  const actions: v.GenericPipeAction<string>[] = [];
  if (bounds.min !== undefined) actions.push(v.minLength(bounds.min));
  if (bounds.max !== undefined) actions.push(maxCharacters(bounds.max));
  actions.push(v.regex(bounds.pattern ?? (bounds.lines ? MULTI_LINE_TEXT_PATTERN : SINGLE_LINE_TEXT_PATTERN)));
  return actions.reduce<v.GenericSchema<string>>((schema, action) => v.pipe(schema, action), v.string());
}

/** A list with at most `max` items; the length is checked only once every item is valid. */
export function listField<T>(item: v.GenericSchema<T>, max: number): v.GenericSchema<T[]> {
  return v.pipe(v.array(item), v.maxLength(max));
}

/**
 * A read-only field a client may echo back (`id`, timestamps, `custom_key_set`): accepted with
 * any value and ignored, so a resource read with GET can be sent back as is (docs/design.md "Errors").
 */
export function readOnlyEcho(description = 'Read-only; accepted and ignored on input.') {
  return v.optional(v.pipe(v.unknown(), v.metadata({ readOnly: true, description })));
}

/** An ISO 8601 UTC timestamp with milliseconds, as every resource carries (docs/design.md "Response shapes"). */
export function timestampField() {
  return v.pipe(v.string(), v.isoTimestamp(), v.metadata({ examples: ['2026-11-22T09:21:23.123Z'] }));
}

/** Valibot's object and record checks take arrays for objects; pydantic and JSON do not. */
function refuseArrays<S extends v.GenericSchema>(schema: S): S {
  return v._standardSchema({
    ...schema,
    '~run'(dataset: v.UnknownDataset, config: v.Config<Issue>) {
      if (!Array.isArray(dataset.value)) return schema['~run'](dataset, config);
      v._addIssue(schema, 'type', dataset, config);
      return dataset as unknown as v.OutputDataset<v.InferOutput<S>, Issue>;
    },
  } as unknown as Omit<S, '~standard'>);
}

/**
 * A strict object (unknown keys → `extra_forbidden`) that also refuses arrays. Every request
 * object is one, because a config replaces the whole configuration and a misspelled key would
 * otherwise reset a setting silently (docs/design.md "Errors").
 */
export function strictDict<const E extends v.ObjectEntries>(entries: E): v.StrictObjectSchema<E, undefined> {
  return refuseArrays(v.strictObject(entries));
}

/** An object that keeps unknown keys (JSON Schema objects, open metrics) and refuses arrays. */
export function looseDict<const E extends v.ObjectEntries>(entries: E): v.LooseObjectSchema<E, undefined> {
  return refuseArrays(v.looseObject(entries));
}

/**
 * An object whose other keys are data of any shape (a JSON Schema): the document says so
 * (`additionalProperties: {}`), so generated clients and strict checks accept them.
 */
export function openDict<const E extends v.ObjectEntries>(entries: E): v.ObjectWithRestSchema<E, v.UnknownSchema, undefined> {
  return refuseArrays(v.objectWithRest(entries, v.unknown()));
}

/** The longest key any request dictionary may have (variable names, waiver keys). */
export const MAX_DICT_KEY_CHARS = 100;

/**
 * A string-keyed dictionary (`dict_type` on anything else) with keys of 1 to
 * {@link MAX_DICT_KEY_CHARS} characters (DynamoDB refuses an empty map key: it was a 500 on save),
 * optionally with at most `maxEntries`.
 */
export function recordField<T>(value: v.GenericSchema<T>, maxEntries?: number): v.GenericSchema<Record<string, T>> {
  const record = refuseArrays(v.record(stringField({ min: 1, max: MAX_DICT_KEY_CHARS }), value));
  return maxEntries === undefined ? record : v.pipe(record, v.maxEntries(maxEntries));
}

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
