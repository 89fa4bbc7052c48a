/**
 * Which URLs a webhook endpoint may have. The service itself sends each delivery, so an endpoint URL is a
 * server-side request forgery primitive exactly as a connection override is, and goes through the same policy
 * (`AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES`, see `connection-override-policy.ts`), the connector instance's:
 * in development any https URL and http to a loopback host; with a list of origins, exactly those; never a
 * link-local, unspecified or local-use NAT64 address, nor an origin the policy refuses (the sandbox's control API).
 *
 * The one difference is the production default (`none`): that refuses connection overrides altogether, but a
 * webhook endpoint is by nature some other party's server, so there it must be https to a host that is not
 * internal (`http/internal-addresses.ts`: loopback, private, shared, link-local, unique-local, unspecified or
 * local-use NAT64; an IPv6 address carrying an IPv4 one for NAT64, SIIT, an IPv4-compatible tunnel, 6to4 or Teredo is judged as that IPv4
 * address).
 *
 * The text is checked when the endpoint is set and before every attempt; the address the host name resolves to is
 * checked when the dispatcher connects (`http/guarded-lookup.ts`, {@link webhookAddressRefusal}): the same rule,
 * applied to the address as if it were the URL's host, so under the production default a public name that resolves,
 * or later re-resolves (DNS rebinding), to a loopback, private or link-local address is not contacted either. An
 * origin the operator listed keeps its way to an internal receiver, as by text, save the link-local, unspecified and
 * local-use NAT64 answers no mode lets through.
 */
import { addressAsUrl, isRefusedOrigin, OVERRIDES_VARIABLE, overrideRefusal, resolvedAddressRefusal, type ConnectionOverridePolicy } from '../connection-override-policy.js';
import { internalRange } from '../http/internal-addresses.js';

const MAX_URL_LENGTH = 2048;

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
  if (isRefusedOrigin(url, policy)) return 'is not allowed: that origin is never a webhook target';
  if (policy.mode === 'none' && !policy.allowedOrigins.includes(url.origin)) {
    // A listed origin admits its host at its own scheme and port only. The resolved-address check knows the host name
    // alone ({@link webhookAddressRefusal}): another port of a listed host that resolves internally (the operator's
    // receiver's host, its other services) must not pass as listed, so it is refused here, before any connection.
    const listedAs = policy.allowedOrigins.filter((origin) => new URL(origin).hostname === url.hostname);
    if (listedAs.length > 0) return `is not allowed: its host is listed in ${OVERRIDES_VARIABLE} only as ${listedAs.join(', ')}`;
    // The one way to reach an internal receiver is the operator's list of origins: the refusal says so.
    const unless = `unless its origin is listed in ${OVERRIDES_VARIABLE}`;
    if (url.protocol !== 'https:') return `must use https (${unless})`;
    if (internalRange(url.hostname) !== null) return `is not allowed: loopback, private and link-local addresses are not webhook targets (${unless})`;
    return null;
  }
  return overrideRefusal(value, policy);
}

/** The production default with no origin listed: its rule on an https URL's host, for resolved addresses. */
const STRICT_ADDRESS_RULE: Readonly<ConnectionOverridePolicy> = { mode: 'none', allowedOrigins: [] };

/**
 * Why the dispatcher may not connect to `address`, which an endpoint's host name `hostname` resolved to, or null:
 * under the production default (`none`), {@link webhookUrlRefusal}'s rule on that address as an https URL's host,
 * unless `hostname` is the host of an origin the policy lists; otherwise the rule every mode applies to answers
 * ({@link resolvedAddressRefusal}). The host alone is known at connect time: {@link webhookUrlRefusal}, checked
 * before every attempt, lets a listed host through at its listed origins only, so no other port of it gets here.
 */
export function webhookAddressRefusal(hostname: string, address: string, policy: ConnectionOverridePolicy): string | null {
  const listed = policy.allowedOrigins.some((origin) => new URL(origin).hostname === hostname);
  if (policy.mode === 'none' && !listed) return webhookUrlRefusal(addressAsUrl(address), STRICT_ADDRESS_RULE);
  return resolvedAddressRefusal(hostname, address);
}

/**
 * The dispatcher's address refusal when it is given none: the production default's, with no origin listed (no
 * loopback, private, shared, unique-local, link-local, unspecified or local-use NAT64 answer), so a dispatcher is
 * never built unguarded by leaving the option out.
 */
export function strictWebhookAddressRefusal(hostname: string, address: string): string | null {
  return webhookAddressRefusal(hostname, address, STRICT_ADDRESS_RULE);
}
