import { ConnectorError } from '../errors.js';

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
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const raw = params[name];
    if (raw === undefined) throw invalid(name, `${name} is required to build the request path`);
    const value = String(raw);
    if (value === '' || value === '.' || value === '..') throw invalid(name, `${name} must not be empty, '.' or '..'`);
    return encodeURIComponent(value);
  });
}

function invalid(name: string, message: string): ConnectorError {
  return new ConnectorError('invalid_input', message, { details: { violations: [{ pointer: `/${name}`, message, keyword: 'path' }] } });
}
