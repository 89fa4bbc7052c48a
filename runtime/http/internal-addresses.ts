/**
 * Which hosts are internal: the one table of the address ranges that reach this machine or a private network, for
 * the checks on URLs the service itself will send requests to (connection overrides, `connection-override-policy.ts`;
 * webhook endpoints, `webhooks/endpoint-url.ts`).
 *
 * The ranges are matched with `node:net`'s `BlockList`, which also matches an IPv4-mapped IPv6 address
 * (`::ffff:127.0.0.1`, or `::ffff:7f00:1` as the URL parser spells it) against the IPv4 ranges: such an address
 * reaches the IPv4 host it maps. Host names other than `localhost` and `*.localhost` (RFC 6761, with or without the
 * trailing dot) are not resolved: a public name whose DNS answer is an internal address is not internal here.
 * @see https://www.iana.org/assignments/iana-ipv4-special-registry/
 * @see https://www.iana.org/assignments/iana-ipv6-special-registry/
 */
import { BlockList, isIP } from 'node:net';

export type InternalRange = 'loopback' | 'unspecified' | 'link-local' | 'private' | 'shared' | 'unique-local';

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
};

/** One list per range, built once from the table above and never added to (not exported): a constant, not state. */
const LISTS: readonly (readonly [InternalRange, BlockList])[] = Object.entries(INTERNAL_SUBNETS).map(([range, subnets]) => {
  const list = new BlockList();
  for (const [network, prefix] of subnets) list.addSubnet(network, prefix, isIP(network) === 4 ? 'ipv4' : 'ipv6');
  return [range as InternalRange, list] as const;
});

/**
 * The internal range `hostname` names, or null when it names none (a public address, or a host name other than
 * `localhost` and `*.localhost`, which are `loopback`).
 * @param hostname a URL's `hostname`: IPv6 in brackets or not, any case; IPv4 in the dotted form the URL parser
 *   normalizes every spelling to (a bare `2130706433` or `0x7f.1` is not read as an address here).
 */
export function internalRange(hostname: string): InternalRange | null {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name === 'localhost' || name.endsWith('.localhost')) return 'loopback';
  const family = isIP(host);
  if (family === 0) return null;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [range, list] of LISTS) if (list.check(host, type)) return range;
  return null;
}
