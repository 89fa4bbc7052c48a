/**
 * How long a client may hold a connection without finishing its request. Without these, a client dripping one byte
 * every few seconds keeps a socket (and the memory of a half-read body) for as long as it likes, and enough of them
 * exhaust the process. Node enforces the header and request deadlines on a periodic sweep, so the sweep runs every
 * second rather than Node's default 30 s, or a deadline of a few seconds would be late by up to half a minute.
 *
 * These bound only what the client sends and idle sockets: a request whose upstream call is still running is not
 * cut short by them (the upstream deadline is the HTTP policy's timeout).
 * @see https://nodejs.org/api/http.html#serverrequesttimeout
 */
import type { ServerOptions } from 'node:http';

export interface ServiceTimeouts {
  /** Whole request (headers and body) received within this, or 408 and the connection closes. Default 30 s. */
  requestMs: number;
  /** Request headers received within this. Default 10 s. */
  headersMs: number;
  /** A socket with no traffic in either direction for this long is closed. Default 120 s. */
  idleMs: number;
  /** How long a kept-alive connection waits for its next request. Default 72 s (above common load balancers' 60 s). */
  keepAliveMs: number;
}

export const DEFAULT_TIMEOUTS: ServiceTimeouts = { requestMs: 30_000, headersMs: 10_000, idleMs: 120_000, keepAliveMs: 72_000 };

/** fastify's server options for `timeouts` (defaults filled in). */
export function serverTimeoutOptions(given: Partial<ServiceTimeouts> = {}): {
  requestTimeout: number;
  connectionTimeout: number;
  keepAliveTimeout: number;
  http: ServerOptions;
} {
  const t = { ...DEFAULT_TIMEOUTS, ...given };
  // Node requires headersTimeout <= requestTimeout.
  const headersMs = Math.min(t.headersMs, t.requestMs);
  return {
    requestTimeout: t.requestMs,
    connectionTimeout: t.idleMs,
    keepAliveTimeout: t.keepAliveMs,
    http: { headersTimeout: headersMs, requestTimeout: t.requestMs, connectionsCheckingInterval: Math.min(1_000, headersMs) },
  };
}
