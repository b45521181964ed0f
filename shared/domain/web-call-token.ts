/**
 * The web-call token (docs/api-tour.md "Web calls"): `wc_<callId>.<businessId>.<secret>`, minted by
 * `POST /calls/web` and redeemed once by the call engine's `/web/calls` socket. The call item keeps
 * only the token's SHA-256 (`web_token_hash`), so a table read never yields a usable token. The ids
 * in the token say which item to check; the hash is the credential.
 *
 * Pure on purpose: the API and the media service share it, and `shared/domain` imports no Node
 * module, so SHA-256 is written out here (FIPS 180-4) rather than taken from `node:crypto`; the
 * unit test checks it against `node:crypto`. Tokens are ~70 bytes, so speed does not matter.
 */

/** What a well-formed token says; anything else is refused before any read. */
const TOKEN_PATTERN = /^wc_(\d{1,16})\.(\d{1,16})\.([A-Za-z0-9_-]{43})$/;

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * The token for a new web call: `random32` must be 32 bytes from a secure generator (the caller
 * owns randomness, so this stays pure).
 *
 * @example
 * const token = mintWebCallToken(call.id, businessId, randomBytes(32));
 */
export function mintWebCallToken(callId: number, businessId: number, random32: Uint8Array): string {
  if (random32.length !== 32) throw new RangeError(`A web-call token needs 32 random bytes, got ${random32.length}.`);
  return `wc_${callId}.${businessId}.${base64url(random32)}`;
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

/** Lowercase hex SHA-256 of the whole token string (UTF-8): what the call item stores as `web_token_hash`. */
export function hashWebCallToken(token: string): string {
  return toHex(sha256(new TextEncoder().encode(token)));
}

/** Unpadded base64url (RFC 4648 §5): 32 bytes give 43 characters. */
function base64url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i]!, bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += BASE64URL[(n >> 18) & 63]! + BASE64URL[(n >> 12) & 63]!;
    if (b !== undefined) out += BASE64URL[(n >> 6) & 63]!;
    if (c !== undefined) out += BASE64URL[n & 63]!;
  }
  return out;
}

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** SHA-256 round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 of `message` (FIPS 180-4): padding, then one compression per 64-byte block. */
function sha256(message: Uint8Array): Uint8Array {
  const blocks = Math.ceil((message.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(message);
  padded[message.length] = 0x80;
  const view = new DataView(padded.buffer);
  const bits = message.length * 8;
  view.setUint32(padded.length - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(padded.length - 4, bits >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  for (let block = 0; block < blocks; block++) compress(h, w, view, block * 64);
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  h.forEach((word, i) => outView.setUint32(i * 4, word));
  return out;
}

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

function compress(h: Uint32Array, w: Uint32Array, view: DataView, offset: number): void {
  for (let t = 0; t < 16; t++) w[t] = view.getUint32(offset + t * 4);
  for (let t = 16; t < 64; t++) {
    const s0 = rotr(w[t - 15]!, 7) ^ rotr(w[t - 15]!, 18) ^ (w[t - 15]! >>> 3);
    const s1 = rotr(w[t - 2]!, 17) ^ rotr(w[t - 2]!, 19) ^ (w[t - 2]! >>> 10);
    w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) >>> 0;
  }
  let [a, b, c, d, e, f, g, hh] = [h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!, h[7]!];
  for (let t = 0; t < 64; t++) {
    const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t]! + w[t]!) >>> 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
    [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
  }
  [a, b, c, d, e, f, g, hh].forEach((word, i) => (h[i] = (h[i]! + word) >>> 0));
}
