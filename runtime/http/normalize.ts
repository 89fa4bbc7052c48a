/**
 * Upstream answers -> the service's error catalogue, per error dialect (Notion, Google, HubSpot).
 *
 * The upstream's error body is passed on in `details.body` because it is what a caller (or an LLM) needs to fix the
 * call, but sanitized: bounded in size, with any secret this call used (the bearer token) redacted. Request headers
 * are never echoed.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ConnectorError } from '../errors.js';
import { parseUntrustedJson } from '../json/untrusted-json.js';
import type { ErrorDialect, UpstreamErrorHint } from '../types.js';
import { parseRetryAfter } from './retry.js';
import { dialectCodes } from './dialect-codes.js';
import { missingScope } from './missing-scope.js';
import { matchingHint, sentence, withHint } from './upstream-hint.js';

/** The longest text an error passes on (an upstream body that is not JSON, each string of an over-large JSON one). */
export const MAX_TEXT_BODY = 2_000;
const MAX_JSON_ERROR_BODY = 16_384;
const MAX_JSON_ERROR_READ = 1024 * 1024;
const MAX_MESSAGE = 300;
const REDACTED = '[redacted]';

/**
 * Google reports per-user and per-project quota exhaustion as 403 with these `errors[].reason` values (Calendar's
 * shape), or, in the newer shape without `errors` (Sheets, Docs), with an ErrorInfo whose reason is
 * `RATE_LIMIT_EXCEEDED` ("not enough rate quota for the consumer").
 * @see https://cloud.google.com/apis/design/errors
 */
const GOOGLE_RATE_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'quotaExceeded', 'dailyLimitExceeded', 'RATE_LIMIT_EXCEEDED']);

/** Parses a JSON body (a success's); returns the text, cut to {@link MAX_TEXT_BODY}, when it is not JSON; undefined when empty. */
export function parseBody(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  const text = body.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return cut(text);
  }
}

/**
 * An upstream error body, read and shown. `read` is what the service understands the refusal from (its code, message,
 * scopes and the tool's hint): its JSON whenever it reads as untrusted JSON (depth-limited, no prototype keys) and is
 * at most {@link MAX_JSON_ERROR_READ} bytes, else its text. `shown` is what `details.body` passes on: that JSON when
 * it is at most {@link MAX_JSON_ERROR_BODY} bytes; a larger JSON body with each string over {@link MAX_TEXT_BODY}
 * characters clipped, when that brings it within the bound (HubSpot's refusal of an option lists every option in
 * one message: over 16 KB for `industry`); else the text, cut to {@link MAX_TEXT_BODY}. A provider's own errors are a few
 * KB; anything else is not worth a caller's (or a model's) context, and a deep one would overflow the walk that
 * redacts it. Each of `secrets` is redacted first, so a token across a cut does not leave its first characters behind.
 */
function errorBody(body: Buffer, secrets: Redaction): { read: unknown; shown: unknown } | undefined {
  if (body.length === 0) return undefined;
  const text = body.toString('utf8');
  const asText = () => cut(secrets.apply(text));
  let json: unknown;
  try {
    if (body.length > MAX_JSON_ERROR_READ) throw new RangeError('too large to read');
    json = secrets.apply(parseUntrustedJson(text));
  } catch {
    // Not JSON, too deep, too large, or a poisoning key: read and passed on as text.
    const shown = asText();
    return { read: shown, shown };
  }
  if (body.length <= MAX_JSON_ERROR_BODY) return { read: json, shown: json };
  const clippedJson = clipStrings(json);
  return { read: json, shown: JSON.stringify(clippedJson).length <= MAX_JSON_ERROR_BODY ? clippedJson : asText() };
}

const cut = (text: string): string => (text.length > MAX_TEXT_BODY ? `${text.slice(0, MAX_TEXT_BODY)}...` : text);

/**
 * `text` as an error quotes it: whole up to `max` characters, else cut at the last word break before that and ended
 * with an ellipsis, so no word is cut in two.
 */
export function clipped(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const lastBreak = head.search(/\s\S*$/);
  return `${(lastBreak > 0 ? head.slice(0, lastBreak) : head).trimEnd()}…`;
}

/** A JSON value with every string over {@link MAX_TEXT_BODY} characters clipped (keys are left as they are). */
function clipStrings(value: unknown): unknown {
  if (typeof value === 'string') return clipped(value, MAX_TEXT_BODY);
  if (Array.isArray(value)) return value.map(clipStrings);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, clipStrings(inner)]));
  return value;
}

/**
 * The shortest secret a {@link Redaction} takes out wherever it appears: a shorter one could match unrelated text
 * (the execution history takes a shorter value of a secret field out of a message as a word: `executions/error-message.ts`).
 */
export const MIN_REDACTED_SECRET = 8;

/** The shortest base64 run of a secret that is redacted: a shorter one could match unrelated text. */
const MIN_BASE64_FORM = 16;

/** `text` as a regular expression matching it literally. */
export const literalPattern = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const jsonEscaped = (text: string): string => JSON.stringify(text).slice(1, -1);
const lowerHex = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());

/**
 * The forms a secret takes when an upstream echoes it after passing it through an encoding: as it is; JSON-escaped
 * once or twice (JSON text quoted inside a JSON string), with or without `/` escaped as `\/`; URL-encoded once or
 * twice, in either case of hex; and base64 or base64url at each of the three alignments it can have inside a longer
 * base64 run (a Basic credential, a dump): the whole groups that hold only the secret's bytes, so at most two bytes
 * at each end are left beside the redaction.
 */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  let level = [secret];
  for (let depth = 0; depth < 2; depth++) {
    level = level.flatMap((text) => {
      const escaped = jsonEscaped(text);
      return [escaped, escaped.replace(/\//g, '\\/')];
    });
    for (const form of level) forms.add(form);
  }
  const once = encodeURIComponent(secret);
  const twice = encodeURIComponent(once);
  for (const form of [once, lowerHex(once), twice, lowerHex(twice)]) forms.add(form);
  const bytes = Buffer.from(secret, 'utf8');
  for (let skip = 0; skip < 3; skip++) {
    const whole = bytes.subarray(skip, skip + Math.floor((bytes.length - skip) / 3) * 3);
    const base64 = whole.toString('base64');
    if (base64.length < MIN_BASE64_FORM) continue;
    forms.add(base64);
    forms.add(whole.toString('base64url'));
  }
  return [...forms];
}

/**
 * The redaction of a set of secrets, built once and applied to as many values as it is given: every occurrence of
 * each secret of at least {@link MIN_REDACTED_SECRET} (8) characters, in any of its {@link secretForms}, in every string (and key) of a JSON value,
 * is replaced by `[redacted]`. One pattern of all the forms, longest first, so a string is scanned once whatever the
 * number of forms. Building it (the forms, the pattern) is the costly part: a caller that redacts with the same
 * secrets again keeps the redaction (the executor's, per token set: `executor/token-redactions.ts`).
 */
export class Redaction {
  /** Undefined when no secret is long enough to redact: every value is then returned as it is. */
  private readonly pattern: RegExp | undefined;
  private readonly shortest: number;

  constructor(secrets: readonly string[]) {
    const live = secrets.filter((s) => s.length >= MIN_REDACTED_SECRET);
    const forms = [...new Set(live.flatMap(secretForms))].sort((a, b) => b.length - a.length);
    this.pattern = forms.length === 0 ? undefined : new RegExp(forms.map(literalPattern).join('|'), 'g');
    this.shortest = forms.length === 0 ? 0 : forms[forms.length - 1]!.length;
  }

  /**
   * `value` with every secret replaced. Nothing is copied where nothing matched (the usual answer comes back as the
   * very same object): an array or object is copied only when something in it changed, and then holds its unchanged
   * members as they are.
   */
  apply<T>(value: T): T {
    const { pattern, shortest } = this;
    if (pattern === undefined) return value;
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') return v.length < shortest ? v : v.replace(pattern, REDACTED);
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          const item: unknown = v[i];
          const scrubbed = walk(item);
          if (scrubbed === item) continue;
          const copy = v.slice(0, i);
          copy.push(scrubbed);
          for (let j = i + 1; j < v.length; j++) copy.push(walk(v[j]));
          return copy;
        }
        return v;
      }
      if (v !== null && typeof v === 'object') {
        const record = v as Record<string, unknown>;
        const keys = Object.keys(record);
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i]!;
          const inner = record[key];
          const scrubbedKey = walk(key);
          const scrubbed = walk(inner);
          if (scrubbedKey === key && scrubbed === inner) continue;
          // Own properties, as JSON.parse makes them: assigned, a key `__proto__` would set the copy's prototype instead.
          const entries: [unknown, unknown][] = keys.slice(0, i).map((k) => [k, record[k]]);
          entries.push([scrubbedKey, scrubbed]);
          for (let j = i + 1; j < keys.length; j++) entries.push([walk(keys[j]), walk(record[keys[j]!])]);
          return Object.fromEntries(entries);
        }
        return v;
      }
      return v;
    };
    return walk(value) as T;
  }
}

/** `secrets` as a {@link Redaction}: the one a caller kept, or one built for this use from the secrets themselves. */
const redaction = (secrets: Redaction | readonly string[]): Redaction => (secrets instanceof Redaction ? secrets : new Redaction(secrets));

/** Redacts `secrets` (a {@link Redaction} kept by the caller, or the secrets themselves) from a JSON value. */
export function redact<T>(value: T, secrets: Redaction | readonly string[]): T {
  return redaction(secrets).apply(value);
}

/** Whether this non-429 answer is a rate limit in the dialect (Google's 403 usageLimits). */
export function isDialectRateLimit(dialect: ErrorDialect, status: number, body: unknown): boolean {
  if (status === 429) return true;
  if (dialect !== 'google' || status !== 403) return false;
  return dialectCodes(dialect, body).some((code) => GOOGLE_RATE_REASONS.has(code));
}

/** The upstream's own error message, where its dialect puts it. */
export function dialectMessage(dialect: ErrorDialect, body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (body === null || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  let message: unknown;
  if (dialect === 'google') {
    const err = b.error;
    message = err !== null && typeof err === 'object' ? (err as Record<string, unknown>).message : (b.error_description ?? err);
  } else {
    message = b.message ?? b.error_description ?? b.error;
  }
  return typeof message === 'string' ? message : undefined;
}

/**
 * What a provider's failure (5xx) asks of the caller, which the provider's words ("Backend Error") do not say: it is
 * not the input, and a call safe to repeat may simply be repeated, where one that changes something may have done so.
 */
const REPEAT = 'The provider failed, not the call: the same call may work if repeated in a moment.';
const CHECK_FIRST = 'The provider failed, not the call, and may have done it anyway: look it up (read or search) before repeating the call.';

/** Default Retry-After when a rate-limited answer gives none: HubSpot's window is ten seconds. */
function defaultRetryAfterSeconds(dialect: ErrorDialect): number {
  return dialect === 'hubspot' ? 10 : 1;
}

export interface UpstreamErrorInput {
  dialect: ErrorDialect;
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Secret values used by this call (or their {@link Redaction}); redacted wherever they appear in the body. */
  secrets: Redaction | readonly string[];
  /** The refused request, `METHOD /path` (no query): named when the provider does not say what is missing. */
  resource?: string;
  /**
   * Whether the refused call is safe to repeat (a read, or idempotent): a provider failure (5xx) then says to repeat
   * it, else to check whether it was done first. Unset: the message says neither.
   */
  repeatable?: boolean;
  /** The tool's hints (its spec's `upstream_errors`, then its connector's): the first that matches an `upstream_error` is added to it. */
  hints?: readonly UpstreamErrorHint[];
  now?: number;
}

/**
 * Turns an upstream error answer into a catalogue error: `upstream_rate_limited` (429, and Google's 403 quota
 * reasons), `insufficient_scope` (403, a missing scope or capability), `upstream_error` with the upstream's own status
 * for any other 4xx (a 404 stays a 404: callers and agent frameworks retry a 502, never a 404), and `upstream_error`
 * 502 for a 5xx or anything else. A 401 only gets here when it was not the token (the executor refreshes on 401).
 */
export function upstreamError(input: UpstreamErrorInput): ConnectorError {
  const secrets = redaction(input.secrets);
  const { read: body, shown } = errorBody(input.body, secrets) ?? { read: undefined, shown: null };
  const upstreamMessage = dialectMessage(input.dialect, body);
  // The upstream's message as the error's own quotes it; the whole answer stays in `details.body`.
  const shortMessage = upstreamMessage === undefined ? '' : `: ${clipped(upstreamMessage, MAX_MESSAGE)}`;
  const details = { status: input.status, body: shown };
  if (isDialectRateLimit(input.dialect, input.status, body)) {
    const afterMs = parseRetryAfter(input.headers['retry-after'], input.now);
    const retryAfterSeconds = afterMs === undefined ? defaultRetryAfterSeconds(input.dialect) : Math.max(1, Math.ceil(afterMs / 1000));
    return new ConnectorError('upstream_rate_limited', `The upstream API rate-limited the call (${input.status})${shortMessage}`, {
      details,
      retryAfterSeconds,
    });
  }
  // The challenge's scopes are repeated in the message and details: an upstream may echo the token into it too.
  const scope = missingScope(input.dialect, input.status, body, secrets.apply(input.headers));
  if (scope !== undefined) {
    const what = input.resource ?? 'this call';
    const message =
      scope.requiredScopes.length > 0
        ? `The user's authorization does not cover ${what}: it needs ${scope.requiredScopes.length === 1 ? 'the scope' : scope.allRequired ? 'all of the scopes' : 'one of the scopes'} ${scope.requiredScopes.join(', ')}. Authorize again with the missing ${scope.allRequired && scope.requiredScopes.length > 1 ? 'scopes' : 'scope'} (POST /api/v1/connected_accounts/magic_link with "scopes").`
        : input.dialect === 'notion'
          ? `The integration may not do ${what}: it lacks the capability this needs (capabilities are set on the integration, not by the user)${shortMessage}`
          : `The user's authorization does not cover ${what}${shortMessage}`;
    return new ConnectorError('insufficient_scope', message, {
      details: {
        ...details,
        ...(scope.requiredScopes.length > 0 ? { required_scopes: scope.requiredScopes, required_scopes_all: scope.allRequired } : {}),
        ...(input.resource === undefined ? {} : { resource: input.resource }),
      },
    });
  }
  const passThrough = input.status >= 400 && input.status < 500 && input.status !== 401;
  const where = input.resource === undefined ? '' : ` to ${input.resource}`;
  const answered = `The upstream API answered ${input.status}${where}${shortMessage}`;
  const message = input.status >= 500 && input.repeatable !== undefined ? sentence(answered, input.repeatable ? REPEAT : CHECK_FIRST) : answered;
  // A hint says what the provider's words do not: which parameter to check, and which tool finds a valid value.
  const hint = input.hints === undefined ? undefined : matchingHint(input.hints, input.dialect, input.status, body, upstreamMessage);
  return new ConnectorError('upstream_error', hint === undefined ? message : withHint(message, hint), {
    details: hint === undefined ? details : { ...details, hint },
    ...(passThrough ? { status: input.status } : {}),
  });
}
