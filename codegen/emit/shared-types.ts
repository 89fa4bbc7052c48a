import type { ConnectorName } from '../../runtime/types.js';
import type { Model, SharedSchemaModel } from '../model/types.js';
import { schemaToTs, type SchemaToTsOptions } from './schema-to-ts.js';

/** Output types are open objects: the upstream adds fields. */
export const OPEN = { openObjects: true } as const;

/** A shared schema with its TypeScript type. */
export interface SharedType {
  shared: SharedSchemaModel;
  /** Its type text, naming the shared objects it holds; an earlier shared schema's name when the types are equal. */
  type: string;
}

/** The shared schemas' types, and per connector the options that name a shared object wherever a type is one. */
export interface SharedTypes {
  types: SharedType[];
  options: ReadonlyMap<ConnectorName, SchemaToTsOptions>;
}

/**
 * The rule deciding where a shared schema is named (types.gen.ts's `CalendarEvent`, and the OpenAPI components'
 * refs): a (sub)schema is named when its type text equals a shared object's, so a ref written out with only its own
 * description is named and one with properties beside it is written out. Shared schemas come after those they refer
 * to, so their types already name them; one whose type equals an earlier one's is named as the earlier. Only objects
 * are named so: a shared `{type: string}` must not rename every string.
 */
export function sharedTypes(model: Model): SharedTypes {
  const named = new Map<ConnectorName, Map<string, string>>();
  const types: SharedType[] = [];
  for (const s of model.sharedSchemas) {
    const mine = named.get(s.connector) ?? new Map<string, string>();
    named.set(s.connector, mine);
    const type = schemaToTs(s.schema, { ...OPEN, named: mine });
    types.push({ shared: s, type });
    if (s.schema.type === 'object' && !mine.has(type)) mine.set(type, s.typeName);
  }
  return { types, options: new Map([...named].map(([c, mine]) => [c, { ...OPEN, named: mine }])) };
}
