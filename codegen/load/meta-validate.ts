import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020Module, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { closestMatch } from '../../runtime/validation/closest-match.js';
import type { SpecError } from './spec-error.js';
import type { SpecSource } from './yaml-source.js';

// ajv ships CommonJS; under NodeNext the class is the module's default export's default.
const Ajv2020 = Ajv2020Module as unknown as typeof Ajv2020Module.default;

const SCHEMA_DIR = fileURLToPath(new URL('../../specs/schema/', import.meta.url));

export type SpecKind = 'connector' | 'tool';

/** Checks a spec of the given kind against its meta-schema; every error is positioned at the offending YAML node or key. */
export type MetaValidate = (kind: SpecKind, source: SpecSource) => SpecError[];

/** The two meta-schemas, read and compiled for one load of the specs (the caller's, not the module's). */
export function metaValidator(): MetaValidate {
  // verbose: each error carries the schema it failed (parentSchema), whose keys an unknown key is compared with.
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true, verbose: true });
  const load = (name: string) => JSON.parse(readFileSync(`${SCHEMA_DIR}${name}`, 'utf8')) as SchemaNode;
  // The tool schema first: the connector schema's upstream_errors entries refer to its upstreamError.
  const toolSchema = load('tool.schema.json');
  const connectorSchema = load('connector.schema.json');
  const tool = ajv.compile(toolSchema);
  const validators: Record<SpecKind, ValidateFunction> = { connector: ajv.compile(connectorSchema), tool };
  const roots: Record<SpecKind, SchemaNode> = { connector: connectorSchema, tool: toolSchema };
  return (kind, source) => specErrors(source, validators[kind], { root: roots[kind], tool: toolSchema });
}

interface SchemaNode {
  $ref?: string;
  properties?: Record<string, unknown>;
  allOf?: SchemaNode[];
  $defs?: Record<string, SchemaNode>;
}

/** The meta-schemas an unknown key's schema may refer into (`#/$defs/...` of its own file, `tool.schema.json#/$defs/...`). */
interface SchemaRoots {
  root: SchemaNode;
  tool: SchemaNode;
}

/** The keys a schema declares: its own `properties` and those of what it takes in by `$ref` or `allOf`. */
function declaredKeys(schema: SchemaNode | undefined, roots: SchemaRoots, depth = 0): string[] {
  if (schema === undefined || typeof schema !== 'object' || depth > 8) return [];
  const keys = Object.keys(schema.properties ?? {});
  const ref = /^(tool\.schema\.json)?#\/\$defs\/(\w+)$/.exec(schema.$ref ?? '');
  // A ref into the tool schema resolves the refs inside it there too; a failing schema that is itself one of the tool
  // schema's (a connector's shared parameter is the tool schema's parameter) names its refs from there, so a local
  // ref the file lacks is looked up in the tool schema.
  const within = ref?.[1] ? { root: roots.tool, tool: roots.tool } : roots;
  if (ref) keys.push(...declaredKeys(within.root.$defs?.[ref[2]!] ?? roots.tool.$defs?.[ref[2]!], within, depth + 1));
  for (const part of schema.allOf ?? []) keys.push(...declaredKeys(part, roots, depth + 1));
  return keys;
}

function specErrors(source: SpecSource, validate: ValidateFunction, roots: SchemaRoots): SpecError[] {
  if (validate(source.data)) return [];
  const errors = validate.errors ?? [];
  // Errors inside an anyOf branch are noise next to the anyOf's own error.
  const anyOfPaths = errors.filter((e) => e.keyword === 'anyOf').map((e) => e.schemaPath + '/');
  const inBranch = (e: ErrorObject) => anyOfPaths.some((p) => e.schemaPath.startsWith(p));
  // A branch that goes through a $ref reports under the ref's own schema path, so its errors escape the filter above:
  // a parameter's `type` (a name, or a list of names) misspelled came out as "has an invalid value" beside "must be one
  // of ...". Where such errors stand at the anyOf's value or below it, they say what is wrong and the anyOf's own error
  // is dropped; and where some stand below the value (it has a branch's shape and fails inside it: `[strng]`), those
  // are kept and the ones at the value (another branch refusing the shape) dropped.
  const dropped = new Set<ErrorObject>();
  for (const a of errors.filter((e) => e.keyword === 'anyOf')) {
    const at = (e: ErrorObject) => e.instancePath === a.instancePath || e.instancePath.startsWith(`${a.instancePath}/`);
    const escaped = errors.filter((e) => e.keyword !== 'anyOf' && !inBranch(e) && at(e));
    const deeper = escaped.filter((e) => e.instancePath !== a.instancePath);
    if (escaped.length > 0) dropped.add(a);
    if (deeper.length > 0) for (const e of escaped) if (e.instancePath === a.instancePath) dropped.add(e);
  }
  const out: SpecError[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (inBranch(e) || dropped.has(e)) continue;
    if (e.keyword === 'pattern' && e.propertyName !== undefined) continue; // reported by propertyNames
    if (e.keyword === 'if' || e.keyword === '$ref') continue;
    const specError = toSpecError(source, e, roots);
    const key = `${specError.line}:${specError.column}:${specError.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(specError);
    }
  }
  return out;
}

function toSpecError(source: SpecSource, e: ErrorObject, roots: SchemaRoots): SpecError {
  const path = e.instancePath === '' ? [] : e.instancePath.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const where = path.length === 0 ? 'the spec' : path.join('.');
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const key = String(p.additionalProperty ?? p.unevaluatedProperty);
      if (e.schemaPath.startsWith('#/$defs/parameterUse/')) {
        return source.error([...path, key], `unknown key '${key}' in ${where}: a parameter that uses a shared one is { use: <name> } alone; a parameter that differs (its own description, required) is written out in the tool`, 'key');
      }
      const near = closestMatch(key, declaredKeys(e.parentSchema as SchemaNode | undefined, roots));
      return source.error([...path, key], `unknown key '${key}' in ${where}${near === undefined ? '' : `: did you mean '${near}'?`}`, 'key');
    }
    case 'required':
      return source.error(path, `${where} is missing the required key '${String(p.missingProperty)}'`, 'key');
    case 'propertyNames':
      return source.error([...path, String(p.propertyName)], `invalid name '${String(p.propertyName)}' in ${where}`, 'key');
    case 'type':
      return source.error(path, `${where} must be ${String(p.type).replace(',', ' or ')}`);
    case 'enum':
      return source.error(path, `${where} must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`);
    case 'minProperties':
    case 'maxProperties':
      if (path[path.length - 2] === 'rules') {
        return source.error(path, `${where}: a rule has a message and exactly one kind (exactly_one_of, at_most_one_of, at_least_one_of, required_if, forbidden_if, items_exactly_one_of, requires_value)`);
      }
      return source.error(path, `${where} ${e.message ?? 'is invalid'}`);
    case 'anyOf':
      return source.error(path, `${where} has an invalid value`);
    default:
      return source.error(path, `${where} ${e.message ?? 'is invalid'}`);
  }
}
