/** Small readers for paths, query parameters and scopes, shared by the Google fakes. */
import { GoogleApiError, errorInfo } from './errors.js';

/** Splits a raw path into percent-decoded segments; an undecodable segment is a 400 like Google's front end. */
export function pathSegments(path: string): string[] {
  const raw = path.split('?')[0] ?? '';
  return raw
    .split('/')
    .filter((s) => s.length > 0)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        throw new GoogleApiError(400, `Invalid path segment: ${s}`);
      }
    });
}

/** The route was not matched: Google's front end answers 404 for unknown methods and paths. */
export function notFoundRoute(method: string, path: string): GoogleApiError {
  return Object.assign(new GoogleApiError(404, `Method not found: ${method} ${path}`, { reason: 'notFound' }), { unmodelled: true });
}

/** A boolean query parameter (`true`/`false`), or the default; anything else is 400 naming the parameter. */
export function boolParam(query: URLSearchParams, name: string, fallback = false): boolean {
  const v = query.get(name);
  if (v === null) return fallback;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new GoogleApiError(400, `Invalid value '${v}' for boolean parameter ${name}.`, {
    reason: 'invalidParameter',
    locationType: 'parameter',
    location: name,
  });
}

/** An integer query parameter within `[min, max]` (Google's range message), or the default. */
export function intParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const v = query.get(name);
  if (v === null) return fallback;
  const n = Number(v);
  if (!/^-?\d+$/.test(v) || !Number.isSafeInteger(n)) {
    throw new GoogleApiError(400, `Invalid value '${v}'. Values must be within the range: [${min}, ${max}]`, {
      reason: 'invalidParameter',
      locationType: 'parameter',
      location: name,
    });
  }
  if (n < min || n > max) {
    throw new GoogleApiError(400, `Invalid value '${v}'. Values must be within the range: [${min}, ${max}]`, {
      reason: 'invalidParameter',
      locationType: 'parameter',
      location: name,
    });
  }
  return n;
}

/**
 * An enumerated query parameter of a discovery-based (legacy-shaped) API such as Calendar, checked as Google checks
 * it: 400 `invalidParameter` at the parameter, "Invalid string value: 'x'. Allowed values: [a, b]" with the allowed
 * values lower-cased (the wording Calendar answers with; Google's reference pages do not show it).
 */
export function legacyEnumParam<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[]): T | undefined {
  const v = query.get(name);
  if (v === null) return undefined;
  if ((allowed as readonly string[]).includes(v)) return v as T;
  const message = `Invalid string value: '${v}'. Allowed values: [${allowed.map((a) => a.toLowerCase()).join(', ')}]`;
  throw new GoogleApiError(400, message, { reason: 'invalidParameter', locationType: 'parameter', location: name });
}

const SCOPE_PREFIX = 'https://www.googleapis.com/auth/';

/**
 * Refuses a token without any of `accepted` scopes, the way Google does (403 with
 * `ACCESS_TOKEN_SCOPE_INSUFFICIENT`, and `WWW-Authenticate: Bearer ..., error="insufficient_scope", scope="..."`
 * naming the scopes that would allow the call). Scopes are compared without the `https://www.googleapis.com/auth/` prefix,
 * so `accepted` lists short names like `calendar.readonly`. A token with no scopes at all is one minted by the
 * sandbox control API for a test (`control.issueTokens` without `scopes`) and is not restricted; Google itself never
 * issues a scope-less token.
 */
export function requireScope(granted: readonly string[], accepted: readonly string[], service: string): void {
  if (granted.length === 0) return;
  const short = new Set(granted.map((s) => (s.startsWith(SCOPE_PREFIX) ? s.slice(SCOPE_PREFIX.length) : s)));
  if (accepted.some((s) => short.has(s))) return;
  // Google's answer: the legacy item says "Insufficient Permission"; the challenge header lists the scopes that would do.
  throw new GoogleApiError(403, 'Request had insufficient authentication scopes.', {
    reason: 'insufficientPermissions',
    itemMessage: 'Insufficient Permission',
    details: [errorInfo('ACCESS_TOKEN_SCOPE_INSUFFICIENT', service)],
    headers: {
      'www-authenticate': `Bearer realm="https://accounts.google.com/", error="insufficient_scope", scope="${accepted.map((s) => SCOPE_PREFIX + s).join(' ')}"`,
    },
  });
}

/** A plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
