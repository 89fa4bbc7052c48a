/**
 * Small structural helpers for request mappings, where the expression language only names whole parameters.
 */

/** One member of an object parameter (e.g. a comment's `rich_text`); absent when the object is absent. */
export function member<T extends object, K extends keyof T>(obj: T | undefined, key: K): T[K] | undefined {
  return obj === undefined ? undefined : obj[key];
}

/** The members of `extra` laid over `base` (absent members of `extra` do not erase `base`); absent when both are. */
export function mergeObjects(base?: Record<string, unknown>, extra?: Record<string, unknown>): Record<string, unknown> | undefined {
  if (base === undefined && extra === undefined) return undefined;
  const out: Record<string, unknown> = { ...(base ?? {}) };
  for (const [k, v] of Object.entries(extra ?? {})) if (v !== undefined) out[k] = v;
  return out;
}

/** `value` when present, else `fallback`: a default the upstream requires but the caller may omit. */
export function withDefault<T>(value: T | undefined, fallback: T): T {
  return value === undefined ? fallback : value;
}

/** `["a", "b"]` with `id` → `[{id: "a"}, {id: "b"}]`: a list of values sent as one-member objects (freeBusy's `items`). */
export function keyedObjects<T>(values: readonly T[], key: string): Array<Record<string, T>> {
  return values.map((value) => ({ [key]: value }));
}
