import { CONNECTOR_NAMES, type ConnectorDefinition, type JsonSchema, type RetryPolicy, type ToolAnnotations, type UpstreamErrorHint } from '../../runtime/types.js';
import { GENERATED_PARAMS } from '../check/check-specs.js';
import type { Loaded, LoadedSpecs } from '../load/load-specs.js';
import type { ConnectorSpec, RequestSpec, ToolSpec, UpstreamErrorSpec } from '../load/spec-types.js';
import { parseExpr } from './expression.js';
import { isRef, refName, resolveRefs, schemaNodes } from './schema-refs.js';
import type { Expr, HelperSignature, Model, ParamModel, RequestModel, RuleModel, SharedSchemaModel, ToolModel } from './types.js';

/** Builds the model from specs that passed {@link checkSpecs}. Sorted by name so every emitter is deterministic. */
export function buildModel(loaded: LoadedSpecs, helpers: Record<string, HelperSignature>): Model {
  const connectorSpecs = [...loaded.connectors].sort((a, b) => cmp(a.spec.name, b.spec.name));
  const byName = new Map(connectorSpecs.map((c) => [c.spec.name, c.spec]));
  const tools = [...loaded.tools].sort((a, b) => cmp(a.spec.name, b.spec.name)).map((t) => buildTool(t, byName.get(t.spec.connector), helpers));
  return {
    connectors: connectorSpecs.map((c) => connectorDefinition(c.spec)),
    connectorUpstreamErrors: Object.fromEntries(connectorSpecs.map((c) => [c.spec.name, (c.spec.upstream_errors ?? []).map(upstreamErrorHint)])),
    sharedSchemas: connectorSpecs.flatMap((c) => sharedSchemas(c.spec)),
    tools,
    helpers,
    connectorNames: CONNECTOR_NAMES.filter((n) => byName.has(n)),
  };
}

/** The connector's shared schemas, each after those it refers to (the specs passed the checks: no cycle). */
function sharedSchemas(c: ConnectorSpec): SharedSchemaModel[] {
  const shared = c.schemas ?? {};
  const ordered: string[] = [];
  const visit = (name: string): void => {
    if (ordered.includes(name)) return;
    for (const [node] of schemaNodes(shared[name]!, [])) {
      const to = isRef(node) ? refName(node.$ref) : undefined;
      if (to !== undefined) visit(to);
    }
    ordered.push(name);
  };
  Object.keys(shared).forEach(visit);
  return ordered.map((name) => ({ connector: c.name, name, typeName: pascalCase(c.name) + name, schema: resolveRefs(shared[name]!, shared) }));
}

export function pascalCase(name: string): string {
  return name.split(/[_-]/).filter(Boolean).map((s) => s[0]!.toUpperCase() + s.slice(1)).join('');
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function buildTool(t: Loaded<ToolSpec>, connector: ConnectorSpec | undefined, helpers: Record<string, HelperSignature>): ToolModel {
  const spec = t.spec;
  const versioned = spec.versioned !== false;
  const versions = [spec.version, ...(spec.previous_versions ?? [])];
  const schemaVersions = [spec.schema_version ?? '1'];
  const vh = connector?.api.version_header;
  const params: ParamModel[] = Object.entries(spec.parameters).map(([name, p]) => {
    const { required, host_computed, required_properties, ...rest } = p;
    let schema: JsonSchema = required_properties ? { ...rest, required: required_properties } : rest;
    // The version parameter takes only the versions the tools are built for, listed once in the connector spec.
    if (vh && name === vh.parameter) {
      const { format: _format, ...noFormat } = schema;
      schema = { ...noFormat, enum: vh.supported };
    }
    return { name, schema: host_computed ? { ...schema, readOnly: true } : schema, required: required === true, hostComputed: host_computed === true, generated: false };
  });
  if (versioned) {
    params.push({
      name: GENERATED_PARAMS[0],
      schema: { type: 'string', enum: schemaVersions, description: `Version of this tool's input schema to validate against. Known: ${schemaVersions.join(', ')} (default ${schemaVersions[0]}).` },
      required: false,
      hostComputed: false,
      generated: true,
    });
    params.push({
      name: GENERATED_PARAMS[1],
      schema: { type: 'string', enum: versions, description: `Version of this tool's implementation to run. Known: ${versions.join(', ')} (default ${versions[0]}).` },
      required: false,
      hostComputed: false,
      generated: true,
    });
  }
  const inputSchema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
    ...(params.some((p) => p.required) ? { required: params.filter((p) => p.required).map((p) => p.name) } : {}),
    additionalProperties: false,
  };
  const rules: RuleModel[] = [
    ...params.filter((p) => p.hostComputed).map((p): RuleModel => ({ kind: 'host_computed', parameter: p.name, message: `${p.name} is computed by the service; do not supply it` })),
    ...(spec.rules ?? []).map(toRule),
  ];
  const ctx = { source: t.source, params: spec.parameters, helpers, errors: [] };
  const req = spec.request;
  const paramNames = new Set(params.map((p) => p.name));
  const versionHeader = vh ? { name: vh.name, default: vh.default, ...(paramNames.has(vh.parameter) ? { parameter: vh.parameter } : {}) } : undefined;
  const requestModel = (r: RequestSpec, at: Array<string | number>): RequestModel => {
    const defaults = r.path_defaults ?? {};
    return {
      method: r.method,
      path: r.path,
      pathParams: [...r.path.matchAll(/\{([^{}]*)\}/g)].map((m) => {
        const name = m[1]!;
        return {
          name,
          ...(paramNames.has(name) ? { param: name } : {}),
          ...(Object.hasOwn(defaults, name) ? { fallback: parseExpr(defaults[name], [...at, 'path_defaults', name], ctx) } : {}),
        };
      }),
      query: Object.entries(r.query ?? {}).map(([k, v]): [string, Expr] => [k, parseExpr(v, [...at, 'query', k], ctx)]),
      headers: Object.entries(r.headers ?? {}).map(([k, v]): [string, Expr] => [k, parseExpr(v, [...at, 'headers', k], ctx)]),
      ...(r.body !== undefined ? { body: parseExpr(r.body, [...at, 'body'], ctx) } : {}),
      ...(versionHeader ? { versionHeader } : {}),
    };
  };
  const request = requestModel(req, ['request']);
  const requestVersions = Object.entries(spec.request_versions ?? {})
    .sort(([a], [b]) => cmp(a, b))
    .map(([from, r]) => ({ from, request: requestModel(r, ['request_versions', from]) }));
  const retry: RetryPolicy = spec.retry ?? (req.method === 'GET' || req.method === 'PUT' || req.method === 'DELETE' ? 'idempotent' : 'never');
  return {
    name: spec.name,
    typeName: pascalCase(spec.name),
    connector: spec.connector,
    version: spec.version,
    versions,
    schemaVersions: versioned ? schemaVersions : [],
    versioned,
    aliases: [...(spec.aliases ?? [])].sort(),
    retry,
    title: spec.title,
    description: spec.description.trim(),
    ...(spec.notes ? { notes: spec.notes.trim() } : {}),
    annotations: annotations(spec.annotations),
    params,
    inputSchema,
    rules,
    request,
    ...(requestVersions.length ? { requestVersions } : {}),
    ...(spec.response?.transform ? { transform: spec.response.transform } : {}),
    ...(spec.precheck ? { precheck: spec.precheck } : {}),
    versionParameters: params.filter((p) => p.generated || p.name === vh?.parameter).map((p) => p.name),
    absentParameters: { ...(spec.absent_parameters ?? {}) },
    // Every `$ref` to a shared schema of the connector written out: emitters see the whole schema.
    output: resolveRefs(spec.output, connector?.schemas ?? {}),
    // The tool's own hints first, then its connector's: the first that matches wins, so the tool's own does.
    upstreamErrors: [...(spec.upstream_errors ?? []), ...(connector?.upstream_errors ?? [])].map(upstreamErrorHint),
    ownUpstreamErrors: (spec.upstream_errors ?? []).map(upstreamErrorHint),
    file: t.source.file,
  };
}

function upstreamErrorHint(e: UpstreamErrorSpec): UpstreamErrorHint {
  return {
    status: e.status,
    ...(e.code === undefined ? {} : { code: e.code }),
    ...(e.message_contains === undefined ? {} : { messageContains: e.message_contains }),
    hint: e.hint,
  };
}

/** The spec's annotations with MCP's meaning filled in: a read-only tool neither destroys nor repeats an effect. */
function annotations(a: ToolSpec['annotations']): ToolAnnotations {
  return {
    readOnly: a.read_only,
    destructive: a.read_only ? false : a.destructive === true,
    idempotent: a.read_only ? true : a.idempotent === true,
    openWorld: a.open_world !== false,
  };
}

function toRule(r: NonNullable<ToolSpec['rules']>[number]): RuleModel {
  if ('exactly_one_of' in r) return { kind: 'exactly_one_of', params: r.exactly_one_of, message: r.message };
  if ('at_most_one_of' in r) return { kind: 'at_most_one_of', params: r.at_most_one_of, message: r.message };
  if ('at_least_one_of' in r) return { kind: 'at_least_one_of', params: r.at_least_one_of, message: r.message };
  if ('required_if' in r) return { kind: 'required_if', ...r.required_if, message: r.message };
  if ('forbidden_if' in r) return { kind: 'forbidden_if', ...r.forbidden_if, message: r.message };
  if ('items_exactly_one_of' in r) return { kind: 'items_exactly_one_of', ...r.items_exactly_one_of, message: r.message };
  if ('check' in r) return { kind: 'check', parameter: r.check.parameter, check: r.check.with, message: r.message };
  if ('later_than' in r) return { kind: 'later_than', ...r.later_than, message: r.message };
  if ('not_all_zero' in r) return { kind: 'not_all_zero', params: r.not_all_zero, message: r.message };
  return { kind: 'requires_value', ...r.requires_value, message: r.message };
}

function connectorDefinition(c: ConnectorSpec): ConnectorDefinition {
  const o = c.oauth;
  return {
    name: c.name,
    displayName: c.display_name,
    provider: c.provider,
    oauth: {
      authorizationUrl: o.authorization_url,
      tokenUrl: o.token_url,
      revocation: o.revocation,
      clientAuth: o.client_auth,
      tokenRequestFormat: o.token_request_format,
      pkce: o.pkce,
      extraAuthorizeParams: o.extra_authorize_params,
      scopeSeparator: o.scope_separator,
      defaultScopes: o.default_scopes,
      defaultAccessTokenLifetimeSeconds: o.default_access_token_lifetime_seconds,
      rotatesRefreshToken: o.rotates_refresh_token,
      issuer: o.issuer,
      providerInfoFields: o.provider_info_fields,
      accountIdentity: o.account_identity ?? [],
    },
    api: { baseUrl: c.api.base_url, headers: c.api.headers, versionHeader: c.api.version_header },
    errorDialect: c.error_dialect,
    proxyPathAliases: c.proxy.path_aliases,
    proxyExamples: c.proxy.examples,
  };
}
