/**
 * The single-use token of a web call (docs/protocols.md "Web calls"): the API mints it with the
 * call, the media service redeems it when the browser's socket sends `start`. Only its SHA-256 is
 * stored (`web_token_hash`), so a read of the table never yields a usable token.
 *
 * Pure on purpose (shared/domain imports no `node:crypto`): the 32 random bytes come in from the
 * caller, and SHA-256 is written out below (FIPS 180-4; checked against `node:crypto` in
 * test/unit/media/server/web-call-token.test.ts). A token is 124 bytes at most, so its speed is no concern.
 *
 * @example
 * ```ts
 * const token = mintWebCallToken(42, 7, randomBytes(32)); // 'wc_42.7.<43 base64url chars>'
 * parseWebCallToken(token);                                 // { callId: 42, businessId: 7 }
 * hashWebCallToken(token);                                  // 64 lowercase hex chars
 * ```
 */

/** `wc_<callId>.<businessId>.<secret>`: ids of 1–16 digits, the secret 32 bytes in base64url (43 chars). */
const TOKEN = /^wc_(\d{1,16})\.(\d{1,16})\.([A-Za-z0-9_-]{43})$/;

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The token of a new web call; `random32` must be 32 bytes from a cryptographic source. */
export function mintWebCallToken(callId: number, businessId: number, random32: Uint8Array): string {
  if (random32.length !== 32) throw new RangeError(`A web call token needs 32 random bytes, got ${random32.length}.`);
  return `wc_${callId}.${businessId}.${base64url(random32)}`;
}

/** The call and business a token names, or undefined for anything not shaped like one. */
export function parseWebCallToken(token: string): { callId: number; businessId: number } | undefined {
  const match = TOKEN.exec(token);
  if (!match) return undefined;
  const callId = Number(match[1]);
  const businessId = Number(match[2]);
  if (!Number.isSafeInteger(callId) || !Number.isSafeInteger(businessId)) return undefined;
  return { callId, businessId };
}

/** Lowercase hex SHA-256 of the whole token string (UTF-8): what the call item stores as `web_token_hash`. */
export function hashWebCallToken(token: string): string {
  return [...sha256(new TextEncoder().encode(token))].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Base64url without padding. */
function base64url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let c = 0; c < chars; c++) out += BASE64URL[(n >> (18 - 6 * c)) & 63];
  }
  return out;
}

/** SHA-256 round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = Uint32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** SHA-256 of `message` (FIPS 180-4), as 32 bytes. */
function sha256(message: Uint8Array): Uint8Array {
  const blocks = Math.ceil((message.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(message);
  padded[message.length] = 0x80;
  const view = new DataView(padded.buffer);
  const bits = message.length * 8;
  view.setUint32(padded.length - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(padded.length - 4, bits >>> 0);
  const h = Uint32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  for (let block = 0; block < blocks; block++) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block * 64 + t * 4);
    for (let t = 16; t < 64; t++) {
      const s0 = rotr(w[t - 15]!, 7) ^ rotr(w[t - 15]!, 18) ^ (w[t - 15]! >>> 3);
      const s1 = rotr(w[t - 2]!, 17) ^ rotr(w[t - 2]!, 19) ^ (w[t - 2]! >>> 10);
      w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as [number, number, number, number, number, number, number, number];
    for (let t = 0; t < 64; t++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t]! + w[t]!) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    const next = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i++) h[i] = (h[i]! + next[i]!) >>> 0;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]!);
  return out;
}
