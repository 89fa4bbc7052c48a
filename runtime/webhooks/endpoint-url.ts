/**
 * Which URLs a webhook endpoint may have. The service itself sends each delivery, so an endpoint URL is a
 * server-side request forgery primitive exactly as a connection override is, and goes through the same policy
 * (`AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES`, see `connection-override-policy.ts`), the connector instance's:
 * in development any https URL and http to a loopback host; with a list of origins, exactly those; never a
 * link-local or unspecified address, nor an origin the policy refuses (the sandbox's control API).
 *
 * The one difference is the production default (`none`): that refuses connection overrides altogether, but a
 * webhook endpoint is by nature some other party's server, so there it must be https to a host that is not a
 * loopback, private, link-local or unspecified address.
 *
 * Like the override policy, only the URL's text is checked (a public name resolving to an internal address passes);
 * use the allowlist form when tenants are not trusted.
 */
import { BlockList, isIP } from 'node:net';
import { ipv4Octets, overrideRefusal, type ConnectionOverridePolicy } from '../connection-override-policy.js';

const MAX_URL_LENGTH = 2048;

/** Addresses a production endpoint may not name: loopback, private, shared, link-local, unspecified, unique-local. */
function internalAddresses(): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) {
    list.addSubnet(net, prefix, 'ipv4');
  }
  for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10]] as const) list.addSubnet(net, prefix, 'ipv6');
  return list;
}

function isInternalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const family = isIP(host);
  if (family === 0) return false;
  const list = internalAddresses();
  // An IPv4-mapped IPv6 address (`::ffff:7f00:1`) counts as the IPv4 host it maps.
  const v4 = ipv4Octets(host);
  if (v4 !== null) return list.check(v4.join('.'), 'ipv4');
  return list.check(host, 'ipv6');
}

/**
 * Why `value` may not be a webhook endpoint URL, or null when it may.
 * @param policy the connector's override policy, the one its connections' overrides are checked against.
 */
export function webhookUrlRefusal(value: unknown, policy: ConnectionOverridePolicy): string | null {
  if (typeof value !== 'string' || value === '') return 'must be a non-empty string';
  if (value.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http(s) URL';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials (use the signing secret to authenticate deliveries)';
  if (url.hash !== '') return 'must not have a fragment';
  if (policy.refusedOrigins?.includes(url.origin)) return 'is not allowed: that origin is never a webhook target';
  if (policy.mode === 'none' && !policy.allowedOrigins.includes(url.origin)) {
    if (url.protocol !== 'https:') return 'must use https';
    if (isInternalHost(url.hostname)) return 'is not allowed: loopback, private and link-local addresses are never webhook targets in production';
    return null;
  }
  return overrideRefusal(value, policy);
}
