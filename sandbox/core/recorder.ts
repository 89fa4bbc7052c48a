import type { RecordedRequest, SandboxService } from '../types.js';

/** Form fields that carry client secrets; recorded as `[redacted]` like the Authorization header. */
const SECRET_FIELDS = new Set(['client_secret']);

/** Every request the fakes received, in order, so tests can assert exactly what went upstream. */
export class RequestRecorder {
  private readonly list: RecordedRequest[] = [];

  add(entry: RecordedRequest): void {
    this.list.push({ ...entry, body: redactBody(entry.body) });
  }

  all(service?: SandboxService): RecordedRequest[] {
    return service ? this.list.filter((r) => r.service === service) : [...this.list];
  }

  clear(): void {
    this.list.length = 0;
  }
}

function redactBody(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) out[k] = SECRET_FIELDS.has(k) ? '[redacted]' : v;
  return out;
}
