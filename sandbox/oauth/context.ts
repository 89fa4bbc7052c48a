import type { OAuthProvider } from '../types.js';
import type { GrantStore } from './grant-store.js';
import secureJson from 'secure-json-parse';

/** What the OAuth servers need from the sandbox. */
export interface OAuthContext {
  store: GrantStore;
  now(): number;
  /** Creates the user's sample data in every fake API (idempotent). */
  seedUser(user: string): void;
}

/** An OAuth request after the core has read it. */
export interface OAuthRequest {
  provider: OAuthProvider;
  method: string;
  /** Path after the provider prefix, e.g. `/v1/oauth/token`. */
  path: string;
  /** The request path as received, with its query string (consent forms post back to it). */
  rawUrl: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  rawBody: string;
}

/** An OAuth response: JSON, HTML or a redirect. */
export type OAuthResponse =
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'html'; status: number; html: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'empty'; status: number };

/** An RFC 6749 section 5.2 error before each provider renders it in its own body. */
export interface OAuthFailure {
  status: number;
  error: string;
  description: string;
  /** HubSpot's legacy `status` value, e.g. `BAD_AUTH_CODE`. */
  legacyStatus?: string;
}

export function fail(status: number, error: string, description: string, legacyStatus?: string): OAuthFailure {
  return legacyStatus === undefined ? { status, error, description } : { status, error, description, legacyStatus };
}

export function isFailure(x: unknown): x is OAuthFailure {
  return typeof x === 'object' && x !== null && 'error' in x && 'status' in x && 'description' in x;
}

/** Parses `Authorization: Basic base64(id:secret)` (RFC 6749 section 2.3.1: both parts form-urlencoded). */
export function parseBasic(header: string | undefined): { clientId: string; clientSecret: string } | null {
  if (!header) return null;
  const m = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(header);
  if (!m || !m[1]) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return null;
  const dec = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  };
  return { clientId: dec(decoded.slice(0, i)), clientSecret: dec(decoded.slice(i + 1)) };
}

/** Parses a form or JSON body into string fields; `null` when the body is not of the expected format. */
export function parseFields(rawBody: string, contentType: string | undefined, format: 'form' | 'json'): Record<string, string> | null {
  const ct = (contentType ?? '').toLowerCase();
  if (format === 'form') {
    if (rawBody !== '' && !ct.startsWith('application/x-www-form-urlencoded')) return null;
    return Object.fromEntries(new URLSearchParams(rawBody));
  }
  if (!ct.startsWith('application/json')) return null;
  try {
    const parsed: unknown = rawBody === '' ? {} : secureJson.parse(rawBody, undefined, { protoAction: 'error', constructorAction: 'error' });
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) if (typeof v === 'string') out[k] = v;
    return out;
  } catch {
    return null;
  }
}
