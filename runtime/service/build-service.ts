/**
 * `buildService({connector})`: the HTTP service as a fastify instance, not yet listening.
 *
 * Layers, in request order: request id -> (API only) bearer auth (`/mcp`: an MCP session token instead) -> per-environment rate limit -> body parsing with
 * size limit -> route schema -> route -> the one error renderer. Everything tenant-specific goes through
 * `connector.environment(id)` with the id from the verified token, so another environment's resources are simply
 * not found.
 */
import { randomBytes } from 'node:crypto';
import fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyRequest, type FastifyServerOptions, type HTTPMethods } from 'fastify';
import formbody from '@fastify/formbody';
import cookie from '@fastify/cookie';
import type { Logger } from 'pino';
import type { Connector, EnvironmentScope } from '../api.js';
import { ConnectorError } from '../errors.js';
import type { DevSandbox } from './dev-sandbox.js';
import { AppAuth, type AccessTokenClaims } from './app-auth.js';
import { sendError, toConnectorError } from './errors.js';
import { jsonBodyParser } from './json-body.js';
import { createServiceLogger } from './logging.js';
import { OneLinePerRequest, registerRequestObservability } from './request-observability.js';
import { registerRateLimits, type RateLimitOptions } from './rate-limits.js';
import type { Redis } from 'ioredis';
import { REQUEST_ID_HEADER, requestIdFor } from './request-id.js';
import { serverTimeoutOptions, type ServiceTimeouts } from './timeouts.js';
import { registerApiRoutes } from './routes/api.js';
import { registerMetaRoutes } from './routes/meta.js';
import { registerOAuthTokenRoute } from './routes/oauth-token.js';
import { registerSsoRoutes } from './routes/sso.js';
import { registerDashboard } from './dashboard/routes.js';
import { serviceEnvironments } from './sandbox-connections.js';
import { startWebhookDelivery, type WebhookDeliveryOptions } from './webhook-delivery.js';
import { MCP_PATH, registerMcpEndpoint } from '../mcp/http-endpoint.js';
import { looksLikeSessionToken } from '../mcp/session-token.js';
import { bearerToken } from './bearer.js';

export interface ServiceOptions {
  connector: Connector;
  /** HS256 key(s) for access tokens and dashboard sessions (>= 32 bytes each; the first signs, all verify). Default: random per process. */
  signingKey?: Uint8Array | readonly Uint8Array[];
  /** A pino logger (tests pass one writing to a capture stream); `false` for silence. Default: JSON to stdout. */
  logger?: Logger | false;
  /** Per-environment API request budget; `false` disables. Default 6000 per minute (100/s with that burst). */
  rateLimit?: RateLimitOptions | false;
  /** Per-client-address budget for credential checks (`/oauth/token`, dashboard sign-in). Default 60 per minute. */
  credentialRateLimit?: RateLimitOptions | false;
  /** Per-client-address budget for opening authorization links. Default 60 per minute. */
  linkOpenRateLimit?: RateLimitOptions | false;
  /** Redis (ioredis) holding the rate-limit counters, shared by every instance using it; the caller closes it. Default: in memory. */
  rateLimitRedis?: Redis;
  /** Largest accepted request body in bytes. Default 1 MiB. */
  bodyLimitBytes?: number;
  /** How long a client may take to send a request, and to stay idle; see {@link ServiceTimeouts}. */
  timeouts?: Partial<ServiceTimeouts>;
  /**
   * How long this instance reuses the store's answer on whether a token's client or a session still stands
   * (token-revocation.ts). Default 1000 ms: a revocation made elsewhere takes effect here within it.
   */
  revocationCacheMs?: number;
  /** Access token lifetime in seconds. Default 3600. */
  tokenTtlSeconds?: number;
  /** When the sandbox runs in-process, the dashboard offers to point new connections at it. */
  sandbox?: DevSandbox;
  /**
   * Trust `X-Forwarded-*` from a reverse proxy (for client addresses in rate limiting), in any of fastify's forms
   * (AGENT_CONNECTOR_TRUST_PROXY): `true`, addresses/CIDRs, a comma-separated string, a function. Not a hop count:
   * fastify 5 trusts no proxy for a number (it cannot check the immediate peer). Default: trust nothing.
   * @see https://fastify.dev/docs/latest/Reference/Server/#trustproxy
   */
  trustProxy?: Exclude<FastifyServerOptions['trustProxy'], number>;
  /**
   * Until this returns true, every request (before auth, on every route) is answered 503 `unavailable` with
   * Retry-After: startService listens before it writes its start-up state. Default: always ready.
   */
  isReady?: () => boolean;
  now?: () => number;
  /**
   * The account events dispatcher of this instance (runtime/webhooks/dispatcher.ts): started when the service is
   * ready, stopped when it closes. `false` runs none (another process delivers). Default: on, polling every second.
   */
  webhooks?: WebhookDeliveryOptions | false;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's environment, set by the bearer check on `/api/v1/*`. */
    env: EnvironmentScope;
    environmentId: string;
    /** The JSON body's text as received (the proxy forwards its `body` member byte for byte). */
    jsonText: string;
  }
}

/** Longest path parameter the router hands to a route (whose schema then says what it accepts). */
const MAX_PARAM_LENGTH = 1024;

/** The router's own refusals (before any route or hook runs), in the service's error body. */
function frameworkError(error: FastifyError, request: FastifyRequest): ConnectorError {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return new ConnectorError('invalid_request', `A path parameter is longer than ${MAX_PARAM_LENGTH} characters`);
  }
  if (error.code === 'FST_ERR_BAD_URL') return new ConnectorError('invalid_request', 'The request path is not a valid URL component');
  return toConnectorError(error, request);
}

type BodyParser = (request: FastifyRequest, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => void;

/**
 * DELETE and OPTIONS carry no content, but clients (curl scripts, HTTP libraries with a default header) still send
 * `content-type: application/json` on them: an empty body there is no body, not invalid JSON. Same for a path that
 * matches no route, which answers `not_found` (or `method_not_allowed`) whatever its body. On `/api/v1` (`api`), where
 * a route's schema has every body it takes, a route with none takes none whatever its method: a POST action such as
 * sending a webhook delivery again. A body that is there is still read.
 */
function takesNoBody(request: FastifyRequest, api: boolean): boolean {
  if (request.is404) return true;
  if (request.routeOptions.schema?.body !== undefined) return false;
  return api || request.method === 'DELETE' || request.method === 'OPTIONS';
}

function jsonOrNoBody(api: boolean): BodyParser {
  return (request, body, done) => {
    if (body.length === 0 && takesNoBody(request, api)) return done(null, undefined);
    request.jsonText = typeof body === 'string' ? body : body.toString('utf8');
    jsonBodyParser(request, request.jsonText, done);
  };
}

/** Every other media type on `/api/v1/*`: `unsupported_media_type`, unless there is no body to read. */
function refuseNonJson(request: FastifyRequest, body: string | Buffer, done: (error: Error | null, value?: unknown) => void): void {
  if (body.length === 0 && takesNoBody(request, true)) return done(null, undefined);
  const sent = request.headers['content-type']?.split(';')[0]?.trim().slice(0, 100);
  done(new ConnectorError('unsupported_media_type', `The request body must be application/json${sent ? ` (got ${sent})` : ' (no content-type was sent)'}`));
}

/**
 * The methods another route answers on `path`, for a request that matched no route: non-empty means the path
 * exists and the answer is 405 with `Allow`, not 404. The router itself is asked (with the concrete path, so
 * parameterized routes match as they would for a request). HEAD and OPTIONS keep fastify's answer (HEAD exists for
 * every GET route; OPTIONS has no route here), so they are never refused with 405.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-15.5.6
 */
function allowedMethods(app: FastifyInstance, method: string, path: string): string[] {
  if (method === 'HEAD' || method === 'OPTIONS') return [];
  return app.supportedMethods.filter((m) => m !== method && app.findRoute({ method: m as HTTPMethods, url: path }) !== null);
}

export async function buildService(options: ServiceOptions): Promise<FastifyInstance> {
  const { connector } = options;
  const now = options.now ?? Date.now;
  // The API and the dashboard act through these scopes: with a sandbox composed in, a new client is registered there.
  const environment = serviceEnvironments(connector, options.sandbox);
  const auth = new AppAuth(connector.store, {
    signingKey: options.signingKey ?? randomBytes(32),
    tokenTtlSeconds: options.tokenTtlSeconds,
    ...(options.revocationCacheMs === undefined ? {} : { revocationCacheMs: options.revocationCacheMs }),
    now,
  });

  // Silence is fastify's own no-op logger, not a silent pino: a pino instance still builds a child per request.
  const logging = options.logger === false ? { logger: false } : { loggerInstance: (options.logger ?? createServiceLogger()) as FastifyBaseLogger };
  const app = fastify({
    ...logging,
    genReqId: requestIdFor,
    // One line per request, written when it has been answered (request-observability.ts), not fastify's two.
    logController: new OneLinePerRequest(),
    requestIdHeader: false,
    bodyLimit: options.bodyLimitBytes ?? 1024 * 1024,
    ...serverTimeoutOptions(options.timeouts),
    trustProxy: options.trustProxy ?? false,
    return503OnClosing: true,
    // The document allows path ids up to 200 characters and the route schemas say so in the service's words;
    // fastify's default (100) would answer 101+ with its own 414 body first. Past this cap, frameworkErrors answers.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: (error, request, reply) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      sendError(reply, frameworkError(error, request));
    },
    ajv: { customOptions: { allErrors: true, coerceTypes: false, removeAdditional: false, useDefaults: false } },
  });

  app.decorateRequest('env', null as unknown as EnvironmentScope);
  app.decorateRequest('environmentId', '');
  app.decorateRequest('jsonText', '');
  // Hooks on every request are callback-style: an async hook costs a promise and a tick per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  registerRequestObservability(app);
  const isReady = options.isReady;
  if (isReady) {
    app.addHook('onRequest', (_request, _reply, done) => {
      if (!isReady()) return done(new ConnectorError('unavailable', 'The service is starting; retry shortly', { retryAfterSeconds: 1 }));
      done();
    });
  }
  app.setErrorHandler((error, request, reply) => sendError(reply, toConnectorError(error, request)));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = allowedMethods(app, request.method, path);
    if (allowed.length === 0) return sendError(reply, new ConnectorError('not_found', `No route ${request.method} ${path}`));
    reply.header('allow', allowed.join(', '));
    return sendError(reply, new ConnectorError('method_not_allowed', `This path does not take ${request.method}; it takes ${allowed.join(', ')}`, { details: { allow: allowed } }));
  });

  await app.register(formbody, { bodyLimit: options.bodyLimitBytes ?? 1024 * 1024 });
  // fastify's own JSON parser drops where the body stops being JSON; this one keeps it (details.position).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, jsonOrNoBody(false));

  const limits = await registerRateLimits(app, {
    ...(options.rateLimit === undefined ? {} : { api: options.rateLimit }),
    ...(options.credentialRateLimit === undefined ? {} : { credentials: options.credentialRateLimit }),
    ...(options.linkOpenRateLimit === undefined ? {} : { linkOpens: options.linkOpenRateLimit }),
    ...(options.rateLimitRedis ? { redis: options.rateLimitRedis } : {}),
  });
  const checkCredentialRate = limits.credentials;

  registerMetaRoutes(app, { baseUrl: connector.baseUrl, store: connector.store, ...(options.rateLimitRedis ? { redis: options.rateLimitRedis } : {}) });
  registerOAuthTokenRoute(app, { auth, checkCredentialRate });
  // Cookies (the authorization link's browser binding, dashboard sessions) exist only on the browser-facing routes;
  // registered there, the cookie plugin's hooks do not run on API calls.
  await app.register(async (browser) => {
    await browser.register(cookie);
    registerSsoRoutes(browser, { connector, checkLinkOpenRate: limits.linkOpens });
    await browser.register(async (dash) => registerDashboard(dash, { connector, environment, auth, sandbox: options.sandbox, checkCredentialRate }), { prefix: '/dashboard' });
  });
  await app.register(
    async (api) => {
      // The API takes JSON only: a form or text body gets a 415 that says so rather than a schema refusal of its
      // fields. (Parsers are encapsulated: /oauth/token and the dashboard keep their form parser.)
      api.removeAllContentTypeParsers();
      api.addContentTypeParser('application/json', { parseAs: 'string' }, jsonOrNoBody(true));
      api.addContentTypeParser('*', { parseAs: 'buffer' }, refuseNonJson);
      const admit = (request: FastifyRequest, claims: AccessTokenClaims | null | undefined): ConnectorError | undefined => {
        if (!claims) return new ConnectorError('unauthorized', 'The access token is invalid or expired; get a new one from POST /oauth/token');
        request.environmentId = claims.environmentId;
        request.env = environment(claims.environmentId);
        return undefined;
      };
      api.addHook('onRequest', async (request) => {
        const token = bearerToken(request.headers.authorization);
        if (!token) throw new ConnectorError('unauthorized', 'Send an access token from POST /oauth/token as Authorization: Bearer <token>');
        if (looksLikeSessionToken(token)) throw new ConnectorError('unauthorized', `An MCP session token is accepted on ${MCP_PATH} only; the API takes an access token from POST /oauth/token`);
        const refused = admit(request, await auth.verifyAccessToken(token));
        if (refused) throw refused;
        await limits.api(request);
      });
      registerApiRoutes(api, { connector, now });
    },
    { prefix: '/api/v1' },
  );
  await registerMcpEndpoint(app, {
    connector,
    now,
    admitEnvironment: async (request, environmentId) => {
      request.environmentId = environmentId;
      await limits.api(request);
    },
  });
  app.get('/', async (_request, reply) => reply.redirect('/dashboard'));
  if (options.webhooks !== false) startWebhookDelivery(app, connector, { now, ...options.webhooks });

  return app;
}
