/**
 * The contract between `generated/` and `runtime/`.
 *
 * The generator emits values of these types (one {@link ToolDefinition} per tool, one {@link ConnectorDefinition}
 * per connector); the runtime consumes them and never reads `specs/`. Keep this file free of runtime imports so the
 * generated code can depend on it without pulling in the service.
 */

/** The five systems. The names are the connector spec file names in `specs/connectors/`. */
export type ConnectorName = 'workspace' | 'calendar' | 'crm' | 'sheets' | 'docs';

export const CONNECTOR_NAMES: readonly ConnectorName[] = ['workspace', 'calendar', 'crm', 'sheets', 'docs'];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A JSON Schema (2020-12) object, kept loose on purpose: it is data for validators, catalogs and OpenAPI. */
export type JsonSchema = { [key: string]: unknown };

/**
 * What a tool's request builder returns: everything about the upstream call except the base URL and the
 * credentials, which the executor adds.
 */
export interface UpstreamRequest {
  method: HttpMethod;
  /** Path from the upstream host's root (e.g. `/calendar/v3/calendars/primary/events`), already percent-encoded. */
  path: string;
  /** Query parameters; an array value is sent as a repeated parameter. Undefined values are never present. */
  query: Record<string, string | string[]>;
  /** Extra request headers the tool sets (e.g. `Notion-Version`). Never `Authorization`. */
  headers: Record<string, string>;
  /** JSON body, or undefined for none. */
  body?: unknown;
}

/** One input violation: where (RFC 6901 pointer into the tool input) and what, naming the parameter. */
export interface Violation {
  /** JSON pointer into the tool input, e.g. `/sorts/0/direction`; `` (empty) for the input as a whole. */
  pointer: string;
  /** Human message that names the parameter, e.g. `page_size must be between 1 and 100`. */
  message: string;
  /** Machine-readable reason: the JSON Schema keyword (`required`, `enum`, ...) or the rule kind (`exactly_one_of`, ...). */
  keyword: string;
}

export type ValidationResult<T = unknown> = { ok: true; value: T } | { ok: false; violations: Violation[] };

/**
 * How the executor may retry a call to this tool on 429/5xx.
 * - `idempotent`: the HTTP method is idempotent (GET, PUT, DELETE), retry is safe.
 * - `safe`: the spec marks a non-idempotent call as safe to repeat (e.g. a search sent as POST).
 * - `never`: never retried blindly (creates).
 */
export type RetryPolicy = 'idempotent' | 'safe' | 'never';

/**
 * What calling a tool does, as declared in its spec (`annotations`). The MCP tool annotations
 * (`readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`) are these values. `destructive` and
 * `idempotent` are meaningful only when `readOnly` is false; a read-only tool has them false and true.
 */
export interface ToolAnnotations {
  readOnly: boolean;
  /** May delete or overwrite existing data. */
  destructive: boolean;
  /** Calling it again with the same input has no further effect. */
  idempotent: boolean;
  /** Reaches a system outside the service (every upstream API). */
  openWorld: boolean;
}

export interface ToolDefinition<I = any> {
  name: string;
  connector: ConnectorName;
  /** The tool's current version (what `tool_version` may name). */
  version: string;
  /** Every version that `tool_version` may request, current first. */
  versions: readonly string[];
  /** Schema versions that `schema_version` may request, current first. */
  schemaVersions: readonly string[];
  aliases: readonly string[];
  /** Short human title, e.g. `Create calendar event`. */
  title: string;
  description: string;
  annotations: ToolAnnotations;
  /** JSON Schema 2020-12 of the input, as published in the catalog and the OpenAPI document. */
  inputSchema: JsonSchema;
  /**
   * Input parameters that pick a version (`schema_version`, `tool_version`, a connector's version-header parameter
   * such as `workspace_version`): kept in the API and the catalog, left out of the schemas shown to models.
   */
  versionParameters: readonly string[];
  /**
   * The messages of the tool's rules that span parameters (exactly one of, required if, ...): JSON Schema cannot
   * state them at the root for model APIs, so the model-facing descriptions carry them; the validator enforces them.
   */
  ruleMessages: readonly string[];
  /** JSON Schema of the result (`data`): an object schema naming the notable fields; the upstream may add more. */
  outputSchema: JsonSchema;
  retry: RetryPolicy;
  /** Checks an input against the schema and the tool's rules. Never throws for bad input. */
  validate(input: unknown): ValidationResult<I>;
  /** Builds the upstream request from an input that passed {@link validate}. Pure apart from generated ids. */
  buildRequest(input: I): UpstreamRequest;
  /**
   * Present when the spec has `response.transform`: post-processes the upstream response body before it is returned
   * (e.g. keeps only the matching events). May throw a `not_found` ConnectorError.
   */
  transformResponse?(data: unknown, input: I): unknown;
  /**
   * Present when the spec has `precheck`: an asynchronous check run after validation and before the request is built,
   * which may read the upstream through the user's account (e.g. a database's schema) and refuse the input with
   * `invalid_input`. It returns the input to build from (the same, or completed with values it resolved).
   */
  precheck?: Precheck<I>;
  /**
   * Present when the tool's spec or its connector's has `upstream_errors`: hints for upstream refusals an agent can fix
   * itself, the tool's own in its spec's order, then its connector's. The first that matches an `upstream_error` is
   * appended to its message and set as `details.hint`.
   */
  upstreamErrors?: readonly UpstreamErrorHint[];
}

/**
 * A hint for one kind of upstream refusal (`upstream_errors` in a tool spec): what to check, and which tool finds a
 * valid value. It matches a refusal with this upstream HTTP status and, when given, this error code of the
 * provider's dialect (Google `error.status` or a reason, Notion `code`, HubSpot `category` or an `errors[].code`) and
 * a provider message containing `messageContains` (case-insensitive).
 */
export interface UpstreamErrorHint {
  status: number;
  code?: string;
  messageContains?: string;
  hint: string;
}

/** What a {@link Precheck} may use: upstream reads with the caller's account, and a short-lived cache. */
export interface PrecheckIO {
  /**
   * A GET through the executor's path (the account's token, refresh on 401, retries), with the connector's headers;
   * `headers` adds or overrides some (e.g. the version header). A non-2xx answer rejects with the same error the
   * tool call would give.
   */
  get(path: string, headers?: Record<string, string>): Promise<unknown>;
  /** Values cached per account on the connector instance for a short time, dropped when the upstream refuses a call. */
  cache: {
    get(key: string): unknown;
    set(key: string, value: unknown): void;
  };
  /** The connector's version header value for this call: the tool's version parameter, else the connector default. */
  version?: string;
}

/** A tool's pre-check (`precheck` in its spec): resolves to the input to build from, or rejects with `invalid_input`. */
export type Precheck<I = any> = (input: I, io: PrecheckIO) => Promise<I>;

export type ClientAuthStyle = 'basic' | 'body';
export type TokenRequestFormat = 'form' | 'json';
export type ErrorDialect = 'notion' | 'google' | 'hubspot';

export interface OAuthDefinition {
  authorizationUrl: string;
  tokenUrl: string;
  /** Where tokens are revoked on disconnect, or null when the provider has no revocation endpoint. */
  revocation: null | {
    url: string;
    /** `form_token`: POST form `token=`; `json_token`: POST JSON `{token}`; `path_token`: DELETE `{url}/{token}`. */
    style: 'form_token' | 'json_token' | 'path_token';
    /** Which token to revoke. */
    token: 'access' | 'refresh';
  };
  clientAuth: ClientAuthStyle;
  tokenRequestFormat: TokenRequestFormat;
  pkce: boolean;
  /** Fixed extra parameters on the authorization URL (e.g. Google `access_type=offline`, Notion `owner=user`). */
  extraAuthorizeParams: Record<string, string>;
  scopeSeparator: string;
  defaultScopes: readonly string[];
  /** Used when the token response has no `expires_in`; null means the token does not expire by time. */
  defaultAccessTokenLifetimeSeconds: number | null;
  /** Whether a refresh returns a new refresh token that replaces the old one. */
  rotatesRefreshToken: boolean;
  /** Whether the provider sends `iss` on the authorization response (RFC 9207) and what it must equal. */
  issuer: string | null;
  /**
   * Top-level token-response members kept as the account's `providerInfo` (stored in plaintext), e.g. Notion's
   * `workspace_id`. An allowlist: anything else (a nested token such as Slack's `authed_user.access_token`) is dropped.
   */
  providerInfoFields: readonly string[];
  /**
   * JSON pointers into `providerInfo` that name the provider account (Notion: `/workspace_id`, `/owner/user/id`;
   * HubSpot: `/hub_id`). A re-authorization of an account whose stored values differ from the new token response's
   * is refused (`authorization_failed`, reason `account_mismatch`). Empty: the provider names no account in its token
   * response and the account is not pinned.
   */
  accountIdentity: readonly string[];
}

export interface ConnectorDefinition {
  name: ConnectorName;
  displayName: string;
  /** Which real API this is, e.g. `Notion API`, for docs. */
  provider: string;
  oauth: OAuthDefinition;
  api: {
    /** Upstream host root, e.g. `https://www.googleapis.com`; tool paths are joined to it. */
    baseUrl: string;
    /** Headers sent on every call (tool calls and proxy). */
    headers: Record<string, string>;
    /**
     * A version header whose default value a tool parameter may override
     * (Notion: `Notion-Version`, default `2022-06-28`, parameter `workspace_version`).
     */
    versionHeader: null | { name: string; default: string; parameter: string; supported: readonly string[] };
  };
  errorDialect: ErrorDialect;
  /** Proxy path prefixes rewritten before joining, e.g. `{ "/docs/v1/": "/v1/" }`. */
  proxyPathAliases: Record<string, string>;
  /** Example proxy paths (from the service specification), used in docs and tests. */
  proxyExamples: readonly string[];
}
