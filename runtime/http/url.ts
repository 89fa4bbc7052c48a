/**
 * Joins an upstream base (the connector's host root, or a connection's override) with a request path and query.
 *
 * This is concatenation, never URL resolution: `new URL(path, base)` would let `//evil.example` or `/..` escape the
 * base. Paths reaching this function come from the generated builders (segments encoded by `runtime/http/path.ts`)
 * or from the proxy after `checkProxyPath`.
 */

/** `base` without trailing slashes + `path` (which starts with `/`) + `?query`. */
export function joinUpstreamUrl(base: string, path: string, query?: Record<string, string | string[] | undefined>): string {
  let end = base.length;
  while (end > 0 && base.charCodeAt(end - 1) === 47 /* / */) end--;
  const root = end === base.length ? base : base.slice(0, end);
  const url = root + (path.startsWith('/') ? path : `/${path}`);
  const qs = encodeQuery(query);
  return qs === '' ? url : `${url}?${qs}`;
}

/** Encodes a query record; array values become repeated parameters, undefined values are left out. */
export function encodeQuery(query: Record<string, string | string[] | undefined> | undefined): string {
  if (query === undefined) return '';
  let empty = true;
  for (const key in query) if (query[key] !== undefined) empty = false;
  if (empty) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, item);
    else params.append(key, value);
  }
  return params.toString();
}
