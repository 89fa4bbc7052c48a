/**
 * Shared schemas: a connector spec's `schemas:` names JSON Schemas (an event, a page) that the outputs of its tools
 * refer to with `$ref: '#/schemas/<Name>'`, so a resource is written once. Beside a `$ref` a schema may give its own
 * `description` (replacing the shared one's) and `properties` (added to the shared one's fields, or replacing the one
 * of the same name: a tool whose answer holds more). The model holds outputs with every ref written out in place, so
 * no emitter and no later check sees a ref.
 */
import type { JsonSchema } from '../../runtime/types.js';
import type { SchemaSpec } from '../load/spec-types.js';
import type { SpecPath } from '../load/yaml-source.js';

const REF = /^#\/schemas\/([A-Za-z][A-Za-z0-9_]*)$/;

/** The keys that may stand beside a `$ref`. */
export const REF_SIBLINGS: readonly string[] = ['description', 'properties'];

/** The shared schema a `$ref` value names, or undefined when it is not `#/schemas/<Name>`. */
export function refName(ref: unknown): string | undefined {
  return typeof ref === 'string' ? REF.exec(ref)?.[1] : undefined;
}

/** Whether a schema is a reference (has a `$ref` key, well formed or not). */
export function isRef(schema: SchemaSpec): boolean {
  return Object.hasOwn(schema, '$ref');
}

/**
 * Every schema in `schema` (itself included) with its path: through `properties`, `items`, an `additionalProperties`
 * schema and `anyOf`/`oneOf` branches, the places an output nests schemas.
 */
export function* schemaNodes(schema: SchemaSpec, path: SpecPath): Generator<[SchemaSpec, SpecPath]> {
  yield [schema, path];
  const props = schema.properties;
  if (isObject(props)) for (const [k, v] of Object.entries(props)) if (isObject(v)) yield* schemaNodes(v, [...path, 'properties', k]);
  for (const key of ['items', 'additionalProperties'] as const) {
    const sub = schema[key];
    if (isObject(sub)) yield* schemaNodes(sub, [...path, key]);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const [i, b] of branches.entries()) if (isObject(b)) yield* schemaNodes(b, [...path, key, i]);
  }
}

/**
 * `schema` with every `$ref` replaced by the shared schema it names (itself resolved), the description and
 * properties beside the ref applied. Only for specs that passed the checks: every ref known, no cycle.
 */
export function resolveRefs(schema: SchemaSpec, shared: Readonly<Record<string, SchemaSpec>>): JsonSchema {
  const name = refName(schema.$ref);
  if (name !== undefined) {
    const target = shared[name];
    if (target === undefined) throw new Error(`resolveRefs: unknown shared schema '${name}' (the checks let it through)`);
    const resolved = resolveRefs(target, shared);
    const { description, properties } = schema;
    return {
      ...resolved,
      ...(description !== undefined ? { description } : {}),
      ...(isObject(properties) ? { properties: { ...(isObject(resolved.properties) ? resolved.properties : {}), ...(resolveRefs({ properties }, shared).properties as object) } } : {}),
    };
  }
  return mapSubschemas(schema, (sub) => resolveRefs(sub, shared));
}

/**
 * `schema` with each schema it holds directly (the places {@link schemaNodes} walks: properties, items,
 * additionalProperties, anyOf/oneOf branches) replaced by `fn` of it; every other keyword as it is.
 */
export function mapSubschemas(schema: SchemaSpec, fn: (sub: SchemaSpec) => unknown): JsonSchema {
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => {
      if (key === 'properties' && isObject(value)) return [key, Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isObject(v) ? fn(v) : v]))];
      if ((key === 'items' || key === 'additionalProperties') && isObject(value)) return [key, fn(value)];
      if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) return [key, value.map((b) => (isObject(b) ? fn(b) : b))];
      return [key, value];
    }),
  );
}

function isObject(v: unknown): v is SchemaSpec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
