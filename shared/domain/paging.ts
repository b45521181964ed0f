import * as v from 'valibot';
import { ValidationError, type ValidationItem } from '../errors';
import { intField, issuesToItems, parseIntString } from './validation';

/**
 * The deepest `offset` a list serves. DynamoDB cannot skip items without reading them, so an
 * offset costs reads: the bound keeps one request to at most ~1,200 items (older calls: narrow the
 * list with `assistant_id` or `direction`).
 */
export const MAX_LIST_OFFSET = 1000;

/**
 * The most bytes the items of one page may take in the Lambda response, measured as they travel:
 * each item's JSON, escaped once more inside the JSON string that carries the body (API Gateway's
 * Lambda proxy payload), in UTF-8. Lambda refuses a response over 6 MB (6,291,456 bytes) with a
 * 5xx; 4 MiB leaves about 2 MB for the page's own fields and the headers. An assistant config is
 * at most 128 KiB of JSON, at most twice that once escaped, so a page always holds at least 16.
 */
export const MAX_PAGE_BYTES = 4 * 1024 * 1024;

/** `limit` (1..`max`, `fallback` when absent) and `offset` (0..{@link MAX_LIST_OFFSET}) of a paged list. */
export function pageQueryFields(max: number, fallback: number) {
  return {
    limit: v.optional(intField({ ge: 1, le: max }), fallback),
    offset: v.optional(intField({ ge: 0, le: MAX_LIST_OFFSET }), 0),
  };
}

/** Items point at the raw string the client sent, as FastAPI reports query and path values. */
export function withRawInput(items: ValidationItem[], raw: (name: string) => string | undefined): ValidationItem[] {
  return items.map((item) => ({ ...item, input: raw(String(item.loc[1])) }));
}

/**
 * Parses a list's query strings: integers from strings for `intNames` (`int_parsing` otherwise),
 * then the bounds, then `check` on the parsed values; every problem at once, in parameter order, loc `['query', name]`. Unknown
 * parameters are ignored.
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
  const result = v.safeParse(schema, values, { abortPipeEarly: true });
  if (result.success) items.push(...check(result.output));
  if (result.success && items.length === 0) return result.output;
  if (!result.success) items.push(...withRawInput(issuesToItems(result.issues, ['query']), (name) => query[name]));
  const order = (item: ValidationItem) => names.indexOf(String(item.loc[1]));
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
