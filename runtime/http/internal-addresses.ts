/**
 * Which hosts are internal: the one table of the address ranges that reach this machine or a private network, for
 * the checks on URLs the service itself will send requests to (connection overrides, `connection-override-policy.ts`;
 * webhook endpoints, `webhooks/endpoint-url.ts`).
 *
 * The ranges are matched with `node:net`'s `BlockList`, which also matches an IPv4-mapped IPv6 address
 * (`::ffff:127.0.0.1`, or `::ffff:7f00:1` as the URL parser spells it) against the IPv4 ranges: such an address
 * reaches the IPv4 host it maps. Other IPv6 forms carry an IPv4 address that a translator, a relay or a tunnel sends
 * the packets on to, and `BlockList` knows none of them, so when the IPv6 address is in no range itself, the IPv4
 * address is taken out of it here (parsed with ipaddr.js) and judged (`embeddedIPv4`):
 * - NAT64's well-known prefix `64:ff9b::/96` (RFC 6052), the last 32 bits: `64:ff9b::a9fe:a9fe` is 169.254.169.254;
 * - SIIT's IPv4-translated addresses `::ffff:0:0:0/96` (RFC 6145), the last 32 bits: `::ffff:0:7f00:1` is 127.0.0.1;
 * - IPv4-compatible addresses `::/96` (RFC 4291, deprecated, still routed by automatic tunnels), the last 32 bits:
 *   `::7f00:1` is 127.0.0.1 (`::` and `::1` are judged as themselves first: unspecified and loopback);
 * - 6to4's `2002::/16` (RFC 3056), bits 16 to 47: `2002:7f00:1::` is 127.0.0.1;
 * - Teredo's `2001::/32` (RFC 4380), the client's address in the last 32 bits with every bit inverted:
 *   `2001::80ff:fffe` is 127.0.0.1 (a relay sends to that address; the Teredo server's address in bits 32 to 63 is not
 *   where the packets go).
 *
 * NAT64's local-use prefix `64:ff9b:1::/48` (RFC 8215) has no such fixed place: the operator picks a prefix of 48 to 96
 * bits inside it and RFC 6052 puts the IPv4 address after that prefix, around the reserved bits 64 to 71, so the same
 * address names different IPv4 hosts under different deployments. It is a range of its own, `local-translation`,
 * that may reach any IPv4 host, the metadata endpoint included.
 *
 * Host names other than `localhost` and `*.localhost` (RFC 6761, with or without the trailing dot) are not resolved:
 * a public name whose DNS answer is an internal address is not internal here; its answer is judged when a connection
 * is made (`guarded-lookup.ts`).
 * @see https://www.iana.org/assignments/iana-ipv4-special-registry/
 * @see https://www.iana.org/assignments/iana-ipv6-special-registry/
 */
import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type InternalRange = 'loopback' | 'unspecified' | 'link-local' | 'private' | 'shared' | 'unique-local' | 'local-translation';

/** Every internal range, as `[network, prefix length]` pairs (loopback first: the most common internal host). */
const INTERNAL_SUBNETS: Readonly<Record<InternalRange, readonly (readonly [string, number])[]>> = {
  loopback: [['127.0.0.0', 8], ['::1', 128]],
  /** "This network" (RFC 791) and the unspecified IPv6 address: connecting to them reaches this host. */
  unspecified: [['0.0.0.0', 8], ['::', 128]],
  /** Where the cloud metadata endpoints answer (169.254.169.254). */
  'link-local': [['169.254.0.0', 16], ['fe80::', 10]],
  /** RFC 1918. */
  private: [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16]],
  /** RFC 6598, carrier-grade NAT. */
  shared: [['100.64.0.0', 10]],
  /** RFC 4193. */
  'unique-local': [['fc00::', 7]],
  /** RFC 8215, local-use NAT64: the IPv4 host it reaches depends on the operator's prefix (see above). */
  'local-translation': [['64:ff9b:1::', 48]],
};

/** One list per range, built once from the table above and never added to (not exported): a constant, not state. */
const LISTS: readonly (readonly [InternalRange, BlockList])[] = Object.entries(INTERNAL_SUBNETS).map(([range, subnets]) => {
  const list = new BlockList();
  for (const [network, prefix] of subnets) list.addSubnet(network, prefix, isIP(network) === 4 ? 'ipv4' : 'ipv6');
  return [range as InternalRange, list] as const;
});

/**
 * Where each IPv6 form that carries an IPv4 address puts it (the bytes `from` to `to`), and whether its bits are
 * inverted (Teredo's obfuscated client address). See the header for each.
 */
const EMBEDDING: readonly { prefix: [ipaddr.IPv6, number]; from: number; to: number; inverted?: true }[] = [
  { prefix: ipaddr.IPv6.parseCIDR('64:ff9b::/96'), from: 12, to: 16 },
  { prefix: ipaddr.IPv6.parseCIDR('::ffff:0:0:0/96'), from: 12, to: 16 },
  { prefix: ipaddr.IPv6.parseCIDR('::/96'), from: 12, to: 16 },
  // IPv4-mapped: `BlockList` matches it itself, but ipaddr.js reads the IPv4-compatible spelling `::127.0.0.1` as
  // `::ffff:7f00:1`, which lands here (the same IPv4 address either way).
  { prefix: ipaddr.IPv6.parseCIDR('::ffff:0:0/96'), from: 12, to: 16 },
  { prefix: ipaddr.IPv6.parseCIDR('2002::/16'), from: 2, to: 6 },
  { prefix: ipaddr.IPv6.parseCIDR('2001::/32'), from: 12, to: 16, inverted: true },
];

/**
 * The IPv4 address (dotted) that `address`, an IPv6 address, carries for a translator, relay or tunnel to send to,
 * or null when it is in none of the prefixes above (parsed by ipaddr.js, whatever the spelling).
 */
function embeddedIPv4(address: string): string | null {
  if (!ipaddr.IPv6.isValid(address)) return null;
  const parsed = ipaddr.IPv6.parse(address);
  const found = EMBEDDING.find(({ prefix }) => parsed.match(prefix));
  if (found === undefined) return null;
  return parsed.toByteArray().slice(found.from, found.to).map((byte) => (found.inverted ? byte ^ 0xff : byte)).join('.');
}

/** The first range of the table that `address` is in. */
function rangeOf(address: string, type: 'ipv4' | 'ipv6'): InternalRange | null {
  for (const [range, list] of LISTS) if (list.check(address, type)) return range;
  return null;
}

/**
 * The internal range `hostname` names, or null when it names none (a public address, or a host name other than
 * `localhost` and `*.localhost`, which are `loopback`). An IPv6 address in no range itself that carries an IPv4 one
 * (NAT64, SIIT, IPv4-compatible, 6to4, Teredo) is judged as that IPv4 address.
 * @param hostname a URL's `hostname`: IPv6 in brackets or not, any case; IPv4 in the dotted form the URL parser
 *   normalizes every spelling to (a bare `2130706433` or `0x7f.1` is not read as an address here).
 */
export function internalRange(hostname: string): InternalRange | null {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name === 'localhost' || name.endsWith('.localhost')) return 'loopback';
  const family = isIP(host);
  if (family === 4) return rangeOf(host, 'ipv4');
  if (family === 0) return null;
  const own = rangeOf(host, 'ipv6');
  if (own !== null) return own;
  const embedded = embeddedIPv4(host);
  return embedded === null ? null : rangeOf(embedded, 'ipv4');
}
