/**
 * Ceilings on the service's own input: every string and list has one, so a request cannot store megabytes that
 * every later read then carries. The runtime enforces them (connection-input.ts, oauth/flow.ts) for in-process
 * callers; the OpenAPI document states the same numbers (codegen/emit/openapi-components.ts), and the HTTP service
 * validates against that document.
 */
export const INPUT_LIMITS = {
  /** Application-chosen end-user identifier. */
  identifier: 256,
  /** A connection id or name given to look one up (names are at most 64, ids are shorter than this). */
  connectionRef: 200,
  toolName: 128,
  clientId: 1024,
  clientSecret: 8192,
  /** Items in `scopes`, and characters in one scope. */
  scopes: 100,
  scope: 512,
  /** Items in `allowed_redirect_urls`. */
  redirectUrls: 20,
  /** Any URL: overrides, allowed redirect URLs, a link's redirect_url. */
  url: 2048,
  /** Proxy: headers and query parameters per request, and characters in one header or query value. */
  proxyHeaders: 50,
  proxyQuery: 100,
  proxyValue: 8192,
} as const;
