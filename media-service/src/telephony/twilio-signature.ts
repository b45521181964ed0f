import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** Form parameters of a Twilio webhook; repeated fields arrive as arrays. */
export type TwilioParams = Record<string, string | readonly string[]>;

/**
 * X-Twilio-Signature: base64(HMAC-SHA1(authToken, url + every key followed by its value, keys
 * sorted)), as twilio-node's `getExpectedTwilioSignature` computes it. Array values are
 * de-duplicated and sorted, each appended after the key.
 */
export function twilioSignature(authToken: string, url: string, params: TwilioParams = {}): string {
  let data = url;
  for (const key of Object.keys(params).sort()) {
    const value = params[key]!;
    const values = typeof value === 'string' ? [value] : [...new Set(value)].sort();
    for (const item of values) data += key + item;
  }
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

/** The URL as given, plus the same URL with its port written out or left out: Twilio signs either form. */
function portVariants(url: string): string[] {
  const parsed = new URL(url);
  if (parsed.port) {
    const withoutPort = new URL(url);
    withoutPort.port = '';
    return [url, withoutPort.toString()];
  }
  // URL drops a default port, so the explicit form is written by hand.
  const defaultPort = parsed.protocol === 'https:' || parsed.protocol === 'wss:' ? '443' : '80';
  return [url, url.replace(`//${parsed.host}`, `//${parsed.hostname}:${defaultPort}`)];
}

/** Constant-time compare (twilio-node uses `scmp`); a length mismatch is false without comparing. */
function sameSignature(expected: string, received: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(received);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Checks a Twilio request: the signature must match the public URL Twilio called (as configured,
 * never rebuilt from proxy headers we do not trust), with or without the default port, compared in
 * constant time. For the media WebSocket upgrade pass the `wss://` URL and no params.
 */
export function isValidTwilioSignature(authToken: string, signature: string | undefined, url: string, params: TwilioParams = {}): boolean {
  if (!signature) return false;
  return portVariants(url).some((candidate) => sameSignature(twilioSignature(authToken, candidate, params), signature));
}

/**
 * Checks a Twilio request with a JSON body: the URL carries `bodySHA256` (hex SHA-256 of the raw
 * body) and is signed with no params, as twilio-node's `validateRequestWithBody` does.
 */
export function isValidTwilioSignatureWithBody(authToken: string, signature: string | undefined, url: string, rawBody: string): boolean {
  const bodyHash = new URL(url).searchParams.get('bodySHA256') ?? '';
  const expected = createHash('sha256').update(Buffer.from(rawBody, 'utf8')).digest('hex');
  return isValidTwilioSignature(authToken, signature, url) && sameSignature(expected, bodyHash);
}
