/**
 * Which headers a proxy caller may send upstream and which upstream headers come back.
 *
 * Decision: a forbidden request header is **refused** (`invalid_proxy_request`), not silently dropped. A caller who
 * sets `Authorization` expects it to take effect; failing loudly says it never will. The HTTP service therefore
 * passes only the headers its caller asked to forward, never its own incoming request headers.
 */
import { proxyRefusal } from './path-safety.js';
import { pointerToken } from '../validation/violations.js';

/** Credentials and routing the service owns. */
const OWNED = new Set(['authorization', 'host', 'cookie', 'content-length']);
/** Hop-by-hop headers (RFC 9110 §7.6.1) and forwarding headers that would let a caller lie about the client. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
/**
 * Forwarding and URL-rewrite headers: proxies and frameworks in front of an upstream (IIS and Symfony read
 * `X-Original-URL`/`X-Rewrite-URL` as the path to serve; Cloudflare, Akamai and others read the client-address ones)
 * would let a caller change the path the proxy checked or claim another client.
 */
const FORWARDING = new Set([
  'forwarded',
  'x-real-ip',
  'via',
  'x-original-url',
  'x-rewrite-url',
  'x-client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'x-cluster-client-ip',
  'x-host',
]);
/** `Expect: 100-continue` is a handshake between the service and the upstream, which the service does not make. */
const HANDSHAKE = new Set(['expect']);
/**
 * Method-override headers: several frameworks (Rails, Express `method-override`, Google APIs for
 * `X-HTTP-Method-Override`) let them replace the request method, which would turn a `GET` the proxy checked into a
 * `DELETE` upstream and sidestep the method allowlist.
 * @see https://cloud.google.com/apis/docs/http#http_method_override
 */
const METHOD_OVERRIDE = new Set(['x-http-method-override', 'x-http-method', 'x-method-override']);

/** Header name token (RFC 9110 §5.6.2). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// eslint-disable-next-line no-control-regex
const BAD_VALUE = /[\u0000-\u0008\u000a-\u001f\u007f]/;
/** HTTP/1.1 field values are bytes; Node sends Latin-1 and refuses anything beyond it when the request is written. */
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;

/** Whether a caller may not set this request header on a proxy call. */
export function isForbiddenProxyHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return OWNED.has(lower) || HOP_BY_HOP.has(lower) || HANDSHAKE.has(lower) || FORWARDING.has(lower) || METHOD_OVERRIDE.has(lower) || lower.startsWith('proxy-') || lower.startsWith('x-forwarded-');
}

/** Checks the caller's headers; returns them with lower-case names. Throws `invalid_proxy_request`. */
export function checkProxyHeaders(headers: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers === undefined || headers === null) return out;
  if (typeof headers !== 'object' || Array.isArray(headers)) {
    throw proxyRefusal('/headers', 'Proxy headers must be an object of header names to string values.', 'type');
  }
  for (const [name, value] of Object.entries(headers)) {
    const at = `/headers/${pointerToken(name.slice(0, 64))}`;
    if (!TOKEN.test(name)) throw proxyRefusal(at, `Proxy header name ${JSON.stringify(name.slice(0, 64))} is not a valid header name.`, 'header_name');
    if (isForbiddenProxyHeader(name)) throw proxyRefusal(at, `Proxy header ${name} cannot be set by the caller.`, 'forbidden_header');
    if (typeof value !== 'string') throw proxyRefusal(at, `Proxy header ${name} must be a string.`, 'type');
    if (BAD_VALUE.test(value)) throw proxyRefusal(at, `Proxy header ${name} contains a control character.`, 'header_value');
    if (BEYOND_LATIN1.test(value)) {
      throw proxyRefusal(at, `Proxy header ${name} contains a character outside Latin-1; percent-encode it (or use RFC 8187 encoding) as the upstream expects.`, 'header_value');
    }
    out[name.toLowerCase()] = value;
  }
  return out;
}

/** Response headers never passed back: cookies (the upstream session is the service's, not the caller's), hop-by-hop, and framing the service redoes. */
const DROPPED_RESPONSE = new Set(['set-cookie', 'set-cookie2', 'content-length', 'content-encoding', ...HOP_BY_HOP]);

/** Upstream response headers as the proxy returns them. */
export function filterResponseHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || DROPPED_RESPONSE.has(lower) || lower.startsWith('proxy-')) continue;
    out[lower] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
