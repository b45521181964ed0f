import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { ValidationItem } from '../errors';
import { blockedRangeFor, canonicalAddress } from './ip-ranges';

/**
 * Where a user-supplied URL (webhook `server_url`, `model.custom_url`, tool server URLs) may point.
 * `requireHttps` is on in production. `allowPrivate` is an explicit, off-by-default setting for
 * local development and tests: it opens loopback and private networks (and `localhost` names) so a
 * receiver on the developer's machine works, but never cloud metadata, multicast or reserved space,
 * and never other schemes or credentials in the URL.
 */
export interface UrlPolicy {
  allowPrivate: boolean;
  requireHttps: boolean;
}

/** The outcome of {@link checkUrlSyntax}: the parsed URL, or why it is refused. */
export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** Names that always mean "this machine" (RFC 6761 `localhost` and Debian's /etc/hosts aliases). */
const LOCAL_NAMES = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback']);

/**
 * A URL refused by the SSRF guard. `reason` may name an address the URL's host resolved to (our
 * logs want it); `shownReason` names only what the business supplied, so showing it gives no
 * view of how names resolve inside our network.
 */
export class BlockedUrlError extends Error {
  constructor(
    readonly reason: string,
    readonly shownReason: string = reason,
  ) {
    super(`URL not allowed: ${reason}`);
    this.name = 'BlockedUrlError';
  }
}

/** The URL's host without IPv6 brackets and without trailing dots (`localhost.` is `localhost`). */
export function bareHostname(url: URL): string {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return host.replace(/\.+$/, '').toLowerCase();
}

/** Why an address is refused under the policy, or null when it may be contacted. */
export function addressRefusal(address: string, allowPrivate: boolean): string | null {
  const blocked = blockedRangeFor(address);
  if (blocked === null || (allowPrivate && blocked.privateUse)) return null;
  const shown = canonicalAddress(address) ?? address;
  return `${shown} is ${blocked.label}`;
}

/**
 * True when the address is not public unicast (docs/design.md "Cloud architecture"), whatever its spelling: `127.1`,
 * `0x7f.1`, `2130706433`, `017700000001`, `::ffff:7f00:1`, `::127.0.0.1`, `64:ff9b::a00:1`,
 * `2002:a00:1::`… Unparseable text counts as blocked.
 */
export function isBlockedAddress(ip: string): boolean {
  return blockedRangeFor(ip) !== null;
}

function hostRefusal(url: URL, allowPrivate: boolean): string | null {
  const host = bareHostname(url);
  if (host === '') return 'the URL has no host';
  if (isIP(host) !== 0) return addressRefusal(host, allowPrivate);
  const isLocalName = LOCAL_NAMES.has(host) || host.endsWith('.localhost');
  if (isLocalName && !allowPrivate) return `${host} is a loopback name`;
  return null;
}

/**
 * The save-time check (no I/O): scheme, credentials and literal addresses in every spelling.
 * WHATWG `URL` already rewrites `0x7f.1`, `2130706433`, `127.1`, `017700000001`, `%31%32%37.0.0.1`
 * and `127.0.0.1.` to `127.0.0.1`, and `[::ffff:127.0.0.1]` to `[::ffff:7f00:1]`, so the address is
 * classified after parsing, never by regex on the raw text (spellings such as 0x7f.1 or 2130706433 defeat text matching).
 * A hostname is only checked by name here; {@link resolveAndCheck} checks what it resolves to.
 *
 * @example
 * checkUrlSyntax('https://0x7f.1/hook', { allowPrivate: false, requireHttps: true });
 * // → { ok: false, reason: '127.0.0.1 is a loopback address' }
 */
export function checkUrlSyntax(url: string, opts: UrlPolicy): UrlCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'not a valid absolute URL' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return { ok: false, reason: `the ${parsed.protocol.replace(/:$/, '')} scheme is not allowed; use https` };
  }
  if (opts.requireHttps && parsed.protocol !== 'https:') return { ok: false, reason: 'the URL must use https' };
  if (parsed.username !== '' || parsed.password !== '') return { ok: false, reason: 'credentials in the URL are not allowed' };
  const refusal = hostRefusal(parsed, opts.allowPrivate);
  return refusal === null ? { ok: true, url: parsed } : { ok: false, reason: refusal };
}

/** The shape of `dns.promises.lookup(host, { all: true })`, injectable so tests control resolution. */
export type LookupAll = (hostname: string, options: { all: true }) => Promise<readonly { address: string; family: number }[]>;

/** The system resolver (getaddrinfo, so /etc/hosts and search domains apply, as they would to a socket). */
export const systemLookup: LookupAll = (hostname, options) => dnsLookup(hostname, options);

/** A URL that passed every check, with the one address the connection must use. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/**
 * The connection-time check: syntax again, then resolution with EVERY address checked (one private
 * answer among public ones refuses the URL: a resolver may hand out either). Returns the first
 * address, which the caller must connect to directly, so no second lookup can rebind the name.
 * Resolution failures (ENOTFOUND…) are rethrown as they are: they are transient, not a policy refusal.
 *
 * @throws BlockedUrlError when the URL or any resolved address is refused.
 */
export async function resolveAndCheck(url: string, opts: UrlPolicy, lookup: LookupAll = systemLookup): Promise<CheckedTarget> {
  const checked = checkUrlSyntax(url, opts);
  if (!checked.ok) throw new BlockedUrlError(checked.reason);
  const host = bareHostname(checked.url);
  if (isIP(host) !== 0) return { url: checked.url, address: host, family: isIP(host) === 6 ? 6 : 4 };
  const answers = await lookup(host, { all: true });
  const [firstAnswer] = answers;
  if (firstAnswer === undefined) throw new BlockedUrlError(`${host} did not resolve to any address`);
  for (const answer of answers) {
    const refusal = addressRefusal(answer.address, opts.allowPrivate);
    if (refusal !== null)
      throw new BlockedUrlError(`${host} resolves to a blocked address (${refusal})`, `${host} resolves to a blocked address`);
  }
  const first = firstAnswer.address;
  const address = canonicalAddress(first) ?? first;
  return { url: checked.url, address, family: isIP(address) === 6 ? 6 : 4 };
}

/**
 * A pydantic-style 422 item for a refused URL at save time (the vocabulary of docs/design.md "Errors").
 *
 * @example
 * urlValidationItem(['body', 'config', 'advanced', 'server_url'], 'the URL must use https', 'http://x.test');
 */
export function urlValidationItem(loc: (string | number)[], reason: string, input: unknown): ValidationItem {
  return { loc, msg: `Value error, URL not allowed: ${reason}`, type: 'value_error', input, ctx: { error: reason } };
}
