import type { Context } from 'hono';
import { MAX_BODY_BYTES } from '../../shared/domain/api-limits';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../../shared/errors';

/**
 * The deepest nesting a body may have. The deepest legitimate body (a config's structured-data
 * JSON Schema) is well under 20 levels; deeper input is refused before it is parsed, so neither
 * the parser nor the validators ever recurse on it.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The longest list any body may hold. The longest legitimate list (pronunciations) has at most
 * 100 items; a longer one is refused before validation, so a 250 KB body of 100,000 list items
 * never costs 100,000 item validations.
 */
export const MAX_JSON_LIST_ITEMS = 1_000;

/** Where in `value` a list longer than `limit` is (its path and length), or null; iterative, like the depth scan. */
export function overlongList(value: unknown, limit: number): { path: (string | number)[]; length: number } | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (Array.isArray(next.value)) {
      if (next.value.length > limit) return { path: next.path, length: next.value.length };
      next.value.forEach((item, index) => stack.push({ value: item, path: [...next!.path, index] }));
    } else if (next.value !== null && typeof next.value === 'object') {
      for (const [key, item] of Object.entries(next.value)) stack.push({ value: item, path: [...next.path, key] });
    }
  }
  return null;
}

/** With the `u` flag a surrogate pair reads as one code point, so only a lone surrogate matches. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Where `value` holds a string or key that is not well-formed Unicode (a lone surrogate: JSON's
 * `"\ud800"` parses to one, and it is no character any client meant), or null.
 */
export function illFormedText(value: unknown): (string | number)[] | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (typeof next.value === 'string') {
      if (LONE_SURROGATE.test(next.value)) return next.path;
    } else if (Array.isArray(next.value)) {
      next.value.forEach((item, index) => stack.push({ value: item, path: [...next!.path, index] }));
    } else if (next.value !== null && typeof next.value === 'object') {
      for (const [key, item] of Object.entries(next.value)) {
        if (LONE_SURROGATE.test(key)) return next.path;
        stack.push({ value: item, path: [...next.path, key] });
      }
    }
  }
  return null;
}

/** `application/json` or a structured `+json` type (`application/merge-patch+json`, RFC 6839), any case. */
const JSON_MEDIA_TYPE = /^application\/(?:[a-z0-9!#$&^_.-]+\+)?json$/;

/**
 * Whether a `Content-Type` names JSON the API can read: `application/json` or any
 * `application/*+json`, with optional parameters; a `charset` must be `utf-8` (the body is read as
 * UTF-8, and RFC 8259 allows no other). Every route that reads a body checks it (else 415).
 *
 * @example
 * isJsonMediaType('application/merge-patch+json; charset=UTF-8'); // true
 * isJsonMediaType('application/x-www-form-urlencoded'); // false (what `curl -d` sends by default)
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const [type = '', ...parameters] = (contentType ?? '').toLowerCase().split(';');
  if (!JSON_MEDIA_TYPE.test(type.trim())) return false;
  return parameters.every((parameter) => {
    const [name = '', value = ''] = parameter.split('=');
    return name.trim() !== 'charset' || ['utf-8', '"utf-8"'].includes(value.trim());
  });
}

function jsonInvalid(error: string): ValidationError {
  return new ValidationError([{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid', ctx: { error } }]);
}

/**
 * How deep `text` nests arrays and objects, counted without recursion (brackets inside strings do
 * not count); stops as soon as `limit` is passed.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \ */) i++;
      else if (ch === 34 /* " */) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 123 /* { */ || ch === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (ch === 125 /* } */ || ch === 93 /* ] */) depth--;
  }
  return false;
}

/**
 * The request body as UTF-8 text, read chunk by chunk and abandoned as soon as it passes
 * `maxBytes` (413): a chunked upload with no Content-Length is never buffered past the limit.
 */
export async function readBoundedText(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new PayloadTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** RFC 7396 JSON Merge Patch: a partial update (PATCH /assistants/{id} accepts it beside application/json). */
export const MERGE_PATCH_MEDIA_TYPE = 'application/merge-patch+json';

/** The request's media type, lower-cased and without parameters (`''` when none is sent). */
export function requestMediaType(c: Context): string {
  return (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/**

 * The body text of a request, read once: the idempotency middleware reads the body to fingerprint
 * it, and the route reads it again.
 */
const bodyTexts = new WeakMap<Request, Promise<string>>();

function bodyText(request: Request): Promise<string> {
  let text = bodyTexts.get(request);
  if (!text) {
    text = readBoundedText(request, MAX_BODY_BYTES);
    bodyTexts.set(request, text);
  }
  return text;
}

/**
 * Reads a JSON request body. A body whose `Content-Type` is not JSON ({@link isJsonMediaType}, a
 * missing one included) or, when `mediaTypes` is given, not one of them, is a 415; malformed JSON,
 * nesting deeper than {@link MAX_JSON_DEPTH} and a lone surrogate are 422 `json_invalid` (never a
 * 500); a body over {@link MAX_BODY_BYTES} is a 413. An empty body reads as `emptyAs` whatever its
 * type (POST /assistants accepts no body at all).
 */
export async function readJsonBody(c: Context, emptyAs: unknown, mediaTypes?: readonly string[]): Promise<unknown> {
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
  const text = await bodyText(c.req.raw);
  if (text.trim() === '') return emptyAs;
  const type = c.req.header('content-type');
  if (!isJsonMediaType(type) || (mediaTypes && !mediaTypes.includes(requestMediaType(c)))) {
    throw new UnsupportedMediaTypeError(type ? `"${type.slice(0, 100)}"` : 'none');
  }
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) throw jsonInvalid(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw jsonInvalid(error instanceof Error ? error.message.slice(0, 200) : 'invalid JSON');
  }
  const illFormed = illFormedText(value);
  if (illFormed) {
    throw new ValidationError([
      {
        loc: ['body', ...illFormed],
        msg: 'JSON decode error',
        type: 'json_invalid',
        ctx: { error: 'lone surrogate in a \\u escape: not a character' },
      },
    ]);
  }
  const longList = overlongList(value, MAX_JSON_LIST_ITEMS);
  if (longList) {
    throw new ValidationError([
      {
        loc: ['body', ...longList.path],
        msg: `List should have at most ${MAX_JSON_LIST_ITEMS} items after validation, not ${longList.length}`,
        type: 'too_long',
        ctx: { field_type: 'List', max_length: MAX_JSON_LIST_ITEMS, actual_length: longList.length },
      },
    ]);
  }
  return value;
}
