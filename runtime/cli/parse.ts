/** Parsing of CLI option values, with messages that name the option and the problem. */
import { UsageError } from './io.js';

/** Parses `--input`-style JSON; the message names the option and where the JSON broke. */
export function parseJsonOption(name: string, text: string, expect: 'object' | 'any' = 'object'): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof SyntaxError ? error.message : String(error);
    throw new UsageError(`${name} is not valid JSON: ${detail}. Example: ${name} '{"calendar_id":"primary"}'`);
  }
  if (expect === 'object' && (value === null || typeof value !== 'object' || Array.isArray(value))) {
    throw new UsageError(`${name} must be a JSON object such as '{"key":"value"}' (got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value})`);
  }
  return value;
}

/** `key=value` pairs (repeatable) into a record; repeated keys become arrays. */
export function parsePairs(name: string, pairs: readonly string[], separator: '=' | ':'): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const pair of pairs) {
    const at = pair.indexOf(separator);
    if (at <= 0) throw new UsageError(`${name} expects key${separator}value (got ${JSON.stringify(pair)})`);
    const key = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
