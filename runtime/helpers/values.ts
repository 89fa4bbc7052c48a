import { parseUntrustedJson } from '../json/untrusted-json.js';

/** `"a, b,,c"` → `["a", "b", "c"]`: a comma-separated list as an array, blanks dropped. */
export function splitList(value?: string): string[] | undefined {
  if (value === undefined) return undefined;
  return value.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

/** Parses a JSON string. The validator's `json-string` format has already checked it parses (and is safe to). */
export function parseJson(value?: string): unknown {
  if (value === undefined) return undefined;
  return parseUntrustedJson(value);
}

/**
 * Every value as a string, as HubSpot stores property values. null becomes "": HubSpot ignores a null in a property
 * write and only an empty string clears the property, so a caller's null (clear it) is sent as what HubSpot honours.
 */
export function stringValues(obj?: Record<string, unknown>): Record<string, string> | undefined {
  if (obj === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined) continue;
    out[k] = v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return out;
}

/**
 * `value` when given, else the current instant as an RFC 3339 UTC date-time: a timestamp the upstream requires
 * (HubSpot's note `hs_timestamp`) that the caller may leave to "now".
 */
export function timestampOrNow(value?: string): string {
  return value ?? new Date().toISOString();
}
