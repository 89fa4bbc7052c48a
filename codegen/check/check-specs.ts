import * as checks from '../../runtime/validation/checks.js';
import { MAX_DESCRIPTION_LENGTH, modelDescription } from '../../runtime/agent/formats/model-schema.js';
import type { Loaded, LoadedSpecs } from '../load/load-specs.js';
import type { SpecError } from '../load/spec-error.js';
import type { ConnectorSpec, ParameterSpec, RequestSpec, SchemaSpec, ToolSpec, UpstreamErrorSpec } from '../load/spec-types.js';
import type { SpecPath, SpecSource } from '../load/yaml-source.js';
import { parseExpr, type ExprContext } from '../model/expression.js';
import { unknownParameterHint } from '../model/unknown-parameter.js';
import { isRef, refName, REF_SIBLINGS, resolveRefs, schemaNodes } from '../model/schema-refs.js';
import { precheckRegistry, type PrecheckInfo } from '../../runtime/prechecks/index.js';

/** Parameters the generator adds to every versioned tool; a spec must not declare them itself. */
export const GENERATED_PARAMS = ['schema_version', 'tool_version'] as const;

const PLACEHOLDER = /\{([^{}]*)\}/g;

/**
 * Semantic checks the meta-schema cannot express. Returns every error found (never throws for a bad spec):
 * file names, unknown connectors, duplicate names and aliases, rules and mappings naming unknown parameters,
 * unknown helpers or wrong arity, path placeholders without a value, outputs and shared schemas that break the output
 * rules, refs that name no shared schema of their connector.
 */
export function checkSpecs(
  loaded: LoadedSpecs,
  helpers: Readonly<Record<string, { arity: number }>>,
  prechecks: Readonly<Record<string, PrecheckInfo>> = precheckRegistry,
): SpecError[] {
  const errors: SpecError[] = [];
  const connectors = new Map<string, Loaded<ConnectorSpec>>();
  for (const c of loaded.connectors) {
    if (c.basename !== c.spec.name) errors.push(c.source.error(['name'], `connector '${c.spec.name}' must be in a file named ${c.spec.name}.yaml`));
    (c.spec.oauth.account_identity ?? []).forEach((pointer, i) => {
      const member = pointer.split('/')[1] ?? '';
      if (!c.spec.oauth.provider_info_fields.includes(member)) {
        errors.push(c.source.error(['oauth', 'account_identity', i], `account_identity ${pointer} must start with a provider_info_fields member (${member} is not kept)`));
      }
    });
    const vh = c.spec.api.version_header;
    if (vh && !vh.supported.includes(vh.default)) errors.push(c.source.error(['api', 'version_header', 'default'], `default version '${vh.default}' is not in supported (${vh.supported.join(', ')})`));
    if (connectors.has(c.spec.name)) errors.push(c.source.error(['name'], `duplicate connector '${c.spec.name}' (also in ${connectors.get(c.spec.name)!.source.file})`));
    else connectors.set(c.spec.name, c);
  }
  const shared = checkSharedSchemas(connectors, errors);
  const words = toolWords(loaded.tools);
  const names = new Map<string, string>();
  for (const t of loaded.tools) {
    const spec = t.spec;
    if (t.basename !== spec.name) errors.push(t.source.error(['name'], `tool '${spec.name}' must be in a file named ${spec.name}.yaml`));
    if (t.folder !== spec.connector) errors.push(t.source.error(['connector'], `tool of connector '${spec.connector}' must be in specs/tools/${spec.connector}/`));
    const connector = connectors.get(spec.connector);
    if (!connector) errors.push(t.source.error(['connector'], `unknown connector '${spec.connector}': no specs/connectors/${spec.connector}.yaml`));
    const claim = (name: string, path: Array<string | number>) => {
      const other = names.get(name);
      if (other !== undefined) errors.push(t.source.error(path, `duplicate tool name or alias '${name}' (already used by ${other})`));
      else names.set(name, t.source.file);
    };
    claim(spec.name, ['name']);
    (spec.aliases ?? []).forEach((a, i) => claim(a, ['aliases', i]));
    checkTool(t, connector?.spec, shared, helpers, prechecks, errors);
    checkPrecheck(t, prechecks, errors);
    checkUpstreamErrors(t.spec.upstream_errors, t.source, words, errors);
  }
  // A connector's hints may name only what its own tools have: they are carried by those tools alone.
  for (const c of connectors.values()) {
    const own = loaded.tools.filter((t) => t.spec.connector === c.spec.name);
    checkUpstreamErrors(c.spec.upstream_errors, c.source, toolWords(own), errors, ` of a ${c.spec.name} tool`);
  }
  return errors;
}

function checkTool(
  t: Loaded<ToolSpec>,
  connector: ConnectorSpec | undefined,
  shared: SharedSchemaContext,
  helpers: Readonly<Record<string, { arity: number }>>,
  prechecks: Readonly<Record<string, PrecheckInfo>>,
  errors: SpecError[],
): void {
  const { spec, source } = t;
  const params = spec.parameters;
  const has = (name: string) => Object.hasOwn(params, name);
  if (spec.versioned !== false) {
    for (const g of GENERATED_PARAMS) {
      if (has(g)) errors.push(source.error(['parameters', g], `parameter '${g}' is added by the generator; remove it (or set versioned: false)`, 'key'));
    }
  }
  if (spec.versioned === false && (spec.schema_version !== undefined || spec.previous_versions !== undefined)) {
    errors.push(source.error(['versioned'], 'versioned: false tools take no schema_version or previous_versions'));
  }
  for (const [name, p] of Object.entries(params)) {
    if (p.host_computed && p.required) errors.push(source.error(['parameters', name, 'required'], `host-computed parameter '${name}' cannot be required`));
    checkNestedRequired(p, ['parameters', name], source, errors);
    checkArrayItems(p, ['parameters', name], source, errors);
  }
  for (const name of Object.keys(spec.absent_parameters ?? {})) {
    if (has(name)) errors.push(source.error(['absent_parameters', name], `'${name}' is a parameter of the tool; absent_parameters names those it lacks`, 'key'));
  }
  checkOutputSchema(spec.output, ['output'], source, errors);
  if (connector) checkToolRefs(t, connector, shared, errors);
  const versionParam = connector?.api.version_header?.parameter;
  if (versionParam !== undefined && has(versionParam) && params[versionParam]!.type !== 'string') {
    errors.push(source.error(['parameters', versionParam, 'type'], `'${versionParam}' overrides the ${connector!.api.version_header!.name} header and must be a string`));
  }
  if (versionParam !== undefined && has(versionParam) && params[versionParam]!.enum !== undefined) {
    errors.push(source.error(['parameters', versionParam, 'enum'], `'${versionParam}' takes the connector's version_header.supported; do not list versions here`, 'key'));
  }

  (spec.rules ?? []).forEach((rule, i) => {
    const at = (key: string, ...rest: Array<string | number>) => ['rules', i, key, ...rest];
    const need = (name: string, path: Array<string | number>) => {
      if (!has(name)) errors.push(source.error(path, `${path.join('.')} names unknown parameter '${name}'${unknownParameterHint(name, params)}`));
      else if (params[name]!.host_computed) errors.push(source.error(path, `rule names host-computed parameter '${name}', which callers never supply`));
    };
    if ('exactly_one_of' in rule) rule.exactly_one_of.forEach((n, j) => need(n, at('exactly_one_of', j)));
    if ('at_most_one_of' in rule) rule.at_most_one_of.forEach((n, j) => need(n, at('at_most_one_of', j)));
    if ('at_least_one_of' in rule) rule.at_least_one_of.forEach((n, j) => need(n, at('at_least_one_of', j)));
    if ('required_if' in rule) {
      need(rule.required_if.parameter, at('required_if', 'parameter'));
      need(rule.required_if.present, at('required_if', 'present'));
    }
    if ('forbidden_if' in rule) {
      need(rule.forbidden_if.parameter, at('forbidden_if', 'parameter'));
      need(rule.forbidden_if.present, at('forbidden_if', 'present'));
    }
    if ('items_exactly_one_of' in rule) {
      const { parameter, of } = rule.items_exactly_one_of;
      need(parameter, at('items_exactly_one_of', 'parameter'));
      const p = params[parameter];
      if (p && p.type !== 'array') errors.push(source.error(at('items_exactly_one_of', 'parameter'), `items_exactly_one_of needs an array parameter; '${parameter}' is not one`));
      const itemProps = (p?.items as { properties?: Record<string, unknown> } | undefined)?.properties;
      if (itemProps) of.forEach((k, j) => {
        if (!Object.hasOwn(itemProps, k)) errors.push(source.error(at('items_exactly_one_of', 'of', j), `items of '${parameter}' have no property '${k}'`));
      });
    }
    if ('check' in rule) {
      need(rule.check.parameter, at('check', 'parameter'));
      if (!Object.hasOwn(checks, rule.check.with)) {
        errors.push(source.error(at('check', 'with'), `unknown check '${rule.check.with}'; runtime/validation/checks.ts exports: ${Object.keys(checks).sort().join(', ')}`));
      }
    }
    if ('later_than' in rule) {
      const { parameter, than } = rule.later_than;
      need(parameter, at('later_than', 'parameter'));
      need(than, at('later_than', 'than'));
      if (parameter === than) errors.push(source.error(at('later_than', 'than'), `later_than: 'than' and 'parameter' are both '${parameter}'`));
      for (const [key, name] of [['parameter', parameter], ['than', than]] as const) {
        const format = has(name) ? params[name]!.format : undefined;
        if (has(name) && format !== 'date-time' && format !== 'date' && format !== 'date-or-date-time') errors.push(source.error(at('later_than', key), `later_than compares instants; '${name}' needs format date-time or date, or date-or-date-time`));
      }
    }
    if ('not_all_zero' in rule) {
      rule.not_all_zero.forEach((n, j) => {
        need(n, at('not_all_zero', j));
        const type = has(n) ? params[n]!.type : undefined;
        if (has(n) && type !== 'integer' && type !== 'number') errors.push(source.error(at('not_all_zero', j), `not_all_zero needs number parameters; '${n}' is not one`));
      });
    }
    if ('requires_value' in rule) {
      const { parameter, value, when, equals } = rule.requires_value;
      need(parameter, at('requires_value', 'parameter'));
      need(when, at('requires_value', 'when'));
      if (parameter === when) errors.push(source.error(at('requires_value', 'when'), `requires_value: 'when' and 'parameter' are both '${parameter}'`));
      const misfit = (name: string, v: unknown, path: Array<string | number>) => {
        const why = has(name) ? scalarMisfit(v, params[name]!) : undefined;
        if (why) errors.push(source.error(path, `${JSON.stringify(v)} can never be a value of '${name}': ${why}`));
      };
      misfit(parameter, value, at('requires_value', 'value'));
      if (equals !== undefined) misfit(when, equals, at('requires_value', 'equals'));
    }
  });

  const ctx: ExprContext = { source, params, helpers, errors };
  const provided = new Set(spec.precheck !== undefined && Object.hasOwn(prechecks, spec.precheck) ? prechecks[spec.precheck]!.provides ?? [] : []);
  const checkRequest = (req: RequestSpec, at: Array<string | number>) => {
    const placeholders = [...req.path.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '');
    for (const ph of placeholders) {
      const p = has(ph) ? params[ph]! : undefined;
      const fallback = req.path_defaults && Object.hasOwn(req.path_defaults, ph);
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(ph)) errors.push(source.error([...at, 'path'], `path placeholder '{${ph}}' is not a parameter name`));
      else if (!p && !fallback) errors.push(source.error([...at, 'path'], `${[...at, 'path'].join('.')}: placeholder '{${ph}}' names unknown parameter '${ph}'${unknownParameterHint(ph, params)}`));
      else if (p?.host_computed) errors.push(source.error([...at, 'path'], `path placeholder '{${ph}}' names host-computed parameter '${ph}'`));
      else if (p && !p.required && !fallback && !provided.has(ph)) errors.push(source.error([...at, 'path'], `path placeholder '{${ph}}': parameter '${ph}' is optional, so it needs required: true, a path_defaults entry or a precheck that provides it`));
    }
    for (const [k, v] of Object.entries(req.path_defaults ?? {})) {
      if (!placeholders.includes(k)) errors.push(source.error([...at, 'path_defaults', k], `path_defaults entry '${k}' has no '{${k}}' in the path`, 'key'));
      parseExpr(v, [...at, 'path_defaults', k], ctx);
    }
    for (const [k, v] of Object.entries(req.query ?? {})) parseExpr(v, [...at, 'query', k], ctx);
    for (const [k, v] of Object.entries(req.headers ?? {})) {
      if (/^(authorization|host|cookie)$/i.test(k)) errors.push(source.error([...at, 'headers', k], `header '${k}' is set by the runtime, not by a tool`, 'key'));
      parseExpr(v, [...at, 'headers', k], ctx);
    }
    if (req.body !== undefined) parseExpr(req.body, [...at, 'body'], ctx);
    if ((req.method === 'GET' || req.method === 'DELETE') && req.body !== undefined) {
      errors.push(source.error([...at, 'body'], `a ${req.method} request has no body`, 'key'));
    }
  };
  checkRequest(spec.request, ['request']);
  const vh = connector?.api.version_header;
  for (const [from, req] of Object.entries(spec.request_versions ?? {})) {
    if (!vh) errors.push(source.error(['request_versions', from], `request_versions needs a connector with a version_header; ${spec.connector} has none`, 'key'));
    else if (!vh.supported.includes(from)) errors.push(source.error(['request_versions', from], `'${from}' is not a version ${vh.name} supports (${vh.supported.join(', ')})`, 'key'));
    else if (!has(vh.parameter)) errors.push(source.error(['request_versions', from], `request_versions need the '${vh.parameter}' parameter, which picks the version`, 'key'));
    checkRequest(req, ['request_versions', from]);
  }
  checkAnnotations(t, errors);
  checkExamples(t, errors);
  // What a model reads (the description, then the rules' messages) must fit the limit model APIs take whole.
  const modelText = modelDescription({ description: spec.description.trim(), ruleMessages: (spec.rules ?? []).map((r) => r.message) });
  if (modelText.length >= MAX_DESCRIPTION_LENGTH) {
    errors.push(source.error(['description'], `the description with its rules is ${modelText.length} characters; model APIs take under ${MAX_DESCRIPTION_LENGTH}: shorten it (move decisions to notes:)`));
  }
  const transform = spec.response?.transform;
  if (transform !== undefined) {
    const info = Object.hasOwn(helpers, transform) ? helpers[transform] : undefined;
    if (!info) errors.push(source.error(['response', 'transform'], `unknown helper '${transform}' in response.transform (known: ${Object.keys(helpers).sort().join(', ')})`));
    else if (info.arity !== 2) errors.push(source.error(['response', 'transform'], `response.transform helper '${transform}' must take 2 arguments (data, input), it takes ${info.arity}`));
  }
}

function checkPrecheck(t: Loaded<ToolSpec>, prechecks: Readonly<Record<string, PrecheckInfo>>, errors: SpecError[]): void {
  const { spec, source } = t;
  const name = spec.precheck;
  if (name === undefined) return;
  const info = Object.hasOwn(prechecks, name) ? prechecks[name] : undefined;
  if (!info) {
    errors.push(source.error(['precheck'], `unknown precheck '${name}' (known: ${Object.keys(prechecks).sort().join(', ') || 'none'})`));
    return;
  }
  if (info.connector !== spec.connector) errors.push(source.error(['precheck'], `precheck '${name}' is for ${info.connector} tools, not ${spec.connector}`));
  for (const p of info.parameters) {
    if (!Object.hasOwn(spec.parameters, p)) errors.push(source.error(['precheck'], `precheck '${name}' reads parameter '${p}', which this tool does not declare`));
  }
}

/** A hint's word that reads as a tool name: a connector's prefix, an underscore, more (`calendar_list_calendars`). */
const TOOL_WORD = /\b(?:workspace|calendar|crm|sheets|docs)_[a-z0-9_]*[a-z0-9]/g;

/** Every tool name, alias and parameter name of the specs: what a hint may name (`calendar_id` is a parameter). */
function toolWords(tools: ReadonlyArray<Loaded<ToolSpec>>): ReadonlySet<string> {
  return new Set(tools.flatMap((t) => [t.spec.name, ...(t.spec.aliases ?? []), ...Object.keys(t.spec.parameters)]));
}

/**
 * `upstream_errors`, a tool's or a connector's: a hint for a refusal that reaches the caller as `upstream_error` (a
 * 401 is refreshed and then `reauthorization_required`, a 429 is `upstream_rate_limited`), every entry able to match
 * (none shadowed by an earlier one of the same list, which matches first: the same status, any or the same code, no
 * or a shorter text of the message), and every tool or parameter a hint names one of `words`, so a renamed tool does
 * not leave hints pointing nowhere. A tool's entry that makes a connector entry unreachable for that tool is no error:
 * the tool's own hint is meant to win.
 */
function checkUpstreamErrors(list: readonly UpstreamErrorSpec[] | undefined, source: SpecSource, words: ReadonlySet<string>, errors: SpecError[], whose = ''): void {
  const entries = list ?? [];
  entries.forEach((e, i) => {
    if (e.status === 401) errors.push(source.error(['upstream_errors', i, 'status'], 'a 401 never reaches the caller as upstream_error: the service refreshes the token, then answers reauthorization_required'));
    if (e.status === 429) errors.push(source.error(['upstream_errors', i, 'status'], 'a 429 never reaches the caller as upstream_error: it is upstream_rate_limited, with Retry-After'));
    const earlier = entries.findIndex((d, j) => j < i && covers(d, e));
    if (earlier >= 0) {
      const d = entries[earlier]!;
      const what = [String(e.status), e.code, e.message_contains === undefined ? undefined : JSON.stringify(e.message_contains)].filter(Boolean).join(' ');
      errors.push(source.error(['upstream_errors', i], d.code === e.code && d.message_contains?.toLowerCase() === e.message_contains?.toLowerCase()
        ? `duplicate upstream_errors entry for ${what} (also upstream_errors.${earlier})`
        : `upstream_errors entry for ${what} never matches: upstream_errors.${earlier} comes first and matches every refusal it does; put the narrower entry first`));
    }
    for (const word of e.hint.match(TOOL_WORD) ?? []) {
      if (!words.has(word)) errors.push(source.error(['upstream_errors', i, 'hint'], `the hint names '${word}', which is no tool, alias or parameter${whose}`));
    }
  });
}

/** Whether every refusal `later` matches is matched by `first` too. */
function covers(first: UpstreamErrorSpec, later: UpstreamErrorSpec): boolean {
  if (first.status !== later.status) return false;
  if (first.code !== undefined && first.code !== later.code) return false;
  if (first.message_contains === undefined) return true;
  return later.message_contains !== undefined && later.message_contains.toLowerCase().includes(first.message_contains.toLowerCase());
}

/**
 * The annotations must agree with each other and with what the request can do. They are declared, never inferred
 * from the method (a search sent as POST only reads), but a method that contradicts them is a mistake in the spec.
 */
function checkAnnotations(t: Loaded<ToolSpec>, errors: SpecError[]): void {
  const { spec, source } = t;
  const a = spec.annotations;
  const method = spec.request.method;
  if (a.read_only) {
    for (const key of ['destructive', 'idempotent'] as const) {
      if (a[key] !== undefined) errors.push(source.error(['annotations', key], `a read_only tool changes nothing, so '${key}' does not apply: remove it (or set read_only: false)`, 'key'));
    }
    if (method === 'DELETE') errors.push(source.error(['annotations', 'read_only'], 'read_only: true on a DELETE request'));
    if (spec.retry === 'never') errors.push(source.error(['retry'], 'a read_only tool is safe to repeat: retry: never contradicts read_only: true'));
    else if (spec.retry === undefined && method !== 'GET' && method !== 'PUT') {
      errors.push(source.error(['annotations', 'read_only'], `a read_only tool sent as ${method} needs retry: safe (its method alone would never be retried)`));
    }
  } else {
    for (const key of ['destructive', 'idempotent'] as const) {
      if (a[key] === undefined) errors.push(source.error(['annotations'], `annotations.${key} is required when read_only is false (MCP would otherwise assume ${key === 'destructive' ? 'destructive' : 'not idempotent'})`));
    }
    if (method === 'GET') errors.push(source.error(['annotations', 'read_only'], 'read_only: false on a GET request: a GET only reads'));
    if (a.idempotent === false && (method === 'PUT' || method === 'DELETE')) errors.push(source.error(['annotations', 'idempotent'], `idempotent: false on a ${method} request, which HTTP defines as idempotent`));
  }
}

/**
 * Why a scalar a rule compares against can never match the parameter (its `type`, `enum` or `const`), or undefined
 * when it can: such a rule would never fire (`equals`) or always refuse (`value`).
 */
function scalarMisfit(v: unknown, schema: ParameterSpec): string | undefined {
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : undefined;
  const actual = typeof v === 'number' && Number.isInteger(v) ? ['number', 'integer'] : [typeof v];
  if (types && !types.some((t) => actual.includes(t))) return `its type is ${types.join(' or ')}`;
  if (Array.isArray(schema.enum) && !schema.enum.includes(v)) return `not one of its enum ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`;
  if (schema.const !== undefined && schema.const !== v) return `its const is ${JSON.stringify(schema.const)}`;
  return undefined;
}

/** What the tool checks need to know of the connectors' shared schemas. */
interface SharedSchemaContext {
  /** Schema name -> the connector that defines it (the first, by file order), to name it in a ref to another's. */
  owner: ReadonlyMap<string, string>;
  /** Connectors whose shared schemas passed every check, so that refs to them can be written out. */
  resolvable: ReadonlySet<string>;
}

/**
 * Each connector's shared schemas (`schemas:`, model/schema-refs.ts) follow the output rules where they are written,
 * their refs name schemas of the same connector, and none contains itself through others.
 */
function checkSharedSchemas(connectors: ReadonlyMap<string, Loaded<ConnectorSpec>>, errors: SpecError[]): SharedSchemaContext {
  const owner = new Map<string, string>();
  for (const c of connectors.values()) for (const name of Object.keys(c.spec.schemas ?? {})) if (!owner.has(name)) owner.set(name, c.spec.name);
  const resolvable = new Set<string>();
  for (const c of connectors.values()) {
    const before = errors.length;
    for (const [name, schema] of Object.entries(c.spec.schemas ?? {})) {
      checkOutputSchema(schema, ['schemas', name], c.source, errors);
      checkRefs(schema, ['schemas', name], c.source, c.spec, owner, errors);
    }
    checkRefCycles(c, errors);
    if (errors.length === before) resolvable.add(c.spec.name);
  }
  return { owner, resolvable };
}

/** A tool's refs name its connector's shared schemas, and an output that is a ref is still an object schema. */
function checkToolRefs(t: Loaded<ToolSpec>, connector: ConnectorSpec, shared: SharedSchemaContext, errors: SpecError[]): void {
  const before = errors.length;
  checkRefs(t.spec.output, ['output'], t.source, connector, shared.owner, errors);
  if (errors.length > before || !shared.resolvable.has(connector.name) || !isRef(t.spec.output)) return;
  const type = resolveRefs(t.spec.output, connector.schemas ?? {}).type;
  if (type !== 'object') {
    errors.push(t.source.error(['output', '$ref'], `the output is an object schema (the MCP outputSchema); ${String(t.spec.output.$ref)} is ${type === undefined ? 'none' : `of type ${JSON.stringify(type)}`}`));
  }
}

/** Every `$ref` in `schema` is `#/schemas/<Name>` naming a schema of `connector`, with only a description and properties beside it. */
function checkRefs(schema: SchemaSpec, path: SpecPath, source: SpecSource, connector: ConnectorSpec, owner: ReadonlyMap<string, string>, errors: SpecError[]): void {
  const shared = connector.schemas ?? {};
  for (const [node, at] of schemaNodes(schema, path)) {
    if (!isRef(node)) continue;
    for (const key of Object.keys(node)) {
      if (key !== '$ref' && !REF_SIBLINGS.includes(key)) {
        errors.push(source.error([...at, key], `'${key}' beside $ref: only a description (replacing the shared schema's) and properties (added to its fields) may stand beside one`, 'key'));
      }
    }
    const name = refName(node.$ref);
    if (name === undefined) {
      errors.push(source.error([...at, '$ref'], `$ref ${JSON.stringify(node.$ref)} names no shared schema: write '#/schemas/<Name>', one of the schemas of connector ${connector.name}`));
    } else if (!Object.hasOwn(shared, name)) {
      const other = owner.get(name);
      const known = Object.keys(shared);
      errors.push(source.error([...at, '$ref'], other !== undefined
        ? `'#/schemas/${name}' is a schema of connector ${other}: a ref names a schema of its own connector (${connector.name})`
        : `unknown shared schema '${name}': connector ${connector.name} has ${known.length ? known.join(', ') : 'no schemas'}`));
    }
  }
}

/** No shared schema contains itself, directly or through others: its type could not be written out. Reported at the ref that closes the cycle. */
function checkRefCycles(c: Loaded<ConnectorSpec>, errors: SpecError[]): void {
  const shared = c.spec.schemas ?? {};
  const edges = new Map(
    Object.entries(shared).map(([name, schema]) => [
      name,
      [...schemaNodes(schema, ['schemas', name])].flatMap(([node, at]) => {
        const to = isRef(node) ? refName(node.$ref) : undefined;
        return to !== undefined && Object.hasOwn(shared, to) ? [{ to, at }] : [];
      }),
    ]),
  );
  const state = new Map<string, 'open' | 'done'>();
  const visit = (name: string, trail: string[]): void => {
    state.set(name, 'open');
    for (const { to, at } of edges.get(name) ?? []) {
      if (state.get(to) === 'open') {
        const cycle = [...trail.slice(trail.indexOf(to)), to].join(' -> ');
        errors.push(c.source.error([...at, '$ref'], `'#/schemas/${to}' makes a cycle (${cycle}): a shared schema cannot contain itself; describe the nested value in a description instead`));
      } else if (!state.has(to)) {
        visit(to, [...trail, to]);
      }
    }
    state.set(name, 'done');
  };
  for (const name of edges.keys()) if (!state.has(name)) visit(name, [name]);
}

/** The output rules, for a tool's output and for a shared schema alike. */
function checkOutputSchema(schema: SchemaSpec, path: SpecPath, source: SpecSource, errors: SpecError[]): void {
  checkNestedRequired(schema, path, source, errors);
  checkArrayItems(schema, path, source, errors);
  checkOutputObjects(schema, path, source, errors);
}

/**
 * Every schema says what its values are, which the model formats need: an array its `items` (Gemini and OpenAI
 * strict mode refuse an array without them), and every value a `type` (or `enum`, `const`, `oneOf`, `anyOf`), so
 * a free-form value is an object the closed formats can carry as JSON text and read back.
 */
function checkArrayItems(schema: ParameterSpec, path: SpecPath, source: SpecSource, errors: SpecError[]): void {
  for (const [node, at] of schemaNodes(schema, path)) {
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.includes('array') && (node.items === undefined || typeof node.items !== 'object')) {
      errors.push(source.error([...at, 'type'], `array without items: say what each element is (items: { type: ... })`));
    }
    // A ref's type is its shared schema's, checked where that is written.
    if (node.type === undefined && !isRef(node) && !Array.isArray(node.enum) && !('const' in node) && !Array.isArray(node.oneOf) && !Array.isArray(node.anyOf)) {
      errors.push(source.error(at, 'schema without a type: give type (object for a free-form value), enum, const, oneOf or anyOf'));
    }
  }
}

/**
 * The output is what an agent reads to know what a call returns (the MCP outputSchema, the typed result): every
 * object in it says its notable fields (`properties`, or `additionalProperties` with a schema for a map), as every
 * array says its items. `properties: {}` says "nothing", e.g. an empty 204 answer. An object whose fields are
 * described elsewhere (a recursive structure, which the generated types cannot repeat) says where in its
 * `description`.
 */
function checkOutputObjects(schema: SchemaSpec, path: SpecPath, source: SpecSource, errors: SpecError[]): void {
  for (const [node, at] of schemaNodes(schema, path)) {
    const types = Array.isArray(node.type) ? node.type : [node.type];
    const said = (typeof node.properties === 'object' && node.properties !== null) || (typeof node.additionalProperties === 'object' && node.additionalProperties !== null);
    const branched = Array.isArray(node.oneOf) || Array.isArray(node.anyOf);
    const described = typeof node.description === 'string' && node.description.trim() !== '';
    if (types.includes('object') && !said && !branched && !described) {
      errors.push(source.error([...at, 'type'], 'object without its fields: list its notable properties (properties: {...}), additionalProperties: {schema} for a map, or a description saying where they are described'));
    }
  }
}

/** Nested `required` lists must name declared properties (a typo there would silently never match). */
function checkNestedRequired(schema: ParameterSpec, path: SpecPath, source: SpecSource, errors: SpecError[]): void {
  for (const [node, at] of schemaNodes(schema, path)) {
    const props = node.properties as Record<string, unknown> | undefined;
    if (!props) continue;
    // On a parameter itself `required` is its boolean; its own keys are `required_properties`.
    const requiredKey = Array.isArray(node.required) ? 'required' : 'required_properties';
    const required = (node[requiredKey] ?? []) as string[];
    required.forEach((r, i) => {
      if (!Object.hasOwn(props, r)) errors.push(source.error([...at, requiredKey, i], `${requiredKey} names '${r}', which is not in properties`));
    });
  }
}

/**
 * A request example's input names only the tool's parameters and its request uses a method the tool sends (a
 * refused example may name anything: an unknown key is a refusal worth showing). The tests run every example.
 */
function checkExamples(t: Loaded<ToolSpec>, errors: SpecError[]): void {
  const { spec, source } = t;
  const methods = new Set([spec.request.method, ...Object.values(spec.request_versions ?? {}).map((r) => r.method)]);
  if (!spec.examples.some((e) => 'request' in e)) errors.push(source.error(['examples'], 'examples need at least one valid input with the request it builds'));
  spec.examples.forEach((e, i) => {
    if (!('request' in e)) return;
    for (const key of Object.keys(e.input)) {
      if (!Object.hasOwn(spec.parameters, key) && !(spec.versioned ?? true ? ['schema_version', 'tool_version'] : []).includes(key)) {
        errors.push(source.error(['examples', i, 'input', key], `example input names '${key}', which is not a parameter of ${spec.name}`, 'key'));
      }
    }
    if (!methods.has(e.request.method)) errors.push(source.error(['examples', i, 'request', 'method'], `the tool sends ${[...methods].join(' or ')}, not ${e.request.method}`));
  });
}
