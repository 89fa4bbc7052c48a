/**
 * The input as the execution history keeps it when input capture is on: every field whose name says it holds a
 * secret ({@link isSecretLooking}: the names of `runtime/secret-fields.ts`, or a name containing one of its words), and
 * every field named in the configuration, replaced by `[redacted]` at any depth. Strings are cut at
 * 1,000 characters and the whole at 16 KiB of JSON (replaced by a note saying so), so a large upload does not
 * become a large row.
 */
import { isSecretLooking } from '../secret-fields.js';

const MAX_STRING = 1_000;
const MAX_JSON = 16 * 1024;

export function redactInput(value: unknown, fields: ReadonlySet<string>): unknown {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v.length > MAX_STRING ? `${v.slice(0, MAX_STRING)}…` : v;
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map(walk);
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(v)) out[k] = isSecretLooking(k) || fields.has(k) ? '[redacted]' : walk(item);
    return out;
  };
  const redacted = walk(value);
  const size = JSON.stringify(redacted)?.length ?? 0;
  return size > MAX_JSON ? { truncated: true, json_length: size } : redacted;
}
