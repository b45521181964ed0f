import { hashWebCallToken } from './web-call-token';

/**
 * The listen token (docs/api-tour.md "Listening to a live call"): `wl_<callId>.<businessId>.<secret>`,
 * minted by `POST /calls/{id}/listen` and redeemed once by the call engine's `/web/listen` socket. As
 * with the web-call token, the call item keeps only its SHA-256 (`listen_token_hash`), so a table read
 * never yields a usable token; the prefix keeps one kind of token from ever opening the other socket.
 */

const TOKEN_PATTERN = /^wl_(\d{1,16})\.(\d{1,16})\.([A-Za-z0-9_-]{43})$/;

/**
 * The token for listening to a live call; `random32` must be 32 bytes from a secure generator.
 *
 * @example
 * const token = mintListenToken(call.id, businessId, randomBytes(32));
 */
export function mintListenToken(callId: number, businessId: number, random32: Uint8Array): string {
  if (random32.length !== 32) throw new RangeError(`A listen token needs 32 random bytes, got ${random32.length}.`);
  return `wl_${callId}.${businessId}.${Buffer.from(random32).toString('base64url')}`;
}

/** The call and business a token names, or undefined when it is not a well-formed listen token. */
export function parseListenToken(token: string): { callId: number; businessId: number } | undefined {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return undefined;
  const callId = Number(match[1]);
  const businessId = Number(match[2]);
  if (!Number.isSafeInteger(callId) || !Number.isSafeInteger(businessId)) return undefined;
  return { callId, businessId };
}

/** Lowercase hex SHA-256 of the whole token: what the call item stores as `listen_token_hash` (the web-call token's hash). */
export const hashListenToken = hashWebCallToken;
