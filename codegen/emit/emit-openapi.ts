import { TOOL_FORMATS } from '../../runtime/agent/formats/index.js';
import type { JsonSchema } from '../../runtime/types.js';
import type { Model } from '../model/types.js';
import type { EmittedFile } from './emitted-file.js';
import { executeNamedToolRequest, fixedSchemas, schemaRef, type OpenApiHelpers } from './openapi-components.js';
import { webhookEvents, webhookPaths, webhookSchemas } from './openapi-webhooks.js';
import { INPUT_LIMITS } from '../../runtime/validation/input-limits.js';
import { PAGE_SIZE } from '../../runtime/list-page.js';
import { mcpSessionPaths, mcpSessionSchemas } from './openapi-mcp-sessions.js';
import { openApiShared } from './openapi-shared.js';

type Obj = Record<string, unknown>;

const json = (schema: Obj): Obj => ({ 'application/json': { schema } });
const requestIdHeader = { 'x-request-id': { $ref: '#/components/headers/RequestId' } };
/** Every 429 and 503 the service sends carries Retry-After (runtime/service/errors.ts and the pages' failurePage). */
const retryAfter = { 'Retry-After': { description: 'Seconds to wait (an error body repeats them as retry_after_seconds).', required: true, schema: { type: 'integer', minimum: 0 } } };
/** RFC 6750 section 3 (bearer) and RFC 7235 (Basic, the token route): every 401 names the scheme to authenticate with. */
const wwwAuthenticate = (scheme: string): Obj => ({ 'WWW-Authenticate': { description: `The scheme to authenticate with: \`${scheme} realm="agent-connector"\`.`, required: true, schema: { type: 'string' } } });
const ok = (description: string, schema: Obj, status = '200'): Obj => ({ [status]: { description, headers: requestIdHeader, content: json(schema) } });
const html = (description: string): Obj => ({ description, headers: requestIdHeader, content: { 'text/html': { schema: { type: 'string' } } } });

const ERROR_RESPONSES: Record<string, [string, string]> = {
  '400': ['BadRequest', 'Invalid request or input (invalid_input, invalid_request, invalid_proxy_request, authorization_failed).'],
  '401': ['Unauthorized', 'Missing or invalid bearer token (unauthorized).'],
  '403': ['Forbidden', 'The user\'s grant lacks a scope the call needs (insufficient_scope), or the upstream API refused it with 403 (upstream_error).'],
  '404': ['NotFound', 'Unknown tool, connection, account or route; or the upstream API answered 404 (upstream_error).'],
  '409': ['Conflict', 'conflict, ambiguous_connection or reauthorization_required; or the upstream API answered 409 (upstream_error).'],
  '4XX': ['UpstreamClientError', 'The upstream API refused the call with this 4xx status (upstream_error: 410, 412, 422, ...); details carry its status and body.'],
  '413': ['PayloadTooLarge', 'The request body or the upstream response is too large (payload_too_large).'],
  '415': ['UnsupportedMediaType', 'The request body is not application/json (unsupported_media_type).'],
  '429': ['RateLimited', 'rate_limited or upstream_rate_limited; Retry-After says when to try again.'],
  '500': ['Internal', 'A bug in the service (internal); the request id finds it in the logs.'],
  '502': ['UpstreamError', 'The upstream API could not be reached, a token refresh failed, or a tool call got a 5xx or an unreadable answer (upstream_error).'],
  '503': ['Unavailable', 'The service is starting, or too many calls are waiting for one upstream (unavailable); Retry-After says when to try again.'],
  '504': ['UpstreamTimeout', 'The upstream API did not answer in time (upstream_timeout).'],
};

function errors(...statuses: string[]): Obj {
  return Object.fromEntries(statuses.map((s) => [s, { $ref: `#/components/responses/${ERROR_RESPONSES[s]![0]}` }]));
}

/** Every route answers 503 until the service has finished starting, before any other check. */
const AUTHED = ['401', '429', '500', '503'];
/** Routes that take a JSON body refuse a larger one and any other media type. */
const JSON_BODY = ['413', '415'];
/** Tool calls pass an upstream 4xx on with its own status (upstream_error), hence 403 and the 4XX range. */
const UPSTREAM = ['400', '403', '404', '409', '4XX', '502', '504', ...JSON_BODY, ...AUTHED];

function op(tag: string, operationId: string, summary: string, responses: Obj, extra: Obj = {}): Obj {
  return { tags: [tag], operationId, summary, ...extra, responses };
}

const idParam = (name: string, description: string): Obj => ({ name, in: 'path', required: true, description, schema: { type: 'string', minLength: 1, maxLength: 200 } });
/** Path parameters of the browser pages, which answer a bad one with a page rather than a schema refusal. */
const pageParam = (name: string, description: string): Obj => ({ name, in: 'path', required: true, description, schema: { type: 'string', minLength: 1 } });
const queryParam = (name: string, schema: Obj, description: string): Obj => ({ name, in: 'query', required: false, description, schema });
/** The two parameters of every cursor-paged list, with the one page size rule (runtime/list-page.ts). */
const pageParams = (): Obj[] => [
  queryParam('limit', { type: 'integer', minimum: 1, maximum: PAGE_SIZE.max, default: PAGE_SIZE.default }, `Page size, 1 to ${PAGE_SIZE.max} (default ${PAGE_SIZE.default}).`),
  queryParam(
    'cursor',
    { type: 'string', minLength: 1, maxLength: 500 },
    'The `next_cursor` of the previous page, sent with the same filters as the request that returned it (`limit` may change). A cursor no page returned, or sent with other filters, is refused (invalid_request, pointer `/cursor`, naming the filters that differ).',
  ),
];

/**
 * `generated/openapi.json`: OpenAPI 3.1 for the whole HTTP service, one execute operation per tool with that tool's
 * input schema; error bodies from the error catalogue; bearer security from `POST /oauth/token`.
 * @see https://spec.openapis.org/oas/v3.1.0
 */
export function buildOpenApi(model: Model): Obj {
  const schemas: Record<string, JsonSchema> = { ...fixedSchemas(), ...mcpSessionSchemas() };
  const paths: Record<string, Obj> = {};

  paths['/oauth/token'] = {
    post: op('auth', 'createAccessToken', 'Exchange application client credentials for a bearer token', {
      ...ok('A bearer token for the API routes.', schemaRef('TokenResponse')),
      '400': { description: 'Unsupported grant type or malformed request (RFC 6749 error body).', headers: requestIdHeader, content: json(schemaRef('OAuthError')) },
      '401': { description: 'Unknown client or wrong secret: `{"error":"invalid_client"}`.', headers: { ...requestIdHeader, ...wwwAuthenticate('Basic') }, content: json(schemaRef('OAuthError')) },
      '413': { description: 'The request body is larger than the limit (RFC 6749 error body, invalid_request).', headers: requestIdHeader, content: json(schemaRef('OAuthError')) },
      // The credential-check budget (rate_limited), the start-up and a bug answer in the service's error body.
      ...errors('429', '500', '503'),
    }, {
      security: [],
      description: 'OAuth 2.0 client credentials grant (RFC 6749 section 4.4). Credentials in the body or HTTP Basic. Its refusals of the request (400, 401, 413) are RFC 6749 error bodies; too many credential checks from one address (429 rate_limited), a service still starting (503) and a bug (500) answer in the service\'s error body.',
      requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: schemaRef('TokenRequest') }, 'application/json': { schema: schemaRef('TokenRequest') } } },
    }),
  };
  paths['/api/v1/connected_accounts/magic_link'] = {
    post: op('accounts', 'createAuthorizationLink', 'Create an authorization link for an end user', { ...ok('The link to show the user.', schemaRef('AuthorizationLink')), ...errors('400', '404', ...JSON_BODY, ...AUTHED) }, {
      requestBody: { required: true, content: json(schemaRef('MagicLinkRequest')) },
    }),
  };
  paths['/api/v1/connected_accounts'] = {
    get: op('accounts', 'listConnectedAccounts', 'List connected accounts, oldest first, a page at a time', {
      ...ok('A page of matching accounts.', schemaRef('AccountList')),
      ...errors('400', ...AUTHED),
    }, {
      description: 'Keyset paging: pass each page\'s `next_cursor` back as `cursor` (with the same filters) until it is null. An account created meanwhile comes on a later page; none shifts a page.',
      parameters: [
        queryParam('identifier', { type: 'string', minLength: 1, maxLength: INPUT_LIMITS.identifier }, 'Only this end user.'),
        queryParam('connection_name', { type: 'string', minLength: 1, maxLength: INPUT_LIMITS.connectionRef }, 'Only this connection.'),
        queryParam('status', schemaRef('AccountStatus'), 'Only accounts in this state.'),
        ...pageParams(),
      ],
    }),
  };
  paths['/api/v1/connected_accounts/{id}'] = {
    parameters: [idParam('id', 'Connected account id.')],
    get: op('accounts', 'getConnectedAccount', 'Get a connected account', { ...ok('The account.', schemaRef('AccountView')), ...errors('404', ...AUTHED) }),
    delete: op('accounts', 'disconnectAccount', 'Disconnect an account (asks the provider to revoke its tokens, deletes them)', { ...ok('The account, now DISCONNECTED, with what the provider did with the revocation (revocation.outcome).', schemaRef('AccountDisconnection')), ...errors('404', ...AUTHED) }),
  };
  paths['/api/v1/execute_tool'] = {
    post: op('tools', 'executeTool', 'Run any tool by name or alias', { ...ok('The tool result.', schemaRef('ExecuteToolResponse')), ...errors(...UPSTREAM) }, {
      requestBody: { required: true, content: json(schemaRef('ExecuteToolRequest')) },
    }),
  };
  paths['/api/v1/proxy'] = {
    post: op('proxy', 'proxyRequest', 'Send a request to the upstream API with the user\'s authorization', { ...ok('The upstream response.', schemaRef('ProxyResponse')), ...errors('400', '404', '409', '502', '504', ...JSON_BODY, ...AUTHED) }, {
      description: 'The upstream\'s answer, whatever its status, is the 200 result. An error status means no answer was passed on: the request was refused before anything was sent (400, 404, 409), or the upstream could not be reached or the user\'s token could not be refreshed (502 upstream_error, 504 upstream_timeout).',
      requestBody: { required: true, content: json(schemaRef('ProxyRequest')) },
    }),
  };
  paths['/api/v1/executions'] = {
    get: op('executions', 'listExecutions', 'List the execution history (tool calls and proxy requests), newest first', {
      ...ok('A page of executions.', schemaRef('ExecutionList')),
      ...errors('400', ...AUTHED),
    }, {
      parameters: [
        queryParam('connection_name', { type: 'string', minLength: 1 }, 'Only calls through this connection.'),
        queryParam('identifier', { type: 'string', minLength: 1 }, 'Only this end user.'),
        queryParam('tool', { type: 'string', minLength: 1 }, 'Only this operation: a tool name, or a proxy operation such as `GET /crm/v3/objects/contacts/{}`.'),
        queryParam('outcome', schemaRef('ExecutionOutcome'), 'Only successes or only errors.'),
        queryParam('error_code', { type: 'string', minLength: 1 }, 'Only calls that failed with this error code.'),
        queryParam('since', { type: 'string', format: 'date-time' }, 'Only calls started at or after this time.'),
        queryParam('until', { type: 'string', format: 'date-time' }, 'Only calls started before this time.'),
        ...pageParams(),
      ],
    }),
  };
  paths['/api/v1/executions/{execution_id}'] = {
    parameters: [idParam('execution_id', 'The execution id (a tool call returns it as `execution_id`).')],
    get: op('executions', 'getExecution', 'Get one execution of the history', {
      ...ok('The execution, as an item of the list has it.', schemaRef('ExecutionView')),
      ...errors('400', '404', ...AUTHED),
    }, {
      description: 'An id no record of this environment has (another environment\'s, one past the retention, or one that is no execution id) is 404 not_found; an id over 200 characters is 400 invalid_request.',
    }),
  };
  const toolFormat = queryParam(
    'format',
    { type: 'string', enum: [...TOOL_FORMATS] },
    'Shape of each entry: `catalog` (default: everything, full input schema); `openai` (Chat Completions, non-strict); `openai-strict` (Chat Completions, strict: true); `openai-responses` (Responses API, strict: true); `anthropic` (Messages API tool); `gemini` (function declaration); `mcp` (MCP Tool). The model formats leave out the version parameters and write what the API cannot express into descriptions (docs/agents.md).',
  );
  paths['/api/v1/tools'] = {
    get: op('tools', 'listTools', 'List tools', {
      ...ok('Matching tools.', { type: 'object', required: ['tools'], properties: { tools: { type: 'array', items: schemaRef('ToolInFormat') } } }),
      ...errors('400', ...AUTHED),
    }, {
      parameters: [
        queryParam('connector', schemaRef('ConnectorName'), 'Only this connector.'),
        queryParam('query', { type: 'string', maxLength: 200 }, 'A natural-language query: the tools it matches, ranked best first (names, aliases, descriptions and parameter names).'),
        toolFormat,
        queryParam('identifier', { type: 'string', minLength: 1 }, 'Only the tools of connectors where this end user has an ACTIVE connected account.'),
        queryParam('read_only', { type: 'string', enum: ['true', 'false'] }, 'true: only the tools that only read (annotations.read_only); false: only those that write.'),
      ],
    }),
  };
  paths['/api/v1/tools/{tool_name}'] = {
    parameters: [idParam('tool_name', 'Tool name or alias.')],
    get: op('tools', 'getTool', 'Get one tool', { ...ok('The tool.', schemaRef('ToolInFormat')), ...errors('400', '404', ...AUTHED) }, { parameters: [toolFormat] }),
  };
  paths['/api/v1/connections'] = {
    get: op('connections', 'listConnections', 'List connections', {
      ...ok('Every connection of the environment.', { type: 'object', required: ['connections'], properties: { connections: { type: 'array', items: schemaRef('ConnectionView') } } }),
      ...errors(...AUTHED),
    }),
    post: op('connections', 'createConnection', 'Create a connection', { ...ok('The new connection.', schemaRef('ConnectionView'), '201'), ...errors('400', '409', ...JSON_BODY, ...AUTHED) }, {
      requestBody: { required: true, content: json(schemaRef('CreateConnection')) },
    }),
  };
  paths['/api/v1/connections/{id_or_name}'] = {
    parameters: [idParam('id_or_name', 'Connection id or name.')],
    get: op('connections', 'getConnection', 'Get a connection', { ...ok('The connection.', schemaRef('ConnectionView')), ...errors('404', ...AUTHED) }),
    patch: op('connections', 'updateConnection', 'Update a connection', { ...ok('The updated connection.', schemaRef('ConnectionView')), ...errors('400', '404', '409', ...JSON_BODY, ...AUTHED) }, {
      requestBody: { required: true, content: json(schemaRef('UpdateConnection')) },
    }),
    delete: op('connections', 'deleteConnection', 'Delete a connection (asks the provider to revoke its accounts\' tokens first)', {
      ...ok('What the deletion did, with the revocations counted by outcome.', schemaRef('ConnectionDeletion')),
      ...errors('404', ...AUTHED),
    }),
  };
  Object.assign(schemas, webhookSchemas());
  const helpers: OpenApiHelpers = { op, ok, errors, idParam, queryParam, pageParams, json, requestIdHeader, AUTHED, JSON_BODY };
  Object.assign(paths, webhookPaths(helpers));
  Object.assign(paths, mcpSessionPaths(helpers));
  // The pages answer their own failures with a page at the error's status; the start-up 503 comes before any route, in
  // the service's JSON error body (build-service.ts).
  const pageFailures = (rateLimited: boolean): Obj => ({
    ...(rateLimited ? { '429': { ...html('Too many link opens from this address (rate_limited): a page; Retry-After says when to try again.'), headers: { ...requestIdHeader, ...retryAfter } } } : {}),
    '500': html('A bug in the service (internal): a page naming the request id.'),
    '503': {
      description: 'The service is starting (the service\'s JSON error body), or too many calls are waiting for the provider (a page); Retry-After says when to try again.',
      headers: { ...requestIdHeader, ...retryAfter },
      content: { 'text/html': { schema: { type: 'string' } }, ...json(schemaRef('Error')) },
    },
  });
  paths['/sso/v1/oauth/{connection_id}/callback'] = {
    parameters: [pageParam('connection_id', 'The connection the authorization was for.')],
    get: op('pages', 'oauthCallback', 'OAuth redirect URI: finishes the authorization (browser page)', {
      '200': html('Success page (when the link had no redirect URL).'),
      '302': { description: 'To the application\'s allowlisted redirect URL.', headers: { ...requestIdHeader, Location: { schema: { type: 'string' } } } },
      '400': html('The authorization failed (page explaining why).'),
      ...pageFailures(false),
      '502': html('The provider\'s token endpoint could not be reached or answered unreadably (upstream_error): a page.'),
      '504': html('The provider\'s token endpoint did not answer in time (upstream_timeout): a page.'),
    }, { security: [] }),
  };
  paths['/sso/v1/connect/{link_token}'] = {
    parameters: [pageParam('link_token', 'The token in an authorization link.')],
    get: op('pages', 'showAuthorizationLink', 'Authorization link: a page with a Continue button; binds and writes nothing (browser page)', {
      '200': html('The Continue page (also what HEAD, link scanners and unfurlers get). Sets the one-time ac_oauth_continue cookie its form echoes.'),
      '400': html('The link is unknown, expired, or already opened in another browser.'),
      ...pageFailures(true),
    }, { security: [] }),
    post: op('pages', 'openAuthorizationLink', 'Authorization link, continued: binds it to this browser and redirects to the provider (browser page)', {
      '303': { description: 'To the provider\'s consent page.', headers: { ...requestIdHeader, Location: { schema: { type: 'string' } } } },
      '400': html('The link is unknown, expired, opened in another browser, or the Continue value is missing or stale.'),
      ...pageFailures(true),
    }, {
      security: [],
      requestBody: {
        required: true,
        content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', required: ['continue'], properties: { continue: { type: 'string', description: 'The value from the Continue page\'s form (and its cookie).' } } } } },
      },
    }),
  };
  paths['/healthz'] = {
    get: op('meta', 'health', 'Liveness check', { ...ok('Alive.', { type: 'object', properties: { ok: { type: 'boolean' } } }), ...errors('429', '503') }, { security: [] }),
  };
  paths['/readyz'] = {
    get: op('meta', 'ready', 'Readiness check: the database answers (Redis, when used, is reported but never makes it fail)', {
      ...ok('Ready to serve calls.', {
        type: 'object',
        required: ['ok', 'database'],
        properties: {
          ok: { type: 'boolean' },
          database: { type: 'string', enum: ['ok'] },
          redis: { type: 'string', enum: ['ok', 'unreachable'], description: 'Only when the service shares its rate limits through Redis; while unreachable, requests are not rate limited.' },
        },
      }),
      ...errors('429', '503'),
    }, { security: [] }),
  };
  paths['/openapi.json'] = {
    get: op('meta', 'openapiDocument', 'This OpenAPI document', { ...ok('The document.', { type: 'object' }), ...errors('429', '503') }, { security: [] }),
  };

  const shared = openApiShared(model);
  for (const t of model.tools) {
    schemas[`${t.typeName}Input`] = t.inputSchema;
    if (t.output) schemas[`${t.typeName}Output`] = shared.output(t);
    schemas[`${t.typeName}Request`] = executeNamedToolRequest(schemaRef(`${t.typeName}Input`), t.params.some((p) => p.required && !p.hostComputed));
    paths[`/api/v1/tools/${t.name}/execute`] = {
      post: op(t.connector, `execute_${t.name}`, firstSentence(t.description), {
        ...ok('The tool result.', { type: 'object', required: ['data', 'execution_id'], properties: { data: t.output ? schemaRef(`${t.typeName}Output`) : {}, execution_id: { type: 'string' } } }),
        ...errors(...UPSTREAM),
      }, {
        description: `${t.description}${t.aliases.length ? `\n\nAliases: ${t.aliases.join(', ')}.` : ''}`,
        requestBody: { required: true, content: json(schemaRef(`${t.typeName}Request`)) },
      }),
    };
  }

  // The connectors' shared schemas (CalendarEvent, ...), each once: the tools' outputs refer to them.
  for (const [name, schema] of Object.entries(shared.schemas)) {
    if (Object.hasOwn(schemas, name)) throw new Error(`OpenAPI: the shared schema component '${name}' has the name of another component`);
    schemas[name] = schema;
  }

  // Every 201 carries the new resource's address in Location (runtime/service/routes/created.ts).
  for (const item of Object.values(paths)) {
    for (const method of ['post', 'put']) {
      const created = ((item[method] as Obj | undefined)?.responses as Obj | undefined)?.['201'] as Obj | undefined;
      if (created) created.headers = { ...(created.headers as Obj), Location: { description: 'The new resource: its collection\'s path and its id.', required: true, schema: { type: 'string', format: 'uri-reference' } } };
    }
  }

  // Every /api/v1 route refuses a query parameter its operation does not list, and an id path parameter longer than
  // its maxLength (400 invalid_request; runtime/service/routes/api.ts, schemas.ts), so every such operation documents 400.
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith('/api/v1/')) continue;
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const operation = item[method] as Obj | undefined;
      if (operation) operation.responses = { ...errors('400'), ...(operation.responses as Obj) };
    }
  }

  const responses = Object.fromEntries(Object.values(ERROR_RESPONSES).map(([name, description]) => [name, {
    description,
    headers: name === 'RateLimited' || name === 'Unavailable' ? { ...requestIdHeader, ...retryAfter } : name === 'Unauthorized' ? { ...requestIdHeader, ...wwwAuthenticate('Bearer') } : requestIdHeader,
    content: json(schemaRef('Error')),
  }]));
  const usedConnectors = model.connectorNames.filter((c) => model.tools.some((t) => t.connector === c));
  return {
    openapi: '3.1.0',
    info: {
      title: 'agent-connector',
      version: '1',
      summary: 'Typed tools and a proxy over Notion, Google Calendar, HubSpot, Google Sheets and Google Docs.',
      description: 'Applications act for their end users through tools and a proxy; the service runs OAuth 2.0 and keeps tokens encrypted. Authenticate with POST /oauth/token, then send the token as a Bearer header. Every response carries an x-request-id header.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: 'http://localhost:3000', description: 'A local service (npm start).' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'auth', description: 'Application credentials.' },
      { name: 'accounts', description: 'End users\' connected accounts and authorization links.' },
      { name: 'connections', description: 'OAuth clients per system.' },
      { name: 'tools', description: 'The tool catalog and generic execution.' },
      { name: 'proxy', description: 'Raw upstream requests.' },
      { name: 'executions', description: 'The history of tool calls and proxy requests.' },
      { name: 'webhooks', description: 'Account events delivered as signed webhooks: endpoints and the delivery log.' },
      { name: 'mcp', description: 'Per-user sessions for the MCP endpoint (/mcp).' },
      { name: 'pages', description: 'Browser pages of the authorization flow.' },
      { name: 'meta', description: 'Health and this document.' },
      ...usedConnectors.map((c) => ({ name: c, description: `Tools of the ${model.connectors.find((d) => d.name === c)?.displayName ?? c} connector.` })),
    ],
    paths,
    webhooks: webhookEvents(helpers),
    components: {
      schemas,
      responses,
      headers: { RequestId: { description: 'Identifies the request in the service logs.', schema: { type: 'string' } } },
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An access token from POST /oauth/token.' } },
    },
  };
}

const ABBREVIATIONS = /\b(?:e\.g|i\.e|etc|vs)\.$/i;

/**
 * The description's first sentence, whole: lines are joined first (a YAML block wraps sentences), and a sentence ends
 * at `.`, `!` or `?` followed by a space or the end, outside parentheses, quotes and code spans, and not after an
 * abbreviation (`e.g.`), so `(events.get)` or `("Contact already exists.")` do not cut it short.
 */
export function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  let depth = 0;
  let quoted = false;
  let code = false;
  for (let i = 0; i < flat.length; i++) {
    const c = flat[i]!;
    if (c === '`') code = !code;
    if (code) continue;
    if (c === '"') quoted = !quoted;
    else if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if ('.!?'.includes(c) && depth === 0 && !quoted && (i + 1 === flat.length || flat[i + 1] === ' ') && !ABBREVIATIONS.test(flat.slice(0, i + 1))) {
      return flat.slice(0, i + 1);
    }
  }
  return flat;
}

