import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 30;
const CHECKSUM_LENGTH = 6;

/** Key prefixes: recognisable so secret scanners can find leaked keys (GitHub's token format). */
export type KeyEnvironment = 'live' | 'test';

const KEY_PATTERN = /^vk_(live|test)_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/;

function toBase62(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

/** The 6-character base62 CRC32 checksum of the key body (catches typos without a database read). */
export function keyChecksum(body: string): string {
  return toBase62(crc32(body), CHECKSUM_LENGTH);
}

/** A new API key: `vk_<env>_` + 30 base62 characters (~178 bits) + 6-character CRC32 checksum. */
export function generateApiKey(env: KeyEnvironment, random: (size: number) => Buffer = randomBytes): string {
  let body = '';
  while (body.length < BODY_LENGTH) {
    for (const byte of random(BODY_LENGTH)) {
      // 248 = 62 * 4: rejecting larger bytes keeps every character equally likely.
      if (byte < 248 && body.length < BODY_LENGTH) body += BASE62[byte % 62];
    }
  }
  return `vk_${env}_${body}${keyChecksum(`vk_${env}_${body}`)}`;
}

/** True when the key has the right shape and its checksum matches. */
export function isWellFormedApiKey(key: string): boolean {
  const match = KEY_PATTERN.exec(key);
  if (!match) return false;
  return keyChecksum(`vk_${match[1]}_${match[2]}`) === match[3];
}

/** SHA-256 hex of the key: the only form in which a key is ever stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** What ops see of a key: its first 12 characters, enough to revoke it, useless to an attacker. */
export function displayPrefix(key: string): string {
  return key.slice(0, 12);
}
