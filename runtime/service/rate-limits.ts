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
import rateLimit, { type CreateRateLimitOptions, type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
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

/**
 * Each budget's key for a request: the budget's name and its client (`api:env_…`, `credentials:203.0.113.7`), so no
 * budget counts in another's keys. A request with no environment admitted (the decoration's default is '') or no
 * peer address would share one key with every other such request: the check throws instead (a 500, a bug to fix).
 */
export const rateLimitKeys = {
  api: (r: FastifyRequest): string => budgetKey('api', r.environmentId, 'environment'),
  credentials: (r: FastifyRequest): string => budgetKey('credentials', r.ip && clientKey(r.ip), 'client address'),
  linkOpens: (r: FastifyRequest): string => budgetKey('link-opens', r.ip && clientKey(r.ip), 'client address'),
};

function budgetKey(budget: string, client: string | undefined, what: string): string {
  if (!client) throw new Error(`No ${budget} rate limit key: the request has no ${what}`);
  return `${budget}:${client}`;
}

/** One fixed window: the first request of a key starts it (and sets its expiry), the others count in it. */
const FIXED_WINDOW = `local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {current, redis.call('PTTL', KEYS[1])}`;

type CountingRedis = Redis & { agentConnectorRateLimit(key: string, windowMs: number, done: (error: Error | null, result?: [number, number]) => void): void };

/**
 * Counters in Redis under `<nameSpace><budget key>`. The plugin's own Redis store puts a limiter's route before the
 * key (`${method}${url}-`), and a limiter from `createRateLimit` has none: every key read
 * `agent-connector:rate-limit:undefinedundefined-api:env_…`. The budget keys name their budget, so one store serves all.
 */
function redisCounters(redis: Redis, nameSpace: string): FastifyRateLimitStoreCtor {
  if (!('agentConnectorRateLimit' in redis)) redis.defineCommand('agentConnectorRateLimit', { numberOfKeys: 1, lua: FIXED_WINDOW });
  const counting = redis as CountingRedis;
  return class RedisCounters implements FastifyRateLimitStore {
    incr(key: string, done: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      counting.agentConnectorRateLimit(nameSpace + key, timeWindow, (error, result) => (error || !result ? done(error ?? new Error('no answer from Redis')) : done(null, { current: result[0], ttl: result[1] })));
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}

/** In memory: at most this many keys (environments or addresses) a budget counts at once, least recently used out. */
const MEMORY_KEYS = 10_000;

const noop: RateLimitCheck = async () => {};

/** Registers the plugin (no limit of its own on any route) and returns one check per budget. */
export async function registerRateLimits(app: FastifyInstance, settings: RateLimitSettings = {}): Promise<Record<'api' | 'credentials' | 'linkOpens', RateLimitCheck>> {
  await app.register(rateLimit, {
    global: false,
    skipOnError: true,
    ...(settings.redis ? { store: redisCounters(settings.redis, 'agent-connector:rate-limit:') } : {}),
  });
  const check = (given: RateLimitOptions | false | undefined, fallback: RateLimitOptions, key: (request: FastifyRequest) => string, message: string): RateLimitCheck => {
    if (given === false) return noop;
    const { max, windowMs } = given ?? fallback;
    if (!(max > 0) || !(windowMs > 0)) throw new RangeError('rate limit max and windowMs must be positive');
    // Each limiter counts in a store of its own, sized by these options: without `cache` (which the type leaves out,
    // though the plugin reads it) that was 5,000 keys, whatever the registration said.
    const limiter = app.createRateLimit({ max, timeWindow: windowMs, keyGenerator: key, cache: MEMORY_KEYS } as CreateRateLimitOptions);
    return async (request) => {
      const result = await limiter(request);
      if (!result.isAllowed && result.isExceeded) {
        throw new ConnectorError('rate_limited', message, { retryAfterSeconds: Math.max(1, result.ttlInSeconds) });
      }
    };
  };
  return {
    api: check(settings.api, DEFAULT_RATE_LIMITS.api, rateLimitKeys.api, 'Too many requests for this environment; slow down'),
    credentials: check(settings.credentials, DEFAULT_RATE_LIMITS.credentials, rateLimitKeys.credentials, 'Too many credential attempts; try again later'),
    linkOpens: check(settings.linkOpens, DEFAULT_RATE_LIMITS.linkOpens, rateLimitKeys.linkOpens, 'Too many authorization links opened from this address; try again later'),
  };
}
