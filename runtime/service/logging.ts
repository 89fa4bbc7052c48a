/**
 * The service's pino logger: JSON lines, with every place a secret could appear redacted.
 *
 * Redaction is belt and braces: the request serializer below never logs headers or bodies at all, and drops query
 * strings (the OAuth callback's `code` and `state`) and masks link tokens in paths; the `redact` paths catch a
 * secret someone logs by mistake in a structured field.
 */
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import { SECRET_FIELDS, SECRET_HEADERS } from '../secret-fields.js';

/** The pino redact path of field `name` under `parent` ('' for the top level); `["set-cookie"]` for a name with a dash. */
function path(parent: string, name: string): string {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return `${parent}["${name}"]`;
  return parent === '' ? name : `${parent}.${name}`;
}

/**
 * Every secret field name of `runtime/secret-fields.ts` at the top level and one level down (`err.code`,
 * `headers.cookie`), and every secret header in a raw request's or response's headers.
 */
export const REDACT_PATHS: readonly string[] = [
  ...SECRET_FIELDS.flatMap((name) => [path('', name), path('*', name)]),
  ...SECRET_HEADERS.flatMap((name) => [path('req.headers', name), path('res.headers', name)]),
];

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
    redact: { paths: [...REDACT_PATHS], censor: '[redacted]' },
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
