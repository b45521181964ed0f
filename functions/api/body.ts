import type { Context } from 'hono';
import { ValidationError } from '../../shared/errors';

/**
 * Reads a JSON request body. Malformed JSON and a non-JSON content type are 422 `json_invalid`
 * (never a 500). An empty body reads as `emptyAs` (POST /assistants accepts no body at all).
 */
export async function readJsonBody(c: Context, emptyAs: unknown): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return emptyAs;
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new ValidationError([
      {
        loc: ['body'],
        msg: 'JSON decode error',
        type: 'json_invalid',
        ctx: { error: `Content-Type must be application/json, got "${type || 'none'}"` },
      },
    ]);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ValidationError([
      {
        loc: ['body'],
        msg: 'JSON decode error',
        type: 'json_invalid',
        ctx: { error: error instanceof Error ? error.message : 'invalid JSON' },
      },
    ]);
  }
}
