import { createHash } from 'node:crypto';

/**
 * The web-call token (docs/api-tour.md "Web calls"): `wc_<callId>.<businessId>.<secret>`, minted by
 * `POST /calls/web` and redeemed once by the call engine's `/web/calls` socket. The call item keeps
 * only the token's SHA-256 (`web_token_hash`), as API keys are kept (`api-key.ts`), so a table read
 * never yields a usable token. The ids say which item to check; the hash is the credential.
 */

/** What a well-formed token says; anything else is refused before any read. */
const TOKEN_PATTERN = /^wc_(\d{1,16})\.(\d{1,16})\.([A-Za-z0-9_-]{43})$/;

/**
 * The token for a new web call; `random32` must be 32 bytes from a secure generator.
 *
 * @example
 * const token = mintWebCallToken(call.id, businessId, randomBytes(32));
 */
export function mintWebCallToken(callId: number, businessId: number, random32: Uint8Array): string {
  if (random32.length !== 32) throw new RangeError(`A web-call token needs 32 random bytes, got ${random32.length}.`);
  return `wc_${callId}.${businessId}.${Buffer.from(random32).toString('base64url')}`;
}

/** The call and business a token names, or undefined when it is not a well-formed web-call token. */
export function parseWebCallToken(token: string): { callId: number; businessId: number } | undefined {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return undefined;
  const callId = Number(match[1]);
  const businessId = Number(match[2]);
  if (!Number.isSafeInteger(callId) || !Number.isSafeInteger(businessId)) return undefined;
  return { callId, businessId };
}

/** Lowercase hex SHA-256 of the whole token string: what the call item stores as `web_token_hash`. */
export function hashWebCallToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
