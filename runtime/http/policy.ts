/**
 * The upstream HTTP policy, normalized once at the boundary into a fully-defaulted internal type (got/ky style):
 * everything downstream reads {@link HttpPolicy} and never re-applies defaults.
 */
import type { ConnectorOptions } from '../api.js';

export interface HttpPolicy {
  /** Total time for one attempt (connect, send, wait, read), ms. */
  timeoutMs: number;
  /** Time to establish a new TCP/TLS connection, ms. */
  connectTimeoutMs: number;
  /** Retries after the first attempt, for retryable statuses on retryable requests. */
  maxRetries: number;
  /** First backoff step, ms; doubled each attempt, then jittered. */
  baseRetryDelayMs: number;
  /** Cap on any single wait, including a Retry-After the upstream asks for. */
  maxRetryDelayMs: number;
  /** Largest upstream response body accepted, bytes. */
  maxResponseBytes: number;
  /** Keep-alive sockets per upstream origin (undici's `connections`). */
  connectionsPerOrigin: number;
  /**
   * Calls that may wait for a socket to one origin once all of them are busy. Past it a call is refused at once
   * with `unavailable` (503, Retry-After) instead of queueing in memory without bound.
   */
  maxQueuedPerOrigin: number;
}

export const DEFAULT_HTTP_POLICY: Readonly<HttpPolicy> = Object.freeze({
  timeoutMs: 30_000,
  connectTimeoutMs: 5_000,
  maxRetries: 2,
  baseRetryDelayMs: 500,
  // Notion's SDK caps waits at 60 s; a connector call blocking longer than that helps no agent.
  maxRetryDelayMs: 60_000,
  maxResponseBytes: 10 * 1024 * 1024,
  connectionsPerOrigin: 256,
  maxQueuedPerOrigin: 1024,
});

/** Fills every option the caller left out; a test passes small numbers here instead of waiting for real delays. */
export function resolveHttpPolicy(options: ConnectorOptions['http'] & { baseRetryDelayMs?: number } = {}): HttpPolicy {
  const pick = (value: number | undefined, fallback: number): number =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
  const maxRetryDelayMs = pick(options.maxRetryDelayMs, DEFAULT_HTTP_POLICY.maxRetryDelayMs);
  return {
    timeoutMs: pick(options.timeoutMs, DEFAULT_HTTP_POLICY.timeoutMs),
    connectTimeoutMs: pick(options.connectTimeoutMs, DEFAULT_HTTP_POLICY.connectTimeoutMs),
    maxRetries: Math.floor(pick(options.maxRetries, DEFAULT_HTTP_POLICY.maxRetries)),
    baseRetryDelayMs: Math.min(pick(options.baseRetryDelayMs, DEFAULT_HTTP_POLICY.baseRetryDelayMs), maxRetryDelayMs),
    maxRetryDelayMs,
    maxResponseBytes: pick(options.maxResponseBytes, DEFAULT_HTTP_POLICY.maxResponseBytes),
    connectionsPerOrigin: Math.max(1, Math.floor(pick(options.connectionsPerOrigin, DEFAULT_HTTP_POLICY.connectionsPerOrigin))),
    maxQueuedPerOrigin: Math.floor(pick(options.maxQueuedPerOrigin, DEFAULT_HTTP_POLICY.maxQueuedPerOrigin)),
  };
}
