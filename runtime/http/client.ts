/**
 * The one place upstream HTTP is sent from (tool calls, proxy requests, token and revocation requests), on got.
 *
 * got's own retry is switched off: with `throwHttpErrors: false` it would not retry status codes anyway, and the
 * retry rule here needs facts got does not have (the tool's retry policy, Google's 403 rate-limit bodies). So one
 * explicit loop retries 429/5xx for retryable requests, honouring Retry-After, with capped jittered backoff.
 * Redirects are never followed: a tool never expects one, and the proxy hands 3xx back to the caller as is.
 */
import http from 'node:http';
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { got, type Got } from 'got';
import { ConnectorError } from '../errors.js';
import type { HttpMethod } from '../types.js';
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
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Network failures that happened before the upstream could have acted on the request. */
const CONNECT_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Builds the client for one policy. Keep-alive agents are owned here and destroyed by `close()`. */
export function createUpstreamClient(policy: HttpPolicy, hooks: UpstreamClientHooks = {}): UpstreamClient {
  const sleep = hooks.sleep ?? defaultSleep;
  const now = hooks.now ?? Date.now;
  const agent = {
    http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
  };
  const client: Got = got.extend({
    agent,
    throwHttpErrors: false,
    followRedirect: false,
    retry: { limit: 0 },
    responseType: 'buffer',
    decompress: true,
    timeout: { connect: policy.connectTimeoutMs, request: policy.timeoutMs },
  });

  async function attempt(call: UpstreamCall): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
    const request = client(call.url, { method: call.method, headers: call.headers, body: call.body, responseType: 'buffer' });
    let tooLarge = false;
    request.on('response', (res: { headers: IncomingHttpHeaders }) => {
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > policy.maxResponseBytes) {
        tooLarge = true;
        request.cancel();
      }
    });
    request.on('downloadProgress', (progress: { transferred: number }) => {
      if (progress.transferred > policy.maxResponseBytes) {
        tooLarge = true;
        request.cancel();
      }
    });
    try {
      const res = await request;
      return { status: res.statusCode, headers: res.headers, body: res.body };
    } catch (error) {
      if (tooLarge) {
        throw new ConnectorError('payload_too_large', `The upstream response is larger than ${policy.maxResponseBytes} bytes.`);
      }
      throw error;
    }
  }

  async function send(call: UpstreamCall): Promise<UpstreamResponse> {
    for (let attemptNo = 1; ; attemptNo++) {
      const canRetry = call.retry && attemptNo <= policy.maxRetries;
      let res: { status: number; headers: IncomingHttpHeaders; body: Buffer };
      try {
        res = await attempt(call);
      } catch (error) {
        if (error instanceof ConnectorError) throw error;
        const code = (error as { code?: string }).code ?? '';
        if (code === 'ETIMEDOUT') {
          throw new ConnectorError('upstream_timeout', `The upstream API did not answer within ${policy.timeoutMs} ms.`);
        }
        if (canRetry && CONNECT_ERRORS.has(code)) {
          const delayMs = retryDelayMs(attemptNo, policy, undefined, hooks.random);
          hooks.onRetry?.({ attempt: attemptNo, delayMs, status: null, url: call.url });
          await sleep(delayMs);
          continue;
        }
        // Only the error code: got's error carries the request options, headers included.
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
      return { ...res, attempts: attemptNo };
    }
  }

  return {
    send,
    close() {
      agent.http.destroy();
      agent.https.destroy();
    },
  };
}
