import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { parse as parseQuery, stringify as stringifyQuery } from 'node:querystring';

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

/** A URL cut into its parts as written (no normalising: Twilio signs the exact characters). */
function splitUrl(url: string): { scheme: string; authority: string; port: string; rest: string } | undefined {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)/i.exec(url);
  if (!match) return undefined;
  const [prefix, scheme = '', authority = ''] = match;
  // The port is after the last ':' that is not inside an IPv6 literal's brackets.
  const hostStart = authority.lastIndexOf('@') + 1;
  const colon = authority.indexOf(':', Math.max(hostStart, authority.lastIndexOf(']') + 1));
  return colon === -1
    ? { scheme, authority, port: '', rest: url.slice(prefix.length) }
    : { scheme, authority: authority.slice(0, colon), port: authority.slice(colon), rest: url.slice(prefix.length) };
}

/** The URL with its port left out, and with the scheme's default port written out (if it had none). */
function portForms(url: string): string[] {
  const parts = splitUrl(url);
  if (!parts) return [url];
  const bare = parts.scheme + parts.authority + parts.rest;
  const secure = /^(https|wss):\/\/$/i.test(parts.scheme);
  const explicit = parts.port ? url : `${parts.scheme}${parts.authority}${secure ? ':443' : ':80'}${parts.rest}`;
  return [bare, explicit];
}

/** The query string re-encoded as Node's legacy `querystring` does (some back ends sign `'` as `%27`). */
function legacyQuery(url: string): string {
  const start = url.indexOf('?');
  if (start === -1 || start === url.length - 1) return url;
  return `${url.slice(0, start)}?${stringifyQuery(parseQuery(url.slice(start + 1)))}`;
}

/**
 * Every form of the URL a valid signature may have been computed over, in the order the `twilio`
 * package's `validateRequest` tries them: as received (without and with the default port), then as
 * `new URL()` normalises it (special characters escaped), with and without the legacy query
 * encoding. A test compares the verdicts with that reference on many URL forms.
 */
function signedUrlForms(url: string): string[] {
  const forms = portForms(url);
  let normalized: string | undefined;
  try {
    normalized = new URL(url).toString();
  } catch {
    return forms;
  }
  const normalizedForms = portForms(normalized);
  return [...new Set([...forms, ...normalizedForms, ...normalizedForms.map(legacyQuery)])];
}

/** Constant-time compare (twilio-node uses `scmp`); a length mismatch is false without comparing. */
function sameSignature(expected: string, received: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(received);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Checks a Twilio request: the signature must match the public URL Twilio called (as configured,
 * never rebuilt from proxy headers we do not trust), in any of the forms Twilio's own validator
 * accepts ({@link signedUrlForms}), compared in constant time. For the media WebSocket upgrade pass the `wss://` URL and no params.
 */
export function isValidTwilioSignature(authToken: string, signature: string | undefined, url: string, params: TwilioParams = {}): boolean {
  if (!signature) return false;
  return signedUrlForms(url).some((candidate) => sameSignature(twilioSignature(authToken, candidate, params), signature));
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
