import ipaddr from 'ipaddr.js';

/**
 * One address block we never connect to on a customer's behalf (docs/design.md "Cloud architecture").
 * `privateUse` marks the blocks that the explicit local-development setting (`allowPrivate`)
 * opens: loopback and RFC 1918 / unique-local networks, where a developer's own receiver runs.
 * Cloud metadata (169.254/16, fe80::/10), multicast, broadcast and reserved space stay closed
 * even then, because no legitimate receiver lives there.
 */
export interface BlockedRange {
  readonly cidr: string;
  readonly label: string;
  readonly privateUse: boolean;
}

function range(cidr: string, label: string, privateUse = false): BlockedRange {
  return { cidr, label, privateUse };
}

/**
 * The explicit blocked set. Order matters only for the label reported (the first match wins),
 * so narrow blocks come before the blocks that contain them (`::1` before `::/96`).
 * IPv4-mapped IPv6 (`::ffff:0:0/96`) is absent on purpose: {@link blockedRangeFor} unwraps it and
 * checks the embedded IPv4 address instead, so `::ffff:8.8.8.8` is as public as `8.8.8.8`.
 */
export const BLOCKED_RANGES: readonly BlockedRange[] = [
  range('0.0.0.0/8', 'an unspecified ("this network") address'),
  range('10.0.0.0/8', 'a private address', true),
  range('100.64.0.0/10', 'a carrier-grade NAT address'),
  range('127.0.0.0/8', 'a loopback address', true),
  range('169.254.0.0/16', 'a link-local address (cloud metadata and credentials endpoints)'),
  range('172.16.0.0/12', 'a private address', true),
  range('192.0.0.0/24', 'an IETF protocol assignment address'),
  range('192.0.2.0/24', 'a documentation address'),
  range('192.88.99.0/24', 'a 6to4 relay anycast address'),
  range('192.168.0.0/16', 'a private address', true),
  range('198.18.0.0/15', 'a benchmarking address'),
  range('198.51.100.0/24', 'a documentation address'),
  range('203.0.113.0/24', 'a documentation address'),
  range('224.0.0.0/4', 'a multicast address'),
  range('255.255.255.255/32', 'the broadcast address'),
  range('240.0.0.0/4', 'a reserved address'),
  range('::/128', 'the unspecified address'),
  range('::1/128', 'a loopback address', true),
  range('::/96', 'an IPv4-compatible IPv6 address'),
  range('::ffff:0:0:0/96', 'an IPv4-translated IPv6 address'),
  range('64:ff9b::/96', 'a NAT64 address'),
  range('64:ff9b:1::/48', 'a local-use NAT64 address'),
  range('100::/64', 'a discard-only address'),
  range('2001::/32', 'a Teredo address'),
  range('2001:db8::/32', 'a documentation address'),
  range('2002::/16', 'a 6to4 address'),
  // AWS's IPv6 instance metadata endpoint sits inside the unique-local block: closed even when
  // private addresses are allowed, like 169.254.169.254.
  range('fd00:ec2::/32', 'a cloud metadata address'),
  range('fc00::/7', 'a unique-local (private) address', true),
  range('fe80::/10', 'a link-local address'),
  range('fec0::/10', 'a site-local address'),
  range('ff00::/8', 'a multicast address'),
];

type Parsed = ipaddr.IPv4 | ipaddr.IPv6;
const PARSED_RANGES = BLOCKED_RANGES.map((entry) => ({ entry, cidr: ipaddr.parseCIDR(entry.cidr) }));

/**
 * Parses any textual address `inet_aton` would accept (dotted, short `127.1`, octal `0177.0.0.1`,
 * hex `0x7f.1`, decimal `2130706433`) or any IPv6 form, and unwraps IPv4-mapped IPv6 to IPv4.
 * Returns null for text that is not an address.
 */
export function parseAddress(text: string): Parsed | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (!ipaddr.isValid(bare)) return null;
  try {
    return ipaddr.process(bare);
  } catch {
    return null;
  }
}

const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');
const LOW_32_EMBEDDING = [ipaddr.IPv6.parseCIDR('64:ff9b::/96'), ipaddr.IPv6.parseCIDR('::/96')];

/** For 6to4, NAT64 and IPv4-compatible addresses: the IPv4 address they carry, for the reason text. */
function embeddedIpv4(address: ipaddr.IPv6): string | null {
  // An IPv6 address always has its eight 16-bit parts.
  const part = (index: number) => address.parts[index] ?? 0;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  if (address.match(SIX_TO_FOUR)) return v4(part(1), part(2));
  if (LOW_32_EMBEDDING.some((cidr) => address.match(cidr))) return v4(part(6), part(7));
  return null;
}

/**
 * The blocked range an address falls in, or null when it is public unicast. Two layers: the
 * explicit table above, then ipaddr.js's own classification (anything it does not call `unicast`
 * is refused too, which catches special-purpose blocks the table does not name, e.g. AS112).
 * Text that is not an address at all is refused (fail closed).
 */
export function blockedRangeFor(text: string): BlockedRange | null {
  const address = parseAddress(text);
  if (address === null) return range(text, 'not a valid IP address');
  for (const { entry, cidr } of PARSED_RANGES) {
    if (address.kind() === cidr[0].kind() && address.match(cidr)) return withEmbedded(entry, address);
  }
  const kind = address.range();
  return kind === 'unicast' ? null : range(address.toString(), `a special-purpose (${kind}) address`);
}

const EMBEDDING_BLOCKS = new Set(['2002::/16', '64:ff9b::/96', '::/96']);

function withEmbedded(entry: BlockedRange, address: Parsed): BlockedRange {
  if (address.kind() !== 'ipv6' || !EMBEDDING_BLOCKS.has(entry.cidr)) return entry;
  const inner = embeddedIpv4(address as ipaddr.IPv6);
  return inner === null ? entry : { ...entry, label: `${entry.label} embedding ${inner}` };
}

/** Canonical text of an address (`::ffff:7f00:1` → `127.0.0.1`), for messages and connecting. */
export function canonicalAddress(text: string): string | null {
  return parseAddress(text)?.toString() ?? null;
}
