/**
 * Which URLs a connection's `overrides` may point at. Overrides make the service itself send requests (the token
 * exchange with the client secret, API calls with the user's bearer token) to a URL an application chose, so in a
 * multi-tenant deployment they are a server-side request forgery primitive: any tenant could aim them at the cloud
 * metadata endpoint or an internal service. They exist for the sandbox and for tests, hence:
 *
 * - `AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES` unset: allowed in development, refused under `NODE_ENV=production`.
 * - `1`: any `https:` URL, `http:` only to a loopback host; never a link-local address (169.254.0.0/16, fe80::/10:
 *   the metadata endpoints) nor an unspecified one (0.0.0.0/8, ::), nor a local-use NAT64 one (64:ff9b:1::/48),
 *   whose IPv4 host depends on the deployment and may be the metadata endpoint. The ranges are
 *   `http/internal-addresses.ts`'s, which judges an IPv6 address carrying an IPv4 one (NAT64, SIIT, IPv4-compatible,
 *   6to4, Teredo) as that IPv4 address.
 * - `0`: refused.
 * - a comma-separated list of origins (`https://idp.example.com,http://10.0.0.5:8080`): exactly those, and no other.
 *
 * The policy is data held by one connector instance (`createConnector({ connectionOverrides })`), never by the
 * module: two connectors in one process each enforce their own. The development start adds the in-process sandbox's
 * provider origin to `allowedOrigins` and its control origin to `refusedOrigins`.
 *
 * The URL's text is checked when an override is set and before it is used; the address a host name resolves to is
 * checked when a connection is made (`http/guarded-lookup.ts`, on every upstream connection): whatever the mode, an
 * answer in the ranges the `1` mode refuses by text (link-local, unspecified, local-use NAT64) is refused
 * ({@link resolvedAddressRefusal}), so a name that resolves, or later re-resolves (DNS rebinding), to the metadata
 * endpoint is never reached. Under `1` a name resolving to a loopback or private address still passes, as the
 * address itself would: use the list of origins when tenants are not trusted.
 * @see https://owasp.org/www-community/attacks/Server_Side_Request_Forgery
 */
import { isIP } from 'node:net';
import { internalRange } from './http/internal-addresses.js';

export type OverrideMode = 'any' | 'none' | 'allowlist';

export interface ConnectionOverridePolicy {
  /** `any`: https anywhere, http to loopback. `none`: nothing. `allowlist`: the origins below only. */
  mode: OverrideMode;
  /** Origins (`scheme://host[:port]`, as `URL.origin` spells them) allowed whatever the mode. */
  allowedOrigins: readonly string[];
  /** Origins refused whatever the mode and the allowed origins (the sandbox's control API). */
  refusedOrigins?: readonly string[];
}

export const OVERRIDES_VARIABLE = 'AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES';

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];

/** An origin as `URL.origin` spells it, or null when `value` is not a bare http(s) origin. */
function bareOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return null;
    if (url.pathname !== '/' && url.pathname !== '') return null;
    return url.origin;
  } catch {
    return null;
  }
}

/**
 * Reads `AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES`; `production` (`NODE_ENV`, as the configuration module reads it)
 * decides the default.
 * @throws Error naming the variable when the value is neither a flag nor a list of origins.
 */
export function readOverridePolicy(env: NodeJS.ProcessEnv, production: boolean): ConnectionOverridePolicy {
  const raw = env[OVERRIDES_VARIABLE]?.trim() ?? '';
  if (raw === '') return { mode: production ? 'none' : 'any', allowedOrigins: [] };
  if (TRUE.includes(raw.toLowerCase())) return { mode: 'any', allowedOrigins: [] };
  if (FALSE.includes(raw.toLowerCase())) return { mode: 'none', allowedOrigins: [] };
  const entries = raw.split(',').map((e) => e.trim()).filter(Boolean);
  const origins = entries.map(bareOrigin);
  const bad = entries.filter((_, i) => origins[i] === null);
  if (bad.length > 0 || entries.length === 0) {
    throw new Error(`${OVERRIDES_VARIABLE} must be 1, 0, or a comma-separated list of origins such as https://idp.example.com (not valid: ${JSON.stringify(bad.join(','))})`);
  }
  return { mode: 'allowlist', allowedOrigins: origins as string[] };
}

/** A URL's port, the scheme's default when it has none. */
const portOf = (url: URL): string => url.port || (url.protocol === 'https:' ? '443' : '80');

/**
 * Whether `url` reaches an origin `policy` refuses: that origin, or, for one on a loopback host (the sandbox's control
 * API), any loopback host at its port, whatever the spelling or scheme (`localhost`, `*.localhost`, `[::1]`,
 * `127.0.0.2`, `[::ffff:127.0.0.1]`), which the same listener may answer.
 */
export function isRefusedOrigin(url: URL, policy: ConnectionOverridePolicy): boolean {
  return (policy.refusedOrigins ?? []).some((origin) => {
    const refused = new URL(origin);
    if (refused.origin === url.origin) return true;
    return internalRange(refused.hostname) === 'loopback' && internalRange(url.hostname) === 'loopback' && portOf(refused) === portOf(url);
  });
}

/**
 * Why `value` may not be an override under `policy`, or null when it may. `value` has already passed the URL syntax
 * check (absolute http(s), no credentials, query or fragment).
 */
export function overrideRefusal(value: string, policy: ConnectionOverridePolicy): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a URL';
  }
  if (isRefusedOrigin(url, policy)) return 'is not allowed: that origin is never a connection target';
  if (policy.allowedOrigins.includes(url.origin)) return null;
  if (policy.mode === 'none') return `is not allowed: this service refuses connection overrides (${OVERRIDES_VARIABLE})`;
  if (policy.mode === 'allowlist') return `is not allowed: its origin ${url.origin} is not in ${OVERRIDES_VARIABLE}`;
  const range = internalRange(url.hostname);
  if (range === 'link-local' || range === 'unspecified') return 'is not allowed: link-local and unspecified addresses are never override targets';
  if (range === 'local-translation') return 'is not allowed: a local-use NAT64 address (64:ff9b:1::/48) may reach any IPv4 host, link-local ones included';
  if (url.protocol !== 'https:' && range !== 'loopback') return 'must use https (http is allowed only to a loopback host)';
  return null;
}

/** `address`, an IP address a host name resolved to, as an https URL with that host, for the rules on URLs. */
export function addressAsUrl(address: string): string {
  return `https://${isIP(address) === 6 ? `[${address}]` : address}/`;
}

/** The `1` mode with no origins listed: its rule on an https URL's host is the rule on addresses in every mode. */
const ADDRESS_RULE: Readonly<ConnectionOverridePolicy> = { mode: 'any', allowedOrigins: [] };

/**
 * Why a connection to `address`, which the upstream host name `hostname` resolved to, is refused, or null: the text
 * rule of the `1` mode judging that address as an https URL's host (one code path), whatever the connector's mode. The
 * list of origins and the production default let a name through by its text; its answer is still never a link-local,
 * unspecified or local-use NAT64 address (nor an IPv6 address carrying such an IPv4 one). And a loopback name
 * (`localhost`, `*.localhost`), which the text rule lets through over plain http as a loopback host, is answered by a
 * loopback address only: a resolver's search domain (a wildcard `*.corp.example.com` answering
 * `api.localhost.corp.example.com`) would otherwise take the request, and its token, off the machine in clear text.
 */
export function resolvedAddressRefusal(hostname: string, address: string): string | null {
  if (internalRange(hostname) === 'loopback' && internalRange(address) !== 'loopback') return `is not allowed: ${hostname} is a loopback name: only a loopback address may answer it`;
  return overrideRefusal(addressAsUrl(address), ADDRESS_RULE);
}
