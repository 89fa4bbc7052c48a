/**
 * The intermediate model: every emitter is a pure function from this to files and never reads YAML.
 */
import type { ConnectorDefinition, ConnectorName, HttpMethod, JsonSchema, RetryPolicy, ToolAnnotations, UpstreamErrorHint } from '../../runtime/types.js';

/** A compiled mapping expression (docs/spec-format.md, "The request mapping"). */
export type Expr =
  | { kind: 'param'; name: string }
  | { kind: 'literal'; value: string | number | boolean | null }
  | { kind: 'call'; helper: string; args: Expr[] }
  | { kind: 'object'; members: Array<[string, Expr]> }
  | { kind: 'array'; items: Expr[] };

export interface ParamModel {
  name: string;
  /** The parameter's JSON Schema, without the spec-only `required` / `host_computed` keys. */
  schema: JsonSchema;
  required: boolean;
  hostComputed: boolean;
  /** Added by the generator (`schema_version`, `tool_version`), not written in the spec. */
  generated: boolean;
}

export type PresenceRuleKind = 'exactly_one_of' | 'at_most_one_of' | 'at_least_one_of';

export type RuleModel =
  | { kind: PresenceRuleKind; params: string[]; message: string }
  | { kind: 'required_if' | 'forbidden_if'; parameter: string; present: string; message: string }
  | { kind: 'items_exactly_one_of'; parameter: string; of: string[]; message: string }
  /** A structural check from runtime/validation/checks.ts, run on the parameter when it is given. */
  | { kind: 'check'; parameter: string; check: string; message: string }
  /** When both are given, `parameter` is a later instant than `than` (a validator check only). */
  | { kind: 'later_than'; parameter: string; than: string; message: string }
  /** When any of `params` (numbers) is given, not every given one is 0 (a validator check only). */
  | { kind: 'not_all_zero'; params: string[]; message: string }
  /**
   * When `when` equals `equals` (without `equals`: whenever `when` is given), `parameter` must equal `value`; a validator
   * check only, no union in the types.
   */
  | { kind: 'requires_value'; parameter: string; value: string | number | boolean; when: string; equals?: string | number | boolean; or_absent?: boolean; message: string }
  | { kind: 'host_computed'; parameter: string; message: string };

export interface RequestModel {
  method: HttpMethod;
  /** Path template with `{name}` placeholders. */
  path: string;
  /** One entry per placeholder, in template order: the parameter, with its default when the parameter is absent. */
  pathParams: Array<{ name: string; param?: string; fallback?: Expr }>;
  query: Array<[string, Expr]>;
  headers: Array<[string, Expr]>;
  body?: Expr;
  /** The connector's version header, overridable by the named parameter when the tool declares it. */
  versionHeader?: { name: string; default: string; parameter?: string };
}

export interface ToolModel {
  name: string;
  /** PascalCase of the name, for type and function names. */
  typeName: string;
  connector: ConnectorName;
  version: string;
  versions: string[];
  schemaVersions: string[];
  versioned: boolean;
  aliases: string[];
  retry: RetryPolicy;
  title: string;
  description: string;
  /** For people: decisions and upstream quirks (docs only, never model-facing). */
  notes?: string;
  annotations: ToolAnnotations;
  params: ParamModel[];
  /** JSON Schema 2020-12 of the input (catalog, OpenAPI and validator). */
  inputSchema: JsonSchema;
  rules: RuleModel[];
  request: RequestModel;
  /**
   * Requests for later versions of the connector's version header, oldest first: each is sent from its `from`
   * version on (versions are ISO dates, compared as strings); `request` below the first.
   */
  requestVersions?: Array<{ from: string; request: RequestModel }>;
  transform?: string;
  /** A pre-check from `runtime/prechecks` (`precheck` in the spec). */
  precheck?: string;
  /** Parameters that pick a version (generated ones and the connector's version-header parameter). */
  versionParameters: string[];
  /** The provider's parameters the tool lacks (`absent_parameters`): name -> what to send instead. */
  absentParameters: Record<string, string>;
  output: JsonSchema;
  /**
   * Hints for upstream refusals: the tool spec's `upstream_errors`, then its connector's, each in its spec's order
   * (the first that matches wins, so the tool's own does); empty when neither has any.
   */
  upstreamErrors: UpstreamErrorHint[];
  /** The tool spec's own `upstream_errors` alone (the reference lists the connector's once, above its tools). */
  ownUpstreamErrors: UpstreamErrorHint[];
  /** Spec file, for docs and messages. */
  file: string;
}

export interface HelperSignature {
  name: string;
  arity: number;
  module: string;
  /** Per parameter: whether it accepts undefined (optional or typed with undefined). */
  optionalParams: boolean[];
  /** Whether the return type admits undefined (the value may be absent). */
  mayReturnUndefined: boolean;
}

/** A connector's shared schema (`schemas:` in its spec), for the named output types. */
export interface SharedSchemaModel {
  connector: ConnectorName;
  name: string;
  /** The connector's PascalCase name, then the schema's: `CalendarEvent`. */
  typeName: string;
  /** With every ref written out, as in the outputs. */
  schema: JsonSchema;
}

export interface Model {
  connectors: ConnectorDefinition[];
  /** Every connector's shared schemas, by connector; within one, each after the schemas it refers to. */
  sharedSchemas: SharedSchemaModel[];
  tools: ToolModel[];
  /** Each connector's own `upstream_errors` (empty when it has none), which each of its tools carries after its own. */
  connectorUpstreamErrors: Record<string, UpstreamErrorHint[]>;
  helpers: Record<string, HelperSignature>;
  connectorNames: ConnectorName[];
}
