/**
 * The input as the execution history keeps it when input capture is on: every field whose name says it holds a
 * secret ({@link isSecretLooking}: the names of `runtime/secret-fields.ts`, or a name containing one of its words), and
 * every field named in the configuration, replaced by `[redacted]` at any depth, as is an {@link OpaqueText}. Strings are cut at
 * 1,000 characters and the whole at 16 KiB of JSON (replaced by a note saying so), so a large upload does not
 * become a large row.
 */
import { MAX_JSON_DEPTH } from '../json/untrusted-json.js';
import { isSecretLooking } from '../secret-fields.js';

const MAX_STRING = 1_000;
const REDACTED = '[redacted]';

/**
 * Text the history keeps only as `[redacted]`: a proxy body it cannot read as fields (text/plain, XML, a bare string),
 * so cannot redact by field name (`execution-start.ts`). Its whole text counts as a redacted value
 * ({@link redactedValues}), so a failed call's message that quotes it loses it too.
 */
export class OpaqueText {
  constructor(readonly text: string) {}
}
const MAX_JSON = 16 * 1024;

/** Whether the history hides a field named `name`: its name says it holds a secret, or the configuration names it. */
function isRedacted(name: string, fields: ReadonlySet<string>): boolean {
  return isSecretLooking(name) || fields.has(name);
}

export function redactInput(value: unknown, fields: ReadonlySet<string>): unknown {
  const walk = (v: unknown): unknown => {
    if (v instanceof OpaqueText) return REDACTED;
    if (typeof v === 'string') return v.length > MAX_STRING ? `${v.slice(0, MAX_STRING)}…` : v;
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map(walk);
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(v)) out[k] = isRedacted(k, fields) ? REDACTED : walk(item);
    return out;
  };
  const redacted = walk(value);
  const size = JSON.stringify(redacted)?.length ?? 0;
  return size > MAX_JSON ? { truncated: true, json_length: size } : redacted;
}

/**
 * The values {@link redactInput} would hide: every string and number (as text) held, at any depth, by a field it
 * redacts, and the text of an {@link OpaqueText}. A failed call's message may quote one (a refused value), so the history takes them out of it too. The walk
 * stops at the JSON depth limit: an in-process caller's input is not depth-checked, and a failed call's record must
 * not overflow the stack (no refusal quotes a value that deep).
 */
export function redactedValues(value: unknown, fields: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const all = (v: unknown, depth: number): void => {
    if (typeof v === 'string') found.push(v);
    else if (v instanceof OpaqueText) found.push(v.text);
    else if (typeof v === 'number') found.push(String(v));
    else if (v !== null && typeof v === 'object' && depth < MAX_JSON_DEPTH) for (const item of Object.values(v)) all(item, depth + 1);
  };
  const walk = (v: unknown, depth: number): void => {
    if (v instanceof OpaqueText) return void found.push(v.text);
    if (v === null || typeof v !== 'object' || depth >= MAX_JSON_DEPTH) return;
    for (const [k, item] of Object.entries(v)) {
      if (isRedacted(k, fields)) all(item, depth + 1);
      else walk(item, depth + 1);
    }
  };
  walk(value, 0);
  return found;
}
