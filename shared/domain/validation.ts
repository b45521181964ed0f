import * as v from 'valibot';
import { isStorableNumber, MIN_STORABLE_MAGNITUDE } from './storable-json';

/**
 * The message our integer schemas give valibot's `number` type check. Valibot has no integer
 * type, so this marker is how {@link issuesToItems} tells pydantic's `int_type` from `float_type`.
 */
export const INT_TYPE_MESSAGE = 'Input should be a valid integer';

/** Largest integer a JSON number carries exactly; the implicit upper bound of every id. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

type Issue = v.BaseIssue<unknown>;

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
