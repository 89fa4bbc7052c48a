/**
 * The fixed part of the OpenAPI document: the service's own request and response bodies (mirroring runtime/api.ts)
 * and the error body built from the error catalogue. The HTTP service validates requests against these very schemas
 * (runtime/service/routes/schemas.ts reads them from generated/openapi.json), so every check belongs here.
 */
import { ERROR_CATALOGUE, sideText, type CatalogueEntry } from '../../runtime/errors.js';
import { CONNECTOR_NAMES, type JsonSchema } from '../../runtime/types.js';
import { INPUT_LIMITS as L } from '../../runtime/validation/input-limits.js';
import { MAX_TEXT_BODY } from '../../runtime/http/normalize.js';

/**
 * The error code's description: every code with its status, whose side it points to (who must act, as docs/errors.md
 * says) and its meaning.
 */
function errorCodesDescription(): string {
  const entries: [string, CatalogueEntry][] = Object.entries(ERROR_CATALOGUE);
  const lines = entries.map(([code, e]) => `- \`${code}\` (${e.status}; side: ${sideText(e)}): ${e.meaning}`);
  return [
    'Each code with its HTTP status and whose side it points to: request (fix the call), authorization (the end user must authorize again, or for a refused OAuth client the operator must fix the connection), provider (retry later) or service.',
    ...lines,
  ].join('\n');
}

const str: JsonSchema = { type: 'string', minLength: 1 };
/** What the runtime accepts (runtime/validation/input-limits.ts); text validity (no controls) is checked there. */
const identifier: JsonSchema = { type: 'string', minLength: 1, maxLength: L.identifier };
const connectionRef: JsonSchema = { type: 'string', minLength: 1, maxLength: L.connectionRef };
const url: JsonSchema = { type: 'string', format: 'uri', maxLength: L.url };
const time: JsonSchema = { type: 'string', format: 'date-time' };
const stringList: JsonSchema = { type: 'array', items: { type: 'string' } };

/** A reference to the schema `name` of the document's `components.schemas`. */
export function schemaRef(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

type Obj = Record<string, unknown>;

/**
 * The helpers of emit-openapi.ts, passed to the parts of the document written in their own modules
 * (openapi-webhooks.ts, openapi-mcp-sessions.ts) so that every part speaks alike.
 */
export interface OpenApiHelpers {
  op(tag: string, operationId: string, summary: string, responses: Obj, extra?: Obj): Obj;
  ok(description: string, schema: Obj, status?: string): Obj;
  errors(...statuses: string[]): Obj;
  idParam(name: string, description: string): Obj;
  queryParam(name: string, schema: Obj, description: string): Obj;
  /** `limit` and `cursor`, as every cursor-paged list takes them (runtime/list-page.ts). */
  pageParams(): Obj[];
  json(schema: Obj): Obj;
  requestIdHeader: Obj;
  AUTHED: string[];
  JSON_BODY: string[];
}

/**
 * The answer of a keyset-paged list: one page of `item`s under `field`, in `order`, and the cursor of the page after
 * it (`older` for the lists that run newest first).
 */
export function listPage(field: string, item: string, order: string, older = false): JsonSchema {
  return {
    type: 'object',
    required: [field, 'next_cursor'],
    properties: {
      [field]: { type: 'array', items: schemaRef(item), description: order },
      next_cursor: { type: ['string', 'null'], description: `Pass as \`cursor\`, with the same filters, for the next${older ? ' (older)' : ''} page; null on the last page.` },
    },
  };
}

/**
 * The body of `POST /api/v1/tools/{tool_name}/execute`: `ExecuteNamedToolRequest` (any object as `tool_input`, which
 * the service then checks against the tool) and each tool's own `<Tool>Request` (its input schema) come from here.
 * `tool_input` is required only for a tool with a required parameter; omitted, it is `{}`.
 */
export function executeNamedToolRequest(toolInput: JsonSchema, toolInputRequired = false): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: toolInputRequired ? ['identifier', 'tool_input'] : ['identifier'],
    properties: { connection_name: connectionRef, identifier, tool_input: toolInput },
  };
}

export const ACCOUNT_STATUSES = ['PENDING_AUTH', 'ACTIVE', 'EXPIRED', 'DISCONNECTED'];

export function fixedSchemas(): Record<string, JsonSchema> {
  const overrides: JsonSchema = {
    type: 'object',
    additionalProperties: false,
    description: 'Base-URL overrides (the sandbox uses these).',
    properties: {
      authorizationUrl: url,
      tokenUrl: url,
      revocationUrl: url,
      apiBaseUrl: url,
    },
  };
  // The fields a connection is created with and may later change (everything but its connector).
  const connectionFields: Record<string, JsonSchema> = {
    name: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' },
    client_id: { ...str, maxLength: L.clientId },
    client_secret: { ...str, maxLength: L.clientSecret, writeOnly: true },
    scopes: {
      type: 'array',
      maxItems: L.scopes,
      items: { type: 'string', minLength: 1, maxLength: L.scope },
      description: "The OAuth scopes users are asked for (default: the connector's). None for a workspace (Notion) connection, refused at /scopes unless empty: Notion has no OAuth scopes; the integration's capabilities, set in Notion's integration settings, decide.",
    },
    overrides: schemaRef('ConnectionOverrides'),
    allowed_redirect_urls: { type: 'array', maxItems: L.redirectUrls, items: url },
  };
  return {
    Error: {
      type: 'object',
      description: 'Every error of the service (except POST /oauth/token\'s refusals of the request itself, 400, 401 and 413, which answer in the RFC 6749 shape).',
      required: ['error'],
      properties: {
        error: {
          type: 'object',
          required: ['code', 'message', 'request_id'],
          properties: {
            code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE), description: errorCodesDescription() },
            message: { type: 'string' },
            details: {
              description:
                'For invalid_input, and invalid_request refusing a field of the body, query or path: `{violations: [{pointer, message, keyword}]}`; for invalid_request refusing a body that is not JSON: `{position}`; for upstream_error: the upstream `status` and sanitized `body`, and `hint` where the tool has one for this refusal; for insufficient_scope also `required_scopes` and `required_scopes_all` (where the provider names them), `scopes_to_request` (the ones to ask the user for) and `resource` (`METHOD /path`); for method_not_allowed `allow`; for ambiguous_connection `connections`; for reauthorization_required `connected_account_id`, `status` and `reason`. Other codes may add fields (docs/errors.md).',
              type: 'object',
              // A code may add fields of its own (docs/errors.md); the common ones are typed here, for typed clients.
              additionalProperties: true,
              properties: {
                violations: { type: 'array', items: schemaRef('Violation') },
                position: { type: 'integer', minimum: 0, description: 'Where the body stops being JSON (UTF-16 offset).' },
                status: {
                  type: ['integer', 'string', 'null'],
                  description: 'upstream_error and insufficient_scope: the upstream HTTP status (null when no answer was read); reauthorization_required: the account\'s status.',
                },
                body: { description: 'upstream_error and insufficient_scope: the upstream error body, sanitized: JSON up to 16 KB (a larger one with each string over 2,000 characters clipped, when that brings it within 16 KB), else its text cut to 2,000 characters; or null.' },
                hint: { type: 'string', description: "upstream_error: what to check and which tool finds a valid value, where the tool's spec has a hint for this refusal (also appended to the message)." },
                required_scopes: { type: 'array', items: { type: 'string' }, description: 'insufficient_scope: the scopes the provider says would allow the call.' },
                required_scopes_all: { type: 'boolean', description: 'insufficient_scope, with required_scopes: true when the provider says the call needs all of them (HubSpot\'s "All of the following scopes are required."), false when any one would do.' },
                scopes_to_request: { type: 'array', items: { type: 'string' }, description: 'insufficient_scope: the scopes to ask the user for (of several that would each do, the one the connector asks for by default, else the first the connection asks for; all of them when all are needed; absent when no such choice is among the scopes the connector or the connection asks for).' },
                resource: { type: 'string', description: 'insufficient_scope: the refused request, `METHOD /path`.' },
                allow: { type: 'array', items: { type: 'string' }, description: 'method_not_allowed: the methods the path takes (as the Allow header).' },
                connections: { type: 'array', items: { type: 'string' }, description: 'ambiguous_connection: the connections the identifier has accounts on.' },
                connected_account_id: { type: 'string', description: 'reauthorization_required: the account to authorize again.' },
                reason: { type: 'string', description: 'reauthorization_required: why the account is not usable; invalid_request: why a stored connection cannot be used.' },
                connection: { type: 'string', description: 'invalid_request: the connection whose stored client secret cannot be used.' },
                error: { type: 'string', description: 'authorization_failed, and upstream_error of a token refresh: the OAuth error the provider answered (e.g. access_denied).' },
                upstream: { type: 'string', description: 'unavailable (shedding load): the upstream host too many calls are waiting for.' },
                in_flight: { type: 'integer', minimum: 0, description: 'unavailable (shedding load): how many calls to that upstream are under way.' },
                limit_bytes: { type: 'integer', minimum: 0, description: 'payload_too_large, for a request body: the limit in bytes (AGENT_CONNECTOR_BODY_LIMIT).' },
              },
            },
            retry_after_seconds: { type: 'integer', minimum: 0, description: 'With a Retry-After header (429 and 503): the same whole seconds, for a reader of the body alone (an MCP host, a model handed the error).' },
            execution_id: { type: 'string', format: 'uuid', description: 'On a failed tool call or proxy request: its execution record, as GET /api/v1/executions/{execution_id} reads it (as a success\'s execution_id).' },
            request_id: { type: 'string' },
          },
        },
      },
    },
    Violation: {
      type: 'object',
      required: ['pointer', 'message', 'keyword'],
      properties: { pointer: { type: 'string', description: 'RFC 6901 JSON pointer into the tool input (or the request body, query or path).' }, message: { type: 'string' }, keyword: { type: 'string' } },
    },
    OAuthError: {
      type: 'object',
      description: 'RFC 6749 section 5.2 error body.',
      required: ['error'],
      properties: { error: { type: 'string', examples: ['invalid_client'] }, error_description: { type: 'string' } },
    },
    TokenRequest: {
      type: 'object',
      required: ['grant_type'],
      properties: { grant_type: { const: 'client_credentials' }, client_id: { type: 'string' }, client_secret: { type: 'string', writeOnly: true } },
    },
    TokenResponse: {
      type: 'object',
      required: ['access_token', 'token_type', 'expires_in'],
      properties: { access_token: { type: 'string' }, token_type: { const: 'Bearer' }, expires_in: { type: 'integer' } },
    },
    ConnectorName: { type: 'string', enum: [...CONNECTOR_NAMES] },
    AccountStatus: { type: 'string', enum: ACCOUNT_STATUSES },
    ConnectionOverrides: overrides,
    ConnectionView: {
      type: 'object',
      required: ['id', 'name', 'connector', 'client_id', 'has_client_secret', 'scopes', 'redirect_uri', 'overrides', 'allowed_redirect_urls', 'created_at', 'updated_at'],
      properties: {
        id: { type: 'string' },
        name: { type: 'string' },
        connector: schemaRef('ConnectorName'),
        client_id: { type: 'string' },
        has_client_secret: { type: 'boolean', description: 'The client secret itself is write-only.' },
        scopes: stringList,
        redirect_uri: { type: 'string', format: 'uri', description: 'Register this exact URI with the provider.' },
        overrides: schemaRef('ConnectionOverrides'),
        allowed_redirect_urls: stringList,
        created_at: time,
        updated_at: time,
      },
    },
    CreateConnection: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'connector', 'client_id', 'client_secret'],
      properties: { name: connectionFields.name, connector: schemaRef('ConnectorName'), ...connectionFields },
    },
    UpdateConnection: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      description: 'Any of the fields of CreateConnection except connector, which cannot change. A new client_id comes with its client_secret in the same request (the stored secret belongs to the old client).',
      properties: connectionFields,
    },
    ProviderRevocation: {
      type: 'object',
      required: ['outcome', 'provider_status'],
      description: 'What the provider did when a disconnect asked it to revoke the tokens. The tokens are deleted here whatever the outcome.',
      properties: {
        outcome: {
          type: 'string',
          enum: ['revoked', 'refused', 'unreachable', 'not_offered', 'not_sent', 'no_tokens'],
          description:
            'revoked: the provider accepted the revocation. refused: it answered with an error (provider_status), so the grant may still be alive there: revoke access in the provider\'s account settings. unreachable: no answer (network error, timeout), same advice. not_offered: the connector declares no revocation endpoint. not_sent: nothing could be sent (a revocation URL override refused by policy, or a client secret or tokens that cannot be decrypted). no_tokens: the account held no tokens.',
        },
        provider_status: { type: ['integer', 'null'], description: 'The provider\'s HTTP status when it answered (revoked, refused); null otherwise.' },
      },
    },
    ConnectionDeletion: {
      type: 'object',
      required: ['id', 'name', 'deleted', 'disconnected_accounts', 'revocations'],
      properties: {
        id: { type: 'string' },
        name: { type: 'string' },
        deleted: { const: true },
        disconnected_accounts: { type: 'integer', minimum: 0, description: 'Accounts that held tokens: their tokens were deleted, each reported as account.disconnected.' },
        revocations: {
          type: 'object',
          required: ['revoked', 'refused', 'unreachable', 'not_offered', 'not_sent'],
          additionalProperties: false,
          description: 'Those accounts counted by ProviderRevocation outcome (they add up to disconnected_accounts).',
          properties: {
            revoked: { type: 'integer', minimum: 0 },
            refused: { type: 'integer', minimum: 0 },
            unreachable: { type: 'integer', minimum: 0 },
            not_offered: { type: 'integer', minimum: 0 },
            not_sent: { type: 'integer', minimum: 0 },
          },
        },
      },
    },
    AccountView: {
      type: 'object',
      required: ['id', 'identifier', 'connection_id', 'connection_name', 'connector', 'status', 'status_reason', 'scopes', 'created_at', 'updated_at'],
      properties: {
        id: { type: 'string' },
        identifier: { type: 'string' },
        connection_id: { type: 'string' },
        connection_name: { type: 'string' },
        connector: schemaRef('ConnectorName'),
        status: schemaRef('AccountStatus'),
        status_reason: { type: ['string', 'null'] },
        scopes: stringList,
        created_at: time,
        updated_at: time,
      },
    },
    AccountDisconnection: {
      description: 'The account, now DISCONNECTED, and what the provider did with the revocation asked for.',
      allOf: [schemaRef('AccountView'), { type: 'object', required: ['revocation'], properties: { revocation: schemaRef('ProviderRevocation') } }],
    },
    AccountList: listPage('connected_accounts', 'AccountView', 'Oldest first (created_at, then id).'),
    MagicLinkRequest: {
      type: 'object',
      additionalProperties: false,
      required: ['connection_name', 'identifier'],
      properties: {
        connection_name: connectionRef,
        identifier,
        redirect_url: url,
        scopes: {
          type: 'array',
          minItems: 1,
          maxItems: 50,
          items: { type: 'string', pattern: '^[\\x21-\\x7e]{1,200}$' },
          description: 'Extra scopes to ask the user for (a step-up after insufficient_scope): the new grant adds to the old one, and the account keeps its id and identifier. Not for Notion (no OAuth scopes).',
        },
      },
    },
    AuthorizationLink: {
      type: 'object',
      required: ['link', 'expiry', 'connected_account_id'],
      properties: { link: { type: 'string', format: 'uri' }, expiry: time, connected_account_id: { type: 'string' } },
    },
    ExecuteToolRequest: {
      type: 'object',
      additionalProperties: false,
      // tool_input may be omitted (it is then `{}`): enough for a tool without required parameters, and for the
      // others the answer names each missing parameter rather than the missing object.
      required: ['tool_name', 'identifier'],
      properties: { tool_name: { ...str, maxLength: L.toolName }, connection_name: connectionRef, identifier, tool_input: { type: 'object' } },
    },
    ExecuteNamedToolRequest: executeNamedToolRequest({ type: 'object' }),
    ExecuteToolResponse: {
      type: 'object',
      required: ['data', 'execution_id'],
      properties: { data: { description: "The upstream result (the tool's output)." }, execution_id: { type: 'string' } },
    },
    ProxyRequest: {
      type: 'object',
      additionalProperties: false,
      required: ['connection_name', 'identifier', 'path', 'method'],
      properties: {
        connection_name: connectionRef,
        identifier,
        path: { ...str, maxLength: 2048, description: 'Upstream path joined to the connector base URL, e.g. /calendar/v3/users/me/calendarList.' },
        method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'get', 'post', 'put', 'patch', 'delete'] },
        query: {
          type: 'object',
          maxProperties: L.proxyQuery,
          additionalProperties: { anyOf: [{ type: 'string', maxLength: L.proxyValue }, { type: 'array', maxItems: L.proxyQuery, items: { type: 'string', maxLength: L.proxyValue } }] },
        },
        headers: { type: 'object', maxProperties: L.proxyHeaders, additionalProperties: { type: 'string', maxLength: L.proxyValue } },
        body: { description: 'JSON body sent upstream.' },
      },
    },
    ExecutionView: {
      type: 'object',
      description: 'One tool call or proxy request from the execution history. No output, header or secret is kept; a failed call\'s message as the caller got it; `input` only when input capture is on, redacted.',
      required: ['id', 'started_at', 'kind', 'connection_id', 'connection_name', 'identifier', 'operation', 'outcome', 'error_code', 'error_message', 'upstream_status', 'attempts', 'duration_ms', 'input'],
      properties: {
        id: { type: 'string', description: 'The execution id (a tool call returns it as `execution_id`).' },
        started_at: time,
        kind: { type: 'string', enum: ['tool', 'proxy'] },
        connection_id: { type: ['string', 'null'], description: 'Null when no connection was found for the call (a tool call refused for its input has the one it would have used; a proxy request refused before its lookup has none).' },
        connection_name: { type: ['string', 'null'] },
        identifier: { type: ['string', 'null'] },
        operation: { type: 'string', description: 'The tool name, or the proxy method and path template (segments holding ids are `{}`).' },
        outcome: schemaRef('ExecutionOutcome'),
        error_code: { type: ['string', 'null'], description: 'The error code (see the error catalogue), or null on success.' },
        error_message: {
          type: ['string', 'null'],
          maxLength: MAX_TEXT_BODY + 1,
          description:
            'The error\'s message as the caller got it (the provider\'s tokens already scrubbed), with the values of fields input capture redacts as `[redacted]`, clipped at 2,000 characters (then ending in `…`); null on success, for an `internal` error and in records written before messages were kept.',
        },
        upstream_status: { type: ['integer', 'null'], description: 'The last upstream HTTP status, or null when none answered.' },
        attempts: { type: 'integer', minimum: 0, description: 'Upstream requests sent, retries and the retry after a token refresh included.' },
        duration_ms: { type: 'integer', minimum: 0 },
        input: { description: 'The call\'s input with secrets and configured fields redacted; null unless input capture is on.' },
      },
    },
    ExecutionOutcome: { type: 'string', enum: ['success', 'error'] },
    ExecutionList: listPage('executions', 'ExecutionView', 'Newest first.', true),
    ProxyResponse: {
      type: 'object',
      required: ['status', 'headers', 'body'],
      properties: { status: { type: 'integer' }, headers: { type: 'object', additionalProperties: { type: 'string' } }, body: {} },
    },
    Tool: {
      type: 'object',
      description: 'A catalog entry (format=catalog, the default).',
      required: ['name', 'connector', 'title', 'description', 'annotations', 'version', 'aliases', 'input_schema', 'output_schema'],
      properties: {
        name: { type: 'string' },
        connector: schemaRef('ConnectorName'),
        title: { type: 'string', description: 'Short human title.' },
        description: { type: 'string' },
        annotations: {
          type: 'object',
          description: "What calling the tool does, as declared in its spec (MCP's readOnlyHint, destructiveHint, idempotentHint, openWorldHint).",
          required: ['read_only', 'destructive', 'idempotent', 'open_world'],
          properties: { read_only: { type: 'boolean' }, destructive: { type: 'boolean' }, idempotent: { type: 'boolean' }, open_world: { type: 'boolean' } },
        },
        version: { type: 'string' },
        aliases: stringList,
        input_schema: { type: 'object' },
        output_schema: { type: 'object', description: "JSON Schema of the result's notable fields (the upstream may add more)." },
      },
    },
    OpenAITool: {
      type: 'object',
      description: 'An OpenAI Chat Completions function tool (format=openai: non-strict; format=openai-strict: strict, in the Structured Outputs subset).',
      additionalProperties: false,
      required: ['type', 'function'],
      properties: {
        type: { const: 'function' },
        function: {
          type: 'object',
          required: ['name', 'description', 'parameters'],
          properties: { name: { type: 'string' }, description: { type: 'string' }, parameters: { type: 'object' }, strict: { type: 'boolean' } },
        },
      },
    },
    OpenAIResponsesTool: {
      type: 'object',
      description: 'An OpenAI Responses API function tool (format=openai-responses): the flat shape, strict.',
      additionalProperties: false,
      required: ['type', 'name', 'description', 'parameters', 'strict'],
      properties: { type: { const: 'function' }, name: { type: 'string' }, description: { type: 'string' }, parameters: { type: 'object' }, strict: { const: true } },
    },
    AnthropicTool: {
      type: 'object',
      description: 'An Anthropic Messages API tool (format=anthropic); its input_schema is in the strict tool use subset.',
      additionalProperties: false,
      required: ['name', 'description', 'input_schema'],
      properties: { name: { type: 'string' }, description: { type: 'string' }, input_schema: { type: 'object' } },
    },
    GeminiFunctionDeclaration: {
      type: 'object',
      description: "A Gemini function declaration (format=gemini); parameters is Gemini's Schema, absent for a tool without parameters.",
      additionalProperties: false,
      required: ['name', 'description'],
      properties: { name: { type: 'string' }, description: { type: 'string' }, parameters: { type: 'object' } },
    },
    McpTool: {
      type: 'object',
      description: 'An MCP Tool object (format=mcp), as tools/list returns it.',
      additionalProperties: false,
      required: ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'],
      properties: {
        name: { type: 'string' },
        title: { type: 'string' },
        description: { type: 'string' },
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object' },
        annotations: {
          type: 'object',
          required: ['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'],
          properties: { title: { type: 'string' }, readOnlyHint: { type: 'boolean' }, destructiveHint: { type: 'boolean' }, idempotentHint: { type: 'boolean' }, openWorldHint: { type: 'boolean' } },
        },
      },
    },
    ToolInFormat: {
      description: 'One tool in the requested format (see docs/agents.md, "Tool definitions").',
      anyOf: [schemaRef('Tool'), schemaRef('OpenAITool'), schemaRef('OpenAIResponsesTool'), schemaRef('AnthropicTool'), schemaRef('GeminiFunctionDeclaration'), schemaRef('McpTool')],
    },
  };
}
