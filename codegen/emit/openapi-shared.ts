/**
 * The connectors' shared schemas in the OpenAPI document: each once under `components.schemas`, named as in
 * types.gen.ts (`CalendarEvent`), and the tools' outputs referring to them where types.gen.ts names them.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ConnectorName, JsonSchema } from '../../runtime/types.js';
import type { Model, SharedSchemaModel, ToolModel } from '../model/types.js';
import { mapSubschemas } from '../model/schema-refs.js';
import { schemaToTs } from './schema-to-ts.js';
import { OPEN, sharedTypes } from './shared-types.js';

export interface OpenApiShared {
  /** One component per shared schema, by its type name; refs to the others where it holds them. */
  schemas: Record<string, JsonSchema>;
  /** The tool's output schema with `$ref`s to the shared components where types.gen.ts names a shared type. */
  output(tool: ToolModel): JsonSchema;
}

/**
 * Where a (sub)schema becomes a `$ref` is types.gen.ts's rule (shared-types.ts): where its type is a shared object's.
 * A type says less than a schema, though, so the ref goes to a shared schema of that type which the subschema equals
 * but for descriptions (CrmCreatedObject's type is CrmObject's; a tool's row replaces Page's `properties` to say only
 * what its own description says). The descriptions the subschema has of its own stand beside the `$ref` (OpenAPI 3.1
 * allows siblings; both apply, and as they differ in descriptions only they accept the same values): its own
 * `description`, and each property (or other keyword) whose descriptions differ, whole. openapi-typescript reads the
 * ref alone, which is right, the types being equal. Where no shared schema of the type equals it so (a `format` or a
 * bound of its own), the subschema is written out, so that a ref never changes what a response must be.
 * A shared schema's own component refers only to those before it (as a type alias does), so no ref goes round.
 */
export function openApiShared(model: Model): OpenApiShared {
  const { types, options } = sharedTypes(model);
  // Per connector: a shared type's name -> the shared object schemas whose type is written with that name, in order.
  const byName = new Map<ConnectorName, Map<string, SharedSchemaModel[]>>();
  for (const { shared: s } of types) {
    if (s.schema.type !== 'object') continue;
    const name = schemaToTs(s.schema, options.get(s.connector));
    const mine = byName.get(s.connector) ?? new Map<string, SharedSchemaModel[]>();
    byName.set(s.connector, mine);
    mine.set(name, [...(mine.get(name) ?? []), s]);
  }
  const order = new Map(model.sharedSchemas.map((s, i) => [s, i]));

  /** A ref to the shared schema `schema` is one of (but for descriptions), the differing keywords beside it. */
  const sharedRef = (schema: JsonSchema, connector: ConnectorName, before = Infinity): JsonSchema | undefined => {
    const candidates = (byName.get(connector)?.get(schemaToTs(schema, options.get(connector) ?? OPEN)) ?? []).filter((s) => order.get(s)! < before);
    const target = candidates.find((s) => isDeepStrictEqual(withoutDescription(schema), withoutDescription(s.schema)))
      ?? candidates.find((s) => isDeepStrictEqual(withoutDescriptions(schema), withoutDescriptions(s.schema)));
    if (!target) return undefined;
    const ref: JsonSchema = { $ref: `#/components/schemas/${target.typeName}` };
    for (const [key, value] of Object.entries(schema)) {
      const shared = target.schema[key];
      if (isDeepStrictEqual(value, shared)) continue;
      if (key === 'properties' && isObject(value) && isObject(shared)) {
        ref[key] = Object.fromEntries(Object.entries(value).filter(([k, v]) => !isDeepStrictEqual(v, shared[k])).map(([k, v]) => [k, isObject(v) ? withRefs(v, connector) : v]));
      } else ref[key] = key === 'description' ? value : withRefsIn({ [key]: value }, connector)[key];
    }
    return ref;
  };

  // `schema` with refs in place of the shared objects within it, and of itself unless it is the shared schema `self`.
  const withRefs = (schema: JsonSchema, connector: ConnectorName, self?: SharedSchemaModel): JsonSchema => {
    const ref = sharedRef(schema, connector, self ? order.get(self) : Infinity);
    if (ref) return ref;
    return withRefsIn(schema, connector);
  };
  // `schema` with refs in place of the shared objects in the schemas it holds (the places an output nests schemas).
  const withRefsIn = (schema: JsonSchema, connector: ConnectorName): JsonSchema => mapSubschemas(schema, (sub) => withRefs(sub, connector));

  return {
    schemas: Object.fromEntries(types.map(({ shared: s }) => [s.typeName, withRefs(s.schema, s.connector, s)])),
    output: (tool) => withRefs(tool.output, tool.connector),
  };
}

function withoutDescription(schema: JsonSchema): JsonSchema {
  const { description: _d, ...rest } = schema;
  return rest;
}

/** The schema without its descriptions, its subschemas' included (a property named `description` stays). */
function withoutDescriptions(schema: JsonSchema): JsonSchema {
  return mapSubschemas(withoutDescription(schema), withoutDescriptions);
}

function isObject(v: unknown): v is JsonSchema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
