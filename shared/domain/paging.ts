import * as v from 'valibot';
import { ValidationError, type ValidationItem } from '../errors';
import { MAX_ID, intField, strictDict, stringField } from './validation';
import { issuesToItems, parseIntString } from './validation-errors';

/**
 * The deepest `offset` GET /assistants, /messages and /bookings serve (GET /calls has no bound:
 * see {@link uncappedOffsetField}). DynamoDB cannot skip items without reading them; walk further
 * with `cursor`, which costs one page whatever the depth.
 */
export const MAX_LIST_OFFSET = 1000;

/**
 * The most items a filtered list examines for one page: a filter (`status`, `urgent`, …) is applied
 * after DynamoDB reads, so a rare match could otherwise read a whole partition in one request. A
 * page that reaches the bound ends early with `has_more` and a `next_cursor` that continues the
 * search; it may hold fewer than `limit` items, even none.
 */
export const MAX_EXAMINED_PER_PAGE = 1000;

/**
 * The most bytes the items of one page may take in the Lambda response, measured as they travel:
 * each item's JSON, escaped once more inside the JSON string that carries the body (API Gateway's
 * Lambda proxy payload), in UTF-8. Lambda refuses a response over 6 MB (6,291,456 bytes) with a
 * 5xx; 4 MiB leaves about 2 MB for the page's own fields and the headers. An assistant config is
 * at most 128 KiB of JSON, at most twice that once escaped, so a page always holds at least 16.
 */
export const MAX_PAGE_BYTES = 4 * 1024 * 1024;

/** A cursor as this service writes it: base64url key, a dot, base64url HMAC. */
const CURSOR_PATTERN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** `cursor`: opaque, the `next_cursor` of the page before (its meaning is checked where it is opened). */
export function cursorField() {
  return v.pipe(
    stringField({ min: 1, max: 2048, pattern: CURSOR_PATTERN }),
    v.description('The `next_cursor` of the previous page, unchanged; the other parameters must be the same as for that page.'),
  );
}

/** `limit` (1..`max`, `fallback` when absent) and `cursor` of a list paged by cursor only. */
export function cursorPageFields(max: number, fallback: number) {
  return { limit: v.optional(intField({ ge: 1, le: max }), fallback), cursor: v.optional(cursorField()) };
}

/** {@link cursorPageFields} plus `offset` (0..{@link MAX_LIST_OFFSET}), kept where a list had it. */
export function pageQueryFields(max: number, fallback: number) {
  return { ...cursorPageFields(max, fallback), offset: v.optional(intField({ ge: 0, le: MAX_LIST_OFFSET }), 0) };
}

/** GET /calls `offset` (spec: at least 0): no upper bound; skipping N calls reads N keys (docs/api-tour.md "Paging"). */
export function uncappedOffsetField() {
  return v.optional(intField({ ge: 0 }), 0);
}

/** `next_cursor` of a page: null on the last one. */
export function nextCursorField() {
  return v.pipe(
    v.nullable(v.string()),
    v.description('Pass as `cursor` for the next page (with the same filters); null when `has_more` is false.'),
  );
}

/** One page of a list route that keeps `offset` (`{data, limit, offset, has_more, next_cursor}`, docs/design.md "Response shapes"). */
export function pageSchema<const S extends v.GenericSchema>(item: S) {
  return strictDict({
    data: v.array(item),
    limit: intField({ ge: 1, le: 200 }),
    offset: intField({ ge: 0, le: MAX_ID }),
    has_more: v.boolean(),
    next_cursor: nextCursorField(),
  });
}

/** A page of a list paged by cursor: `{data, has_more, next_cursor}`. */
export function cursorPageSchema<const S extends v.GenericSchema>(item: S) {
  return strictDict({ data: v.array(item), has_more: v.boolean(), next_cursor: nextCursorField() });
}

/**
 * The default and the largest `limit` of the lists paged by cursor only (tools, workflows,
 * knowledge bases and documents, phone numbers): each business has at most 100 of most of them,
 * so a client that sends no `limit` still gets them all in one page (byte budget permitting).
 */
export const MAX_CURSOR_PAGE = 200;

/** The query of a list paged by cursor only: `limit` and `cursor`. */
export const CursorListQuerySchema = v.object(cursorPageFields(MAX_CURSOR_PAGE, MAX_CURSOR_PAGE));

/** Parses a cursor-only list's query strings (422 items at `['query', name]`, unknown parameters included). */
export function parseCursorListQuery(query: Record<string, string | undefined>): v.InferOutput<typeof CursorListQuerySchema> {
  return parseListQuery(CursorListQuerySchema, new Set(['limit']), query);
}

/** The 422 item for a request with both `offset` and `cursor`: the cursor already holds the position. */
export function offsetWithCursorItems(
  values: { offset?: number; cursor?: string },
  query: Record<string, string | undefined>,
): ValidationItem[] {
  if (values.cursor === undefined || query.offset === undefined) return [];
  const error = 'offset and cursor cannot be used together: the cursor already holds the position';
  return [{ loc: ['query', 'cursor'], msg: `Value error, ${error}`, type: 'value_error', input: values.cursor, ctx: { error } }];
}

/** ISO 8601 date (`2026-11-26`) or UTC date-time with `Z` or an offset. */
const INSTANT_PATTERN = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** An instant in a query (a date means its midnight UTC); the pattern first, a real calendar date after it ({@link instantItems}). */
export function instantQueryField() {
  return v.pipe(stringField({ max: 40, pattern: INSTANT_PATTERN }), v.metadata({ examples: ['2026-11-26', '2026-11-26T09:00:00Z'] }));
}

/** `datetime_parsing` items for the `names` whose values match the pattern but name no real instant (`2026-02-30`). */
export function instantItems<N extends string>(values: Partial<Record<N, string>>, names: readonly N[]): ValidationItem[] {
  return names
    .filter((name) => values[name] !== undefined && !isRealInstant(values[name]))
    .map((name) => ({
      loc: ['query', name],
      msg: 'Input should be a valid date or datetime',
      type: 'datetime_parsing',
      input: values[name],
    }));
}

/** The 422 item for a window whose start is after its end (DynamoDB refuses such a key range). */
export function windowItems(start: { name: string; iso?: string }, end: { name: string; iso?: string }): ValidationItem[] {
  if (start.iso === undefined || end.iso === undefined || start.iso <= end.iso) return [];
  const error = `${start.name} must not be after ${end.name}`;
  return [{ loc: ['query', start.name], msg: `Value error, ${error}`, type: 'value_error', input: start.iso, ctx: { error } }];
}

/** A query instant (checked by {@link instantItems}) as the UTC ISO form keys use (`2026-11-26T09:00:00.000Z`). */
export function utcIso(value: string | undefined): string | undefined {
  return value === undefined ? undefined : new Date(value).toISOString();
}

/** A date or date-time that names a real instant (`2026-02-30` does not: JavaScript would roll it into March). */
function isRealInstant(value: string): boolean {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  const sameDay = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return sameDay && !Number.isNaN(Date.parse(value));
}

/** Items point at the raw string the client sent, as FastAPI reports query and path values. */
export function withRawInput(items: ValidationItem[], raw: (name: string) => string | undefined): ValidationItem[] {
  return items.map((item) => ({ ...item, input: raw(String(item.loc[1])) }));
}

/**
 * Parses a list's query strings: integers from strings for `intNames` (`int_parsing` otherwise),
 * then the bounds, then `check` on the parsed values; every problem at once, in parameter order,
 * loc `['query', name]`. An unknown parameter is an `extra_forbidden` item, as an unknown body
 * field is: a misspelt filter must not silently list everything.
 */
export function parseListQuery<S extends v.ObjectSchema<v.ObjectEntries, undefined>>(
  schema: S,
  intNames: ReadonlySet<string>,
  query: Record<string, string | undefined>,
  check: (parsed: v.InferOutput<S>) => ValidationItem[] = () => [],
): v.InferOutput<S> {
  const names = Object.keys(schema.entries);
  const items: ValidationItem[] = [];
  const values: Record<string, unknown> = {};
  for (const name of names) {
    const raw = query[name];
    if (raw === undefined) continue;
    const value = intNames.has(name) ? parseIntString(raw, ['query', name]) : raw;
    if (typeof value === 'object') items.push(value);
    else values[name] = value;
  }
  for (const [name, raw] of Object.entries(query)) {
    if (!names.includes(name))
      items.push({ loc: ['query', name], msg: 'Extra inputs are not permitted', type: 'extra_forbidden', input: raw });
  }
  const result = v.safeParse(schema, values, { abortPipeEarly: true });
  if (result.success) items.push(...check(result.output));
  if (result.success && items.length === 0) return result.output;
  if (!result.success) items.push(...withRawInput(issuesToItems(result.issues, ['query']), (name) => query[name]));
  const order = (item: ValidationItem) => (names.includes(String(item.loc[1])) ? names.indexOf(String(item.loc[1])) : names.length);
  throw new ValidationError(items.sort((a, b) => order(a) - order(b)));
}

/** Bytes `item` takes in a Lambda proxy response body (see {@link MAX_PAGE_BYTES}), with its separating comma. */
export function responseBytes(item: unknown): number {
  return new TextEncoder().encode(JSON.stringify(JSON.stringify(item))).length - 1;
}

/**
 * The longest run of `items` from the start whose {@link responseBytes} add up to at most
 * `budget`, and at least the first item, so paging always moves on.
 *
 * @example
 * const data = takeWithinBytes(views, MAX_PAGE_BYTES); // has_more when data.length < views.length
 */
export function takeWithinBytes<T>(items: readonly T[], budget: number): T[] {
  let used = 0;
  let count = 0;
  for (const item of items) {
    used += responseBytes(item);
    if (used > budget && count > 0) break;
    count++;
  }
  return items.slice(0, count);
}
