/**
 * Turns the sandbox's in-memory state (plain objects, arrays, Maps, Sets and a few classes) into JSON and back.
 *
 * JSON alone would drop Maps and the classes' prototypes (their methods); `structuredClone`/`v8.serialize` keep Maps
 * but not prototypes either. So each non-plain value is tagged: `{"$map": [[k, v], ...]}`, `{"$set": [...]}`,
 * `{"$class": "Workspace", "$fields": {...}}`, and only classes named in the registry may be revived, so the file
 * cannot make the sandbox construct anything else. The state is a tree (no shared references, no cycles); a cycle
 * is reported rather than followed forever.
 */

/** Classes the codec may revive, by name. Their instances are rebuilt field by field, without calling the constructor. */
export type ClassRegistry = ReadonlyMap<string, { prototype: object }>;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export class StateCodecError extends Error {}

export function encodeState(value: unknown, classes: ClassRegistry): Json {
  const names = new Map<object, string>([...classes].map(([name, ctor]) => [ctor.prototype, name]));
  const path = new Set<object>();
  const encode = (v: unknown, where: string): Json => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new StateCodecError(`${where}: ${v} cannot be saved`);
      return v;
    }
    if (typeof v !== 'object') throw new StateCodecError(`${where}: a ${typeof v} cannot be saved`);
    if (path.has(v)) throw new StateCodecError(`${where}: the state has a cycle`);
    path.add(v);
    try {
      if (Array.isArray(v)) return v.map((item, i) => encode(item ?? null, `${where}/${i}`));
      if (v instanceof Map) return { $map: [...v].map(([k, item], i) => [encode(k, `${where}/key${i}`), encode(item, `${where}/${String(k)}`)]) };
      if (v instanceof Set) return { $set: [...v].map((item, i) => encode(item, `${where}/${i}`)) };
      const fields: { [key: string]: Json } = {};
      for (const [k, item] of Object.entries(v)) if (item !== undefined) fields[k] = encode(item, `${where}/${k}`);
      const proto = Object.getPrototypeOf(v) as object | null;
      if (proto === Object.prototype || proto === null) return fields;
      const name = names.get(proto);
      if (name === undefined) throw new StateCodecError(`${where}: an instance of ${v.constructor?.name ?? 'an unknown class'} is not in the registry`);
      return { $class: name, $fields: fields };
    } finally {
      path.delete(v);
    }
  };
  return encode(value, '');
}

export function decodeState(json: unknown, classes: ClassRegistry): unknown {
  const decode = (v: unknown, where: string): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map((item, i) => decode(item, `${where}/${i}`));
    const o = v as Record<string, unknown>;
    if (Array.isArray(o.$map)) return new Map((o.$map as unknown[][]).map(([k, item], i) => [decode(k, `${where}/key${i}`), decode(item, `${where}/${String(k)}`)]));
    if (Array.isArray(o.$set)) return new Set((o.$set as unknown[]).map((item, i) => decode(item, `${where}/${i}`)));
    if (typeof o.$class === 'string') {
      const ctor = classes.get(o.$class);
      if (ctor === undefined) throw new StateCodecError(`${where}: unknown class ${JSON.stringify(o.$class)}`);
      const instance = Object.create(ctor.prototype) as Record<string, unknown>;
      for (const [k, item] of Object.entries((o.$fields ?? {}) as Record<string, unknown>)) instance[k] = decode(item, `${where}/${k}`);
      return instance;
    }
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(o)) out[k] = decode(item, `${where}/${k}`);
    return out;
  };
  return decode(json, '');
}
