/**
 * Which hosts are internal: the one table of the address ranges that reach this machine or a private network, for
 * the checks on URLs the service itself will send requests to (connection overrides, `connection-override-policy.ts`;
 * webhook endpoints, `webhooks/endpoint-url.ts`).
 *
 * The ranges are matched with `node:net`'s `BlockList`, which also matches an IPv4-mapped IPv6 address
 * (`::ffff:127.0.0.1`, or `::ffff:7f00:1` as the URL parser spells it) against the IPv4 ranges: such an address
 * reaches the IPv4 host it maps. Two other IPv6 forms carry an IPv4 address a translator or relay sends the packets
 * on to, and `BlockList` knows neither, so the address is taken out of them here (parsed with ipaddr.js) and judged as that IPv4 address
 * (`embeddedIPv4`): NAT64's well-known prefix `64:ff9b::/96` (RFC 6052, the last 32 bits: `64:ff9b::a9fe:a9fe`
 * is 169.254.169.254) and 6to4's `2002::/16` (RFC 3056, bits 16 to 47: `2002:7f00:1::` is 127.0.0.1). NAT64's
 * local-use prefix `64:ff9b:1::/48` (RFC 8215) has no such fixed place: the operator picks a prefix of 48 to 96 bits
 * inside it and RFC 6052 puts the IPv4 address after that prefix, around the reserved bits 64 to 71, so the same
 * address names different IPv4 hosts under different deployments. It is a range of its own, `local-translation`,
 * that may reach any IPv4 host, the metadata endpoint included.
 *
 * Host names other than `localhost` and `*.localhost` (RFC 6761, with or without the trailing dot) are not resolved:
 * a public name whose DNS answer is an internal address is not internal here.
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

/** Where NAT64 (RFC 6052's well-known prefix: the last 4 bytes) and 6to4 (RFC 3056: bytes 2 to 5) put the IPv4 address. */
const EMBEDDING: readonly { prefix: [ipaddr.IPv6, number]; bytes: [number, number] }[] = [
  { prefix: ipaddr.IPv6.parseCIDR('64:ff9b::/96'), bytes: [12, 16] },
  { prefix: ipaddr.IPv6.parseCIDR('2002::/16'), bytes: [2, 6] },
];

/**
 * The IPv4 address (dotted) that `address`, an IPv6 address, carries for a NAT64 translator or a 6to4 relay to send
 * to, or null when it is in neither prefix (parsed by ipaddr.js, whatever the spelling).
 */
function embeddedIPv4(address: string): string | null {
  if (!ipaddr.IPv6.isValid(address)) return null;
  const parsed = ipaddr.IPv6.parse(address);
  const found = EMBEDDING.find(({ prefix }) => parsed.match(prefix));
  return found === undefined ? null : parsed.toByteArray().slice(...found.bytes).join('.');
}

/**
 * The internal range `hostname` names, or null when it names none (a public address, or a host name other than
 * `localhost` and `*.localhost`, which are `loopback`). An IPv6 address that embeds an IPv4 one for NAT64 or 6to4
 * is judged as that IPv4 address.
 * @param hostname a URL's `hostname`: IPv6 in brackets or not, any case; IPv4 in the dotted form the URL parser
 *   normalizes every spelling to (a bare `2130706433` or `0x7f.1` is not read as an address here).
 */
export function internalRange(hostname: string): InternalRange | null {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name === 'localhost' || name.endsWith('.localhost')) return 'loopback';
  const family = isIP(host);
  if (family === 0) return null;
  const embedded = family === 6 ? embeddedIPv4(host) : null;
  const [address, type] = embedded === null ? [host, family === 4 ? 'ipv4' : 'ipv6'] as const : [embedded, 'ipv4'] as const;
  for (const [range, list] of LISTS) if (list.check(address, type)) return range;
  return null;
}
