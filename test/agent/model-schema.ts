/**
 * The schema a model is given, as the tests read it: Gemini's Schema as the JSON Schema it stands for, and the
 * arguments a model bound by a strict schema writes (null for each property it leaves out). Shared by
 * format-examples.test.ts and model-calls.test.ts.
 */
type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Gemini's Schema as the JSON Schema it stands for (upper-case types, `nullable`). */
export function geminiAsJsonSchema(s: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'type') out.type = String(v).toLowerCase();
    else if (k === 'nullable') continue;
    else if (k === 'properties') out.properties = Object.fromEntries(Object.entries(v as Obj).map(([n, p]) => [n, geminiAsJsonSchema(p as Obj)]));
    else if (k === 'items') out.items = geminiAsJsonSchema(v as Obj);
    else if (k === 'anyOf') out.anyOf = (v as Obj[]).map(geminiAsJsonSchema);
    else out[k] = v;
  }
  return s.nullable === true ? { anyOf: [out, { type: 'null' }] } : out;
}

/**
 * Null for every listed property a value leaves out, as a model bound by a strict schema writes it. A key the schema
 * does not list is kept, so that the schema's check still refuses it.
 */
export function withNulls(schema: Obj, v: unknown): unknown {
  if (Array.isArray(v)) return isObj(schema.items) ? v.map((x) => withNulls(schema.items, x)) : v;
  if (!isObj(v)) return v;
  const branches = (schema.anyOf as Obj[] | undefined)?.filter((b) => isObj(b.properties));
  const shape = isObj(schema.properties) ? schema : branches?.find((b) => Object.keys(v).every((k) => k in b.properties));
  if (!shape) return v;
  const listed = Object.fromEntries(Object.entries(shape.properties as Obj).map(([k, sub]) => [k, k in v ? withNulls(sub, v[k]) : null]));
  return { ...listed, ...Object.fromEntries(Object.entries(v).filter(([k]) => !(k in listed))) };
}
