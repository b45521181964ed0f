/**
 * How the sandbox OpenAI checks `Authorization: Bearer <key>`, as OpenAI does: a missing key and a
 * wrong key are both 401 `invalid_request_error`, the wrong one with code `invalid_api_key` and
 * the key masked in the message. The sandbox accepts one key: {@link SANDBOX_OPENAI_API_KEY}
 * unless it was started with another.
 */

/**
 * The key the local stack (`npm run dev`, scripts/local, test/support/call-stack.ts) gives every
 * OpenAI client pointed at the sandbox. Not a secret: the sandbox is loopback-only.
 */
export const SANDBOX_OPENAI_API_KEY = 'sk-sandbox';

/** OpenAI's error body for a refused key. */
export interface ApiKeyRefusal {
  status: 401;
  body: { error: { message: string; type: 'invalid_request_error'; param: null; code: 'invalid_api_key' | null } };
}

/** `sk-abc…wxyz` as OpenAI prints a wrong key: the first and last characters, stars between. */
function masked(key: string): string {
  if (key.length <= 8) return '*'.repeat(key.length);
  return `${key.slice(0, 4)}${'*'.repeat(Math.min(key.length - 8, 20))}${key.slice(-4)}`;
}

/** Undefined when `authorization` carries `expected`; else the 401 OpenAI would answer. */
export function apiKeyRefusal(authorization: string | undefined, expected: string): ApiKeyRefusal | undefined {
  const key = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (key === expected) return undefined;
  const message =
    key === undefined
      ? "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."
      : `Incorrect API key provided: ${masked(key.slice(0, 200))}. You can find your API key at https://platform.openai.com/account/api-keys.`;
  const code = key === undefined ? null : 'invalid_api_key';
  return { status: 401, body: { error: { message, type: 'invalid_request_error', param: null, code } } };
}
