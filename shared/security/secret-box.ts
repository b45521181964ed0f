import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Encrypts secrets we must be able to use again (webhook signing secrets, custom LLM keys), bound to
 * a context (business id + purpose) so a ciphertext copied to another business does not open.
 * Production uses KMS with the context as EncryptionContext; the local stack uses AES-256-GCM.
 */
export interface SecretBox {
  seal(plaintext: string, context: Record<string, string>): Promise<string>;
  open(sealed: string, context: Record<string, string>): Promise<string>;
}

function aad(context: Record<string, string>): Buffer {
  const sorted = Object.keys(context)
    .sort()
    .map((key) => `${key}=${context[key]}`)
    .join('&');
  return Buffer.from(sorted);
}

/** AES-256-GCM with the context as additional authenticated data; the key comes from config. */
export class LocalSecretBox implements SecretBox {
  private readonly key: Buffer;

  /** `secret` is any string (the local stack keeps one in its data folder); it is hashed to 32 bytes. */
  constructor(secret: string) {
    this.key = createHash('sha256').update(secret).digest();
  }

  async seal(plaintext: string, context: Record<string, string>): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(aad(context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `local:v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  async open(sealed: string, context: Record<string, string>): Promise<string> {
    const raw = Buffer.from(sealed.replace(/^local:v1:/, ''), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAAD(aad(context));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}

/** The minimal KMS surface the box needs (the AWS SDK KMSClient satisfies it via the adapter below). */
export interface KmsLike {
  encrypt(plaintext: Uint8Array, context: Record<string, string>): Promise<Uint8Array>;
  decrypt(ciphertext: Uint8Array, context: Record<string, string>): Promise<Uint8Array>;
}

/** KMS Encrypt/Decrypt with the context as EncryptionContext (a copied ciphertext will not open elsewhere). */
export class KmsSecretBox implements SecretBox {
  constructor(private readonly kms: KmsLike) {}

  async seal(plaintext: string, context: Record<string, string>): Promise<string> {
    const blob = await this.kms.encrypt(Buffer.from(plaintext, 'utf8'), context);
    return `kms:v1:${Buffer.from(blob).toString('base64')}`;
  }

  async open(sealed: string, context: Record<string, string>): Promise<string> {
    const blob = Buffer.from(sealed.replace(/^kms:v1:/, ''), 'base64');
    return Buffer.from(await this.kms.decrypt(blob, context)).toString('utf8');
  }
}

/**
 * Remembers what a box opened for a short time (default 5 minutes, at most 1,000 secrets), so a
 * busy webhook sender makes one KMS call per business every few minutes instead of one per
 * attempt (KMS bills and throttles per request). Only `open` is cached, keyed by the sealed text and
 * its context, so a rotated secret (a new sealed text) is used at once. The plaintext stays in this
 * process's memory for that long, no longer than the function instance that sends with it anyway.
 */
export class CachingSecretBox implements SecretBox {
  readonly #opened = new Map<string, { plaintext: string; until: number }>();

  constructor(
    private readonly inner: SecretBox,
    private readonly options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
  ) {}

  seal(plaintext: string, context: Record<string, string>): Promise<string> {
    return this.inner.seal(plaintext, context);
  }

  async open(sealed: string, context: Record<string, string>): Promise<string> {
    const now = (this.options.now ?? Date.now)();
    const key = `${aad(context).toString()}\n${sealed}`;
    const hit = this.#opened.get(key);
    if (hit && hit.until > now) return hit.plaintext;
    const plaintext = await this.inner.open(sealed, context);
    this.#opened.delete(key);
    this.#opened.set(key, { plaintext, until: now + (this.options.ttlMs ?? 300_000) });
    if (this.#opened.size > (this.options.maxEntries ?? 1000)) this.#opened.delete(this.#opened.keys().next().value as string);
    return plaintext;
  }
}
