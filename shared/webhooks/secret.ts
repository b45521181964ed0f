import { randomBytes as cryptoRandomBytes } from 'node:crypto';

/** The Standard Webhooks prefix of a symmetric signing secret. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** Bytes of key material we generate (256 bits; the spec asks for 24 to 64). */
export const WEBHOOK_SECRET_BYTES = 32;

const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A string that is not a usable `whsec_` secret; the message never contains the secret itself. */
export class InvalidWebhookSecretError extends Error {
  constructor(problem: string) {
    super(`invalid webhook secret: ${problem}`);
    this.name = 'InvalidWebhookSecretError';
  }
}

/**
 * A new per-business signing secret (docs/design.md "Webhooks"): `whsec_` + base64 of 32 random bytes. The random
 * source is injected so callers choose it (node:crypto in production) and tests can pin it.
 *
 * @example
 * generateWebhookSecret(randomBytes); // 'whsec_q3Jt…='
 */
export function generateWebhookSecret(randomBytes: (size: number) => Uint8Array = cryptoRandomBytes): string {
  const key = randomBytes(WEBHOOK_SECRET_BYTES);
  if (key.length !== WEBHOOK_SECRET_BYTES)
    throw new RangeError(`the random source returned ${key.length} bytes, not ${WEBHOOK_SECRET_BYTES}`);
  return `${WEBHOOK_SECRET_PREFIX}${Buffer.from(key).toString('base64')}`;
}

/**
 * The HMAC key inside a secret: the base64 after `whsec_`, decoded. Canonical padded base64 only
 * (Node's decoder silently skips bad characters, so the text is checked first) and 24–64 bytes,
 * the Standard Webhooks bounds.
 *
 * @throws InvalidWebhookSecretError for anything else.
 */
export function parseWebhookSecret(secret: string): Uint8Array {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) throw new InvalidWebhookSecretError(`missing the ${WEBHOOK_SECRET_PREFIX} prefix`);
  const encoded = secret.slice(WEBHOOK_SECRET_PREFIX.length);
  if (encoded === '' || !BASE64.test(encoded)) throw new InvalidWebhookSecretError('the key is not base64');
  const key = Buffer.from(encoded, 'base64');
  if (key.length < MIN_KEY_BYTES || key.length > MAX_KEY_BYTES) {
    throw new InvalidWebhookSecretError(`the key has ${key.length} bytes; ${MIN_KEY_BYTES} to ${MAX_KEY_BYTES} are allowed`);
  }
  return new Uint8Array(key);
}

/** True when {@link parseWebhookSecret} would accept the string. */
export function isWebhookSecret(secret: string): boolean {
  try {
    parseWebhookSecret(secret);
    return true;
  } catch {
    return false;
  }
}
