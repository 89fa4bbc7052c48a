/**
 * The service's pino logger: JSON lines, with every place a secret could appear redacted.
 *
 * Redaction is belt and braces: the request serializer below never logs headers or bodies at all, and drops query
 * strings (the OAuth callback's `code` and `state`) and masks link tokens in paths; {@link censorSecrets} catches a
 * secret someone logs by mistake in a structured field: every field named in `runtime/secret-fields.ts`, at the top
 * level of a line and one level down (in a plain object or an error), is written as `[redacted]`.
 *
 * It is a `formatters.log` of pino's rather than pino's `redact` paths: the same rule as a path per name at both
 * levels (58 paths, half of them wildcards) was most of the service's logging cost per call, a walk of the line's
 * keys against the list a small fraction of it (the figures: docs/benchmarks.md, "What bounds them").
 */
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import { isSecretField } from '../secret-fields.js';

const CENSOR = '[redacted]';

/** Whether a value's own fields are looked at: plain objects and errors, not a framework's request or reply. */
function scanned(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null || value instanceof Error;
}

/** `value` with its secret fields censored: a copy when it has one (an error stays an error), else `value` itself. */
function censorFields(value: object): object {
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    if (!isSecretField(key)) continue;
    copy ??=
      value instanceof Error
        ? (Object.assign(Object.create(Object.getPrototypeOf(value) as object), value, { message: value.message, stack: value.stack }) as Record<string, unknown>)
        : { ...value };
    copy[key] = CENSOR;
  }
  return copy ?? value;
}

/**
 * pino's `formatters.log`: the line's fields with every secret field (`runtime/secret-fields.ts`) censored, at the
 * top level and one level down; the object itself when there is none (the common case costs no copy).
 */
export function censorSecrets(line: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(line)) {
    const value = line[key];
    const censored = isSecretField(key) ? CENSOR : scanned(value) ? censorFields(value) : value;
    if (censored !== value) (out ??= { ...line })[key] = censored;
  }
  return out ?? line;
}

/** Paths whose last segment is a bearer capability (an authorization link token). */
const CAPABILITY_PATH = /^(\/sso\/v1\/connect\/)[^/?#]+/;

/** The URL as logged: no query string, capability segments masked. */
export function loggableUrl(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.replace(CAPABILITY_PATH, '$1[redacted]');
}

export const SERIALIZERS = {
  req(req: { method: string; url: string; id?: string }) {
    return { method: req.method, url: loggableUrl(req.url) };
  },
  res(res: { statusCode: number }) {
    return { statusCode: res.statusCode };
  },
};

/** Options for a pino logger that is safe to hand to fastify. */
export function loggerOptions(level = 'info'): LoggerOptions {
  return {
    level,
    formatters: { log: censorSecrets },
    serializers: SERIALIZERS,
  };
}

/**
 * A pino logger writing to `destination` (stdout by default). Tests pass a stream to capture lines. `pretty` (for a
 * terminal) formats the same redacted records with pino-pretty, in this process: a development convenience.
 */
export function createServiceLogger(destination?: DestinationStream, level?: string, format: 'json' | 'pretty' = 'json'): Logger {
  if (format === 'pretty') return pino(loggerOptions(level), pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', ...(destination ? { destination } : {}) }));
  return destination ? pino(loggerOptions(level), destination) : pino(loggerOptions(level));
}
