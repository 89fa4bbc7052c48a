/**
 * The bearer token of an `Authorization` header (RFC 6750 `b64token` syntax), or undefined: one reading for the API
 * routes and `/mcp`.
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-2.1
 */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  const match = typeof header === 'string' ? /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(header) : null;
  return match?.[1];
}
