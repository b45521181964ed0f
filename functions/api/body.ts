import type { Context } from 'hono';
import { PayloadTooLargeError, ValidationError } from '../../shared/errors';

/**
 * The largest JSON body the API reads: the biggest legitimate body is an assistant config
 * (at most 128 KiB once parsed), so 256 KiB leaves room for whitespace and escapes.
 */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * The deepest nesting a body may have. The deepest legitimate body (a config's structured-data
 * JSON Schema) is well under 20 levels; deeper input is refused before it is parsed, so neither
 * the parser nor the validators ever recurse on it.
 */
export const MAX_JSON_DEPTH = 64;

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
 * Reads a JSON request body. Malformed JSON, a non-JSON content type and nesting deeper than
 * {@link MAX_JSON_DEPTH} are 422 `json_invalid` (never a 500); a body over {@link MAX_BODY_BYTES}
 * is a 413. An empty body reads as `emptyAs` (POST /assistants accepts no body at all).
 */
export async function readJsonBody(c: Context, emptyAs: unknown): Promise<unknown> {
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
  const text = await c.req.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
  if (text.trim() === '') return emptyAs;
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw jsonInvalid(`Content-Type must be application/json, got "${type.slice(0, 100) || 'none'}"`);
  }
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) throw jsonInvalid(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw jsonInvalid(error instanceof Error ? error.message.slice(0, 200) : 'invalid JSON');
  }
}
