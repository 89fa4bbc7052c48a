/**
 * Request rate limits, through `@fastify/rate-limit`: fixed windows counted in memory, or in Redis when the service
 * is given one (`REDIS_URL`), so every instance sharing that Redis draws on one budget. Three budgets:
 * - `api`: API requests per environment (the verified token's), after authentication;
 * - `credentials`: credential checks (`POST /oauth/token`, dashboard sign-in) per client address;
 * - `linkOpens`: authorization-link opens per client address (each open may write a pending OAuth state).
 * Client addresses are fastify's `request.ip` (so `trustProxy` decides whether `X-Forwarded-For` counts), IPv6 ones
 * by their /64, which one subscriber usually holds whole.
 *
 * When Redis does not answer, requests are let through (`skipOnError`): a rate limit protects the service, and
 * refusing every request while Redis is down would be the outage it is meant to prevent.
 * @see https://github.com/fastify/fastify-rate-limit
 */
import { isIPv6 } from 'node:net';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import type { Redis } from 'ioredis';
import { ConnectorError } from '../errors.js';
import { DEFAULT_RATE_LIMITS } from './rate-limit-defaults.js';

export interface RateLimitOptions {
  /** Requests allowed per window. */
  max: number;
  windowMs: number;
}

export interface RateLimitSettings {
  /** Default 6000 per minute per environment. */
  api?: RateLimitOptions | false;
  /** Default 60 per minute per client address. */
  credentials?: RateLimitOptions | false;
  /** Default 60 per minute per client address. */
  linkOpens?: RateLimitOptions | false;
  /** Shared counters; without it each process counts on its own. The caller owns (and closes) the connection. */
  redis?: Redis;
}

/** Resolves when the request is within its budget; throws `rate_limited` (429 with Retry-After) when it is not. */
export type RateLimitCheck = (request: FastifyRequest) => Promise<void>;

export { DEFAULT_RATE_LIMITS };

/**
 * The client address as a budget key: IPv4 as is, IPv4-mapped IPv6 (`::ffff:1.2.3.4`, `::ffff:102:304`) as the IPv4
 * address, other IPv6 by its /64 prefix (`2001:db8:0:0::/64`: four groups, no leading zeros); anything else as is.
 */
export function clientKey(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const address = ipaddr.IPv6.parse(ip);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  return `${address.parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}

const noop: RateLimitCheck = async () => {};

/** Registers the plugin (no limit of its own on any route) and returns one check per budget. */
export async function registerRateLimits(app: FastifyInstance, settings: RateLimitSettings = {}): Promise<Record<'api' | 'credentials' | 'linkOpens', RateLimitCheck>> {
  await app.register(rateLimit, {
    global: false,
    skipOnError: true,
    nameSpace: 'agent-connector:rate-limit:',
    // In memory: at most this many keys (environments and addresses) are counted at once, least recently used out.
    cache: 10_000,
    ...(settings.redis ? { redis: settings.redis } : {}),
  });
  const check = (given: RateLimitOptions | false | undefined, fallback: RateLimitOptions, key: (request: FastifyRequest) => string, message: string): RateLimitCheck => {
    if (given === false) return noop;
    const { max, windowMs } = given ?? fallback;
    if (!(max > 0) || !(windowMs > 0)) throw new RangeError('rate limit max and windowMs must be positive');
    const limiter = app.createRateLimit({ max, timeWindow: windowMs, keyGenerator: key });
    return async (request) => {
      const result = await limiter(request);
      if (!result.isAllowed && result.isExceeded) {
        throw new ConnectorError('rate_limited', message, { retryAfterSeconds: Math.max(1, result.ttlInSeconds) });
      }
    };
  };
  return {
    api: check(settings.api, DEFAULT_RATE_LIMITS.api, (r) => `api:${r.environmentId}`, 'Too many requests for this environment; slow down'),
    credentials: check(settings.credentials, DEFAULT_RATE_LIMITS.credentials, (r) => `credentials:${clientKey(r.ip)}`, 'Too many credential attempts; try again later'),
    linkOpens: check(settings.linkOpens, DEFAULT_RATE_LIMITS.linkOpens, (r) => `link-opens:${clientKey(r.ip)}`, 'Too many authorization links opened from this address; try again later'),
  };
}
