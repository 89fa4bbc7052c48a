import { isSecretField } from '../../runtime/secret-fields.js';
import type { RecordedRequest, SandboxService } from '../types.js';
import { redactAuthorization } from './http.js';

/** Path segments that are a token: HubSpot's token-info and revocation endpoints take it in the path. */
const TOKEN_IN_PATH = /(\/(?:refresh-tokens|access-tokens)\/)[^/]+/g;

const REDACTED = '[redacted]';

/**
 * Every request the fakes received, in order, so tests can assert exactly what went upstream. Records are readable
 * through the control API, so they never hold a value that could be replayed against the sandbox: every field named
 * in `runtime/secret-fields.ts` is recorded as `[redacted]` in bodies (form or JSON, top level), query strings and
 * headers, the Authorization header keeps its scheme only, and token path segments are masked.
 */
export class RequestRecorder {
  private readonly list: RecordedRequest[] = [];

  add(entry: RecordedRequest): void {
    this.list.push({
      ...entry,
      path: entry.path.replace(TOKEN_IN_PATH, `$1${REDACTED}`),
      query: redactFields(entry.query) as RecordedRequest['query'],
      headers: Object.fromEntries(Object.entries(entry.headers).map(([k, v]) => [k, k === 'authorization' ? redactAuthorization(v) : isSecretField(k) ? REDACTED : v])),
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
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = isSecretField(k) ? REDACTED : v;
  return out;
}
