import type { ConnectorError } from '../errors.js';
import { violationError } from '../validation/violation-error.js';

const PLACEHOLDER = /\{([^{}]+)\}/g;

/**
 * Fills a path template's `{name}` placeholders, percent-encoding each value as one segment. This is the only way an
 * upstream path is built from input: a value can never add a segment (`/` is encoded), and empty values, `.` and `..`
 * are refused, so `../../admin` style input cannot walk the upstream path.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-3.3 (path segments, dot-segments)
 * @throws ConnectorError `invalid_input` naming the parameter when a value is missing, empty or a dot segment.
 */
export function buildPath(template: string, params: Readonly<Record<string, string | number | undefined>>): string {
  const parts = splitTemplate(template);
  let out = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] as string;
    const raw = params[name];
    if (raw === undefined) throw invalid(name, `${name} is required to build the request path`);
    const value = String(raw);
    if (value === '' || value === '.' || value === '..') throw invalid(name, `${name} must not be empty, '.' or '..'`);
    out += encodeURIComponent(value) + (parts[i + 1] as string);
  }
  return out;
}

/** `[text, name, text, ...]`: the template's literal pieces around its placeholder names. */
function splitTemplate(template: string): readonly string[] {
  const parts: string[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    parts.push(template.slice(last, match.index), match[1] as string);
    last = (match.index as number) + match[0].length;
  }
  parts.push(template.slice(last));
  return parts;
}

function invalid(name: string, message: string): ConnectorError {
  return violationError('invalid_input', message, { pointer: `/${name}`, message, keyword: 'path' });
}
