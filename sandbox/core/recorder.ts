import type { RecordedRequest, SandboxService } from '../types.js';

/**
 * Fields that carry a credential, a grant or a code: recorded as `[redacted]` in bodies (form or JSON, top level)
 * and query strings, like the Authorization header. Records are readable through the control API, so they never
 * hold a value that could be replayed against the sandbox.
 */
const SECRET_FIELDS = new Set([
  'client_secret',
  'client_assertion',
  'assertion',
  'code',
  'code_verifier',
  'access_token',
  'refresh_token',
  'id_token',
  'token',
]);
/** Path segments that are a token: HubSpot's token-info and revocation endpoints take it in the path. */
const TOKEN_IN_PATH = /(\/(?:refresh-tokens|access-tokens)\/)[^/]+/g;
/** Request headers that carry credentials besides Authorization. */
const SECRET_HEADERS = new Set(['cookie', 'proxy-authorization', 'x-api-key']);

const REDACTED = '[redacted]';

/** Every request the fakes received, in order, so tests can assert exactly what went upstream. */
export class RequestRecorder {
  private readonly list: RecordedRequest[] = [];

  add(entry: RecordedRequest): void {
    this.list.push({
      ...entry,
      path: entry.path.replace(TOKEN_IN_PATH, `$1${REDACTED}`),
      query: redactFields(entry.query) as RecordedRequest['query'],
      headers: Object.fromEntries(Object.entries(entry.headers).map(([k, v]) => [k, SECRET_HEADERS.has(k) ? REDACTED : v])),
      body: redactFields(entry.body),
    });
  }

  all(service?: SandboxService): RecordedRequest[] {
    return service ? this.list.filter((r) => r.service === service) : [...this.list];
  }

  clear(): void {
    this.list.length = 0;
  }
}

function redactFields(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = SECRET_FIELDS.has(k) ? REDACTED : v;
  return out;
}
