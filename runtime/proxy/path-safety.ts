/**
 * Proxy path checks. The caller's path is appended to a fixed upstream base, so the only way to reach something
 * else is to smuggle URL syntax or a dot segment that the upstream (or a server in front of it) normalizes away.
 * Anything that could do that is refused with `invalid_proxy_request` before a request is built.
 *
 * Accepted: `/` followed by RFC 3986 path characters (unreserved, sub-delims, `:`, `%XX` escapes), where no segment,
 * after decoding percent-escapes repeatedly (so `%252e` counts as `.`), is empty, `.` or `..` (also Unicode
 * look-alikes that NFKC-normalize to dots) and nothing decodes to a control character or a backslash.
 * A raw `@` is refused; `%40` is accepted, because an encoded `@` is data inside a segment (HubSpot looks contacts
 * up by e-mail) and cannot reach the authority of a URL built by concatenation.
 * `?` and `#` are refused: the query goes in `query`, so it is encoded by the service, not by the caller.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#section-3.3
 */
import type { ConnectorError } from '../errors.js';
import { violationError } from '../validation/violation-error.js';

const MAX_PATH_LENGTH = 2_048;
/** Raw characters allowed in a path: unreserved / sub-delims / ":" / "%" (escapes checked separately) / "/". */
const ALLOWED_RAW = /^[A-Za-z0-9\-._~!$&'()*+,;=:%/]*$/;
const ESCAPE = /%(?![0-9A-Fa-f]{2})/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const MAX_DECODE_ROUNDS = 4;

/**
 * Refusals name the field as a JSON pointer into the proxy request (`/path`), like every other input error, so a
 * caller (or an agent) can tell which part of its request to change.
 */
export function proxyRefusal(pointer: string, message: string, keyword = 'proxy'): ConnectorError {
  return violationError('invalid_proxy_request', message, { pointer, message, keyword });
}

function refuse(message: string): never {
  throw proxyRefusal('/path', `Proxy path refused: ${message}.`, 'path');
}

/**
 * A segment some server resolves as `.` or `..`: after NFKC (full-width and other look-alike dots), without a
 * `;parameter` (Tomcat and Jetty drop it: `..;` is `..`) and without surrounding whitespace (`%20..`, `..%20`).
 */
function isDotSegment(segment: string): boolean {
  const core = segment.normalize('NFKC').split(';', 1)[0]!.trim();
  return core === '.' || core === '..';
}

function checkSegments(path: string, label: string): void {
  // Both separators: some upstream stacks (IIS, some proxies) treat a backslash as a slash. NFKC first, so a
  // full-width solidus or reverse solidus (U+FF0F, U+FF3C) separates segments as the character it stands for.
  const segments = path.normalize('NFKC').split(/[/\\]/).slice(1);
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    // A trailing slash ("/v1/users/") is harmless; an empty segment in the middle ("//") is not.
    if (segment === '' && i < segments.length - 1) refuse(`${label} contains an empty segment ("//")`);
    if (isDotSegment(segment)) refuse(`${label} contains a "." or ".." segment`);
  }
}

/** Longest path quoted back, encoded, in the refusal of one holding characters to percent-encode. */
const QUOTED_PATH_MAX = 300;

/**
 * What is wrong with a path holding characters outside {@link ALLOWED_RAW}: which ones (a space in a sheet's name,
 * `é`, `[`), with their escapes, and the path with each escaped, to send, when that path passes every check.
 */
function unencodedProblem(path: string): string {
  const raw = [...new Set([...path].filter((ch) => !ALLOWED_RAW.test(ch)))];
  const escape = (ch: string): string => [...new TextEncoder().encode(ch)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  const named = `path contains ${raw.map((ch) => JSON.stringify(ch)).join(', ')}, which must be percent-encoded (${raw.map(escape).join(', ')})`;
  const encoded = [...path].map((ch) => (ALLOWED_RAW.test(ch) ? ch : escape(ch))).join('');
  if (encoded.length > QUOTED_PATH_MAX) return named;
  try {
    checkProxyPath(encoded);
  } catch {
    return named;
  }
  return `${named}: send ${JSON.stringify(encoded)}`;
}

/**
 * Checks a caller-supplied proxy path and returns it unchanged when it is safe; throws `invalid_proxy_request`
 * otherwise.
 */
export function checkProxyPath(path: unknown): string {
  if (typeof path !== 'string' || path === '') refuse('path must be a non-empty string');
  if (path.length > MAX_PATH_LENGTH) refuse(`path is longer than ${MAX_PATH_LENGTH} characters`);
  if (CONTROL.test(path)) refuse('path contains a control character');
  if (path.includes('\\')) refuse('path contains a backslash');
  if (path.includes('@')) refuse('path contains "@"');
  if (path.includes('?') || path.includes('#')) refuse('path contains "?" or "#"; pass query parameters in `query`');
  if (!path.startsWith('/')) {
    // An absolute URL would let a caller choose the host; a relative path is most likely a missing slash.
    refuse(/^[a-z][a-z0-9+.-]*:/i.test(path) ? 'path must be a path below the API root, not an absolute URL: start it with "/"' : 'path must start with "/" (add the leading slash)');
  }
  if (path.startsWith('//')) refuse('path must not start with "//"');
  if (!ALLOWED_RAW.test(path)) refuse(unencodedProblem(path));
  if (ESCAPE.test(path)) refuse('path contains a malformed percent-escape');
  checkSegments(path, 'path');

  let decoded = path;
  for (let round = 1; decoded.includes('%'); round++) {
    if (round > MAX_DECODE_ROUNDS) refuse('path is percent-encoded too many times');
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      refuse('path contains an invalid percent-escape');
    }
    if (next === decoded) break;
    decoded = next;
    if (CONTROL.test(decoded)) refuse('path contains an encoded control character');
    if (decoded.includes('\\')) refuse('path contains an encoded backslash');
    checkSegments(decoded, 'decoded path');
  }
  return path;
}

/** Rewrites a known path prefix (the connector's `proxyPathAliases`, e.g. `/docs/v1/` -> `/v1/`). */
export function applyPathAliases(path: string, aliases: Record<string, string>): string {
  for (const [from, to] of Object.entries(aliases)) {
    if (path.startsWith(from)) return to + path.slice(from.length);
  }
  return path;
}
