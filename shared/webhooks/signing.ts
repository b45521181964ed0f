import { createHmac } from 'node:crypto';
import { parseWebhookSecret } from './secret';

/** The three Standard Webhooks headers every delivery attempt carries. */
export interface WebhookSignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** What {@link signWebhook} signs. */
export interface SignWebhookInput {
  /** The event's delivery id: the same on every attempt, so receivers can de-duplicate. */
  id: string;
  /** Unix seconds of THIS attempt (fresh on every retry). */
  timestamp: number;
  /** The exact body string that will be sent; re-serialising it would break the signature. */
  body: string;
  /** The current secret first, then any rotated-out secret still in its grace period. */
  secrets: readonly string[];
}

// Printable ASCII without '.': the spec warns that a '.' in the id would make "id.timestamp.body"
// ambiguous, and header values must not carry spaces or control characters.
const ID_PATTERN = /^[\x21-\x2d\x2f-\x7e]{1,255}$/;

function signOne(key: Uint8Array, content: string): string {
  return `v1,${createHmac('sha256', key).update(content, 'utf8').digest('base64')}`;
}

/**
 * Signs one delivery attempt per the Standard Webhooks spec (docs/design.md "Webhooks"):
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed by the base64-decoded secret after
 * `whsec_`, one signature per secret, space-separated, so a receiver holding either the old or the
 * new secret verifies during rotation.
 *
 * @throws RangeError for an id with '.', a non-integer timestamp or no secret;
 *   InvalidWebhookSecretError for a malformed secret.
 * @example
 * const headers = signWebhook({ id: 'msg_123', timestamp: 1767225600, body, secrets: [current, previous] });
 */
export function signWebhook(input: SignWebhookInput): WebhookSignatureHeaders {
  if (!ID_PATTERN.test(input.id)) throw new RangeError('a webhook id is 1-255 printable ASCII characters without "."');
  if (!Number.isSafeInteger(input.timestamp) || input.timestamp < 0) throw new RangeError('a webhook timestamp is whole unix seconds');
  if (input.secrets.length === 0) throw new RangeError('at least one signing secret is needed');
  const content = `${input.id}.${input.timestamp}.${input.body}`;
  const signatures = [...new Set(input.secrets)].map((secret) => signOne(parseWebhookSecret(secret), content));
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': signatures.join(' '),
  };
}
