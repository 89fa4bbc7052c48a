/**
 * The one place upstream HTTP is sent from (tool calls, proxy requests, token and revocation requests), on undici.
 *
 * Why undici and not got (which the design first named): profiled, got's per-request `Options` merge, stream wrapper
 * and cancelable promise cost several times undici's CPU per call (figures in `docs/architecture.md`, "Why the
 * upstream client is undici, not got"), and this module used none of them: retry, redirects, timeouts and the size
 * cap are this module's own policy either way. undici is Node's own HTTP client (the engine of its `fetch`), so
 * nothing here depends on a less kept library than before.
 *
 * Retry is one explicit loop: 429/5xx for retryable requests, honouring Retry-After, with capped jittered backoff;
 * the rule needs facts a generic client does not have (the tool's retry policy, Google's 403 rate-limit bodies).
 * Redirects are never followed: a tool never expects one, and the proxy hands 3xx back to the caller as is.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';
import type { Tracer } from '@opentelemetry/api';
import { ConnectorError } from '../errors.js';
import { traceAttempt } from '../telemetry/upstream-span.js';
import type { HttpMethod } from '../types.js';
import { ACCEPT_ENCODING, decodeBody } from './decode.js';
import { ForbiddenAddressError } from './guarded-lookup.js';
import type { HttpPolicy } from './policy.js';
import { isRetryableStatus, parseRetryAfter, retryDelayMs } from './retry.js';

export interface UpstreamCall {
  method: HttpMethod;
  /** Absolute URL, built by the caller through the path helpers; never from unchecked input. */
  url: string;
  headers: Record<string, string>;
  /** Serialized body; the caller sets its Content-Type. */
  body?: string | Buffer;
  /** Whether 429/5xx may be retried (idempotent method, or a tool marked safe). */
  retry: boolean;
  /** Extra rate-limit signal besides 429, e.g. Google's 403 `usageLimits` reasons. Retried like a 429. */
  isRateLimited?: (status: number, body: Buffer) => boolean;
}

export interface UpstreamResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** How many attempts were made (1 when no retry happened). */
  attempts: number;
}

export interface UpstreamClient {
  send(call: UpstreamCall): Promise<UpstreamResponse>;
  close(): void;
}

export interface UpstreamClientHooks {
  /** Replaceable for tests that check the chosen delays without waiting for them. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
  onRetry?: (info: { attempt: number; delayMs: number; status: number | null; url: string }) => void;
  /** Traces each attempt as a CLIENT span (see `telemetry/upstream-span.ts`). */
  tracer?: Tracer;
  /**
   * Resolves host names for new connections (the `lookup` of `net.connect`; default `dns.lookup`). The connector
   * passes `guarded-lookup.ts`'s check here; a test passes a resolver of made-up names.
   */
  lookup?: LookupFunction;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Network failures after which an idempotent request may be sent again. */
const RETRYABLE_NETWORK_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET']);
/** undici's and the system's ways of saying a deadline passed. */
const TIMEOUT_ERRORS = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const TOO_LARGE = 'UND_ERR_RES_EXCEEDED_MAX_SIZE';

/** Builds the client for one policy. The keep-alive connection pool is owned here and closed by `close()`. */
export function createUpstreamClient(policy: HttpPolicy, hooks: UpstreamClientHooks = {}): UpstreamClient {
  const sleep = hooks.sleep ?? defaultSleep;
  const now = hooks.now ?? Date.now;
  const maxBytes = Math.floor(policy.maxResponseBytes);
  const agent = new Agent({
    connections: policy.connectionsPerOrigin,
    connectTimeout: policy.connectTimeoutMs,
    // Runs once per new connection, never per request on a kept-alive one.
    ...(hooks.lookup === undefined ? {} : { connect: { lookup: hooks.lookup } }),
    // The per-attempt deadline below is what bounds a call; these only stop undici's own shorter defaults.
    headersTimeout: policy.timeoutMs,
    bodyTimeout: policy.timeoutMs,
    // Counted on the bytes as they arrive, with or without a content-length; decoded size is capped in decode.ts.
    maxResponseSize: maxBytes,
  });
  const tooLarge = () => new ConnectorError('payload_too_large', `The upstream response is larger than ${maxBytes} bytes.`);

  async function attempt(call: UpstreamCall): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
    const { origin, pathname, search } = new URL(call.url);
    // One deadline for the whole attempt, body included: undici's own timeouts bound only the gaps between chunks.
    // A controller rather than AbortSignal.timeout, so the timer is cleared when the call ends instead of lingering.
    const controller = new AbortController();
    const deadline = controller.signal;
    const timer = setTimeout(() => controller.abort(), policy.timeoutMs);
    try {
      // The service decodes what it asked for; a caller's own Accept-Encoding could name a coding it cannot read.
      const headers = call.headers['accept-encoding'] === ACCEPT_ENCODING ? call.headers : { ...call.headers, 'accept-encoding': ACCEPT_ENCODING };
      const res = await agent.request({ origin, path: `${pathname}${search}`, method: call.method, headers, body: call.body ?? null, signal: deadline });
      const declared = Number(res.headers['content-length']);
      if (declared > maxBytes) {
        res.body.destroy();
        throw tooLarge();
      }
      const raw = Buffer.from(await res.body.arrayBuffer());
      const resHeaders = res.headers as IncomingHttpHeaders;
      const body = resHeaders['content-encoding'] === undefined ? raw : await decodeBody(raw, resHeaders, maxBytes, tooLarge);
      return { status: res.statusCode, headers: resHeaders, body };
    } catch (error) {
      if (deadline.aborted) throw timeoutError();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  const timeoutError = () => new ConnectorError('upstream_timeout', `The upstream API did not answer within ${policy.timeoutMs} ms.`);

  // Calls in flight per origin: the pool's sockets plus those waiting for one. Past the bound the call is shed at
  // once, so a slow upstream costs a prompt 503 rather than memory that grows with every call queued behind it.
  const inFlight = new Map<string, number>();
  const bound = policy.connectionsPerOrigin + policy.maxQueuedPerOrigin;

  async function send(call: UpstreamCall): Promise<UpstreamResponse> {
    const { origin, host } = new URL(call.url);
    const busy = inFlight.get(origin) ?? 0;
    if (busy >= bound) {
      throw new ConnectorError('unavailable', `Too many calls to ${host} are already waiting (${bound}); try again shortly.`, {
        retryAfterSeconds: 1,
        details: { upstream: host, in_flight: busy },
      });
    }
    inFlight.set(origin, busy + 1);
    try {
      return await sendWithRetries(call);
    } finally {
      const left = (inFlight.get(origin) ?? 1) - 1;
      if (left === 0) inFlight.delete(origin);
      else inFlight.set(origin, left);
    }
  }

  async function sendWithRetries(call: UpstreamCall): Promise<UpstreamResponse> {
    for (let attemptNo = 1; ; attemptNo++) {
      const canRetry = call.retry && attemptNo <= policy.maxRetries;
      let res: { status: number; headers: IncomingHttpHeaders; body: Buffer };
      try {
        res = await (hooks.tracer ? traceAttempt(hooks.tracer, call.method, call.url, attemptNo, () => attempt(call)) : attempt(call));
      } catch (error) {
        if (error instanceof ConnectorError) throw error;
        // The policy's refusal of where the host resolved to: the error a refused override gets (its message names
        // only the host, the address and the rule).
        if (error instanceof ForbiddenAddressError) throw new ConnectorError('invalid_request', `The upstream host ${error.message}.`);
        const code = (error as { code?: string }).code ?? '';
        if (TIMEOUT_ERRORS.has(code)) throw timeoutError();
        if (code === TOO_LARGE) throw tooLarge();
        if (canRetry && RETRYABLE_NETWORK_ERRORS.has(code)) {
          const delayMs = retryDelayMs(attemptNo, policy, undefined, hooks.random);
          hooks.onRetry?.({ attempt: attemptNo, delayMs, status: null, url: call.url });
          await sleep(delayMs);
          continue;
        }
        // Only the error code: a client error may carry the request it failed on, headers included.
        throw new ConnectorError('upstream_error', `The upstream API could not be reached (${code || 'network error'}).`, {
          details: { status: null, code: code || null },
        });
      }
      const rateLimited = res.status === 429 || (call.isRateLimited?.(res.status, res.body) ?? false);
      if (canRetry && (rateLimited || isRetryableStatus(res.status))) {
        const delayMs = retryDelayMs(attemptNo, policy, parseRetryAfter(res.headers['retry-after'], now()), hooks.random);
        hooks.onRetry?.({ attempt: attemptNo, delayMs, status: res.status, url: call.url });
        await sleep(delayMs);
        continue;
      }
      return { status: res.status, headers: res.headers, body: res.body, attempts: attemptNo };
    }
  }

  return {
    send,
    close() {
      agent.destroy().catch(() => undefined);
    },
  };
}
