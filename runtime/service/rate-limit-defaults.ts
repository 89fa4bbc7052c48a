/**
 * The default request budgets, in a module of their own so that the configuration (read by the CLI and
 * `createConnector` too) takes its `AGENT_CONNECTOR_RATE_LIMIT` default from here without loading the rate-limit
 * plugin.
 */
import type { RateLimitOptions } from './rate-limits.js';

export const DEFAULT_RATE_LIMITS = {
  api: { max: 6000, windowMs: 60_000 },
  credentials: { max: 60, windowMs: 60_000 },
  linkOpens: { max: 60, windowMs: 60_000 },
} as const satisfies Record<string, RateLimitOptions>;
