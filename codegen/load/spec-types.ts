/**
 * The shapes of spec files once they passed their meta-schema (`specs/schema/*.schema.json`). Field names are the
 * YAML keys; see docs/spec-format.md.
 */
import type { ConnectorName, HttpMethod, RetryPolicy } from '../../runtime/types.js';

export interface ConnectorSpec {
  name: ConnectorName;
  display_name: string;
  provider: string;
  oauth: {
    authorization_url: string;
    token_url: string;
    revocation: null | { url: string; style: 'form_token' | 'json_token' | 'path_token'; token: 'access' | 'refresh' };
    client_auth: 'body' | 'basic';
    token_request_format: 'form' | 'json';
    pkce: boolean;
    extra_authorize_params: Record<string, string>;
    scope_separator: string;
    default_scopes: string[];
    default_access_token_lifetime_seconds: number | null;
    rotates_refresh_token: boolean;
    issuer: string | null;
    provider_info_fields: string[];
    /** JSON pointers into providerInfo naming the provider account; absent or empty: not pinned. */
    account_identity?: string[];
  };
  api: {
    base_url: string;
    headers: Record<string, string>;
    version_header: null | { name: string; default: string; parameter: string; supported: string[] };
  };
  error_dialect: 'notion' | 'google' | 'hubspot';
  proxy: { path_aliases: Record<string, string>; examples: string[] };
  /** Named schemas the tools' outputs refer to with `$ref: '#/schemas/<Name>'` (codegen/model/schema-refs.ts). */
  schemas?: Record<string, SchemaSpec>;
  /** Hints every tool of the connector carries after its own `upstream_errors` (docs/spec-format.md, "Upstream refusals"). */
  upstream_errors?: UpstreamErrorSpec[];
  /**
   * Parameter definitions several tools take as they are, each by `<parameter>: { use: <name> }` in its `parameters`;
   * the loader writes every such reference out (codegen/load/shared-parameters.ts), so a loaded tool holds none.
   */
  parameters?: Record<string, ParameterSpec>;
}

/** A JSON Schema fragment as written in a spec. */
export type SchemaSpec = { [key: string]: unknown };

export type ParameterSpec = SchemaSpec & { required?: boolean; host_computed?: boolean; required_properties?: string[] };

export type RuleSpec =
  | { message: string; exactly_one_of: string[] }
  | { message: string; at_most_one_of: string[] }
  | { message: string; at_least_one_of: string[] }
  | { message: string; required_if: { parameter: string; present: string } }
  | { message: string; forbidden_if: { parameter: string; present: string } }
  | { message: string; items_exactly_one_of: { parameter: string; of: string[] } }
  | { message: string; check: { parameter: string; with: string } }
  | { message: string; later_than: { parameter: string; than: string } }
  | { message: string; not_all_zero: string[] }
  | { message: string; requires_value: { parameter: string; value: Scalar; when: string; equals?: Scalar; or_absent?: boolean } };

/** A value a `requires_value` rule compares against (compared with `===`). */
export type Scalar = string | number | boolean;

/** `annotations`: what calling the tool does (MCP's tool annotations). */
export interface AnnotationsSpec {
  read_only: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  open_world?: boolean;
}

export interface RequestSpec {
  method: HttpMethod;
  path: string;
  path_defaults?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  body?: unknown;
}

export interface ToolSpec {
  name: string;
  connector: ConnectorName;
  version: string;
  previous_versions?: string[];
  schema_version?: string;
  versioned?: boolean;
  aliases?: string[];
  retry?: RetryPolicy;
  title: string;
  description: string;
  notes?: string;
  annotations: AnnotationsSpec;
  /** Every parameter in full: a `{ use: <name> }` in the file is replaced by its connector's shared parameter on load. */
  parameters: Record<string, ParameterSpec>;
  rules?: RuleSpec[];
  /** The provider's parameters this tool lacks, each with what to send instead (docs/spec-format.md). */
  absent_parameters?: Record<string, string>;
  request: RequestSpec;
  /** Requests for later versions of the connector's version header, keyed by the first version each applies to. */
  request_versions?: Record<string, RequestSpec>;
  response?: { transform?: string };
  precheck?: string;
  output: SchemaSpec;
  /** Hints for upstream refusals an agent can fix itself (docs/spec-format.md, "Upstream refusals"). */
  upstream_errors?: UpstreamErrorSpec[];
  /** Worked examples, the source of the tool's tests (docs/spec-format.md). */
  examples: ExampleSpec[];
  /** `not_modelled` when the sandbox has no fake of this tool's upstream operation. */
  sandbox?: 'modelled' | 'not_modelled';
}

/** One refusal's hint: its upstream status, and optionally the provider's error code and a text of its message. */
export interface UpstreamErrorSpec {
  status: number;
  code?: string;
  message_contains?: string;
  hint: string;
}

/** A valid input and the request it builds, or an input refused at a pointer. */
export type ExampleSpec =
  | { name: string; input: Record<string, unknown>; request: { method: HttpMethod; path: string; query?: Record<string, unknown>; headers?: Record<string, unknown>; body?: unknown } }
  | { name: string; input: Record<string, unknown>; refused: { pointer: string; names: string } };
