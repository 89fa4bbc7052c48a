import type { ConnectorName } from '../../runtime/types.js';
import type { GrantStore } from '../oauth/grant-store.js';
import type { ApiModule, ApiResponse, NotionCapability } from '../types.js';
import { GOOGLE_401_INVALID, GOOGLE_401_MISSING } from '../dialects/google.js';
import type { FaultTable, RollingWindows } from './faults.js';
import { sleep } from './http.js';
import { PROVIDER_OF } from './services.js';
import secureJson from 'secure-json-parse';

/** HubSpot's documented burst limit for OAuth apps: 110 requests per rolling 10 seconds per installed account. */
export const HUBSPOT_TEN_SECONDLY = { max: 110, windowMs: 10_000 };
/** HubSpot's separate search limit: 5 requests per second per token, with no rate-limit headers. */
export const HUBSPOT_SEARCH_SECONDLY = { max: 5, windowMs: 1_000 };

export interface ApiCall {
  service: ConnectorName;
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  rawBody: string;
}

export interface GatewayDeps {
  modules: Map<ConnectorName, ApiModule>;
  store: GrantStore;
  faults: FaultTable;
  windows: RollingWindows;
  now(): number;
  providerRateLimits: boolean;
}

const INVALID_JSON: Record<ApiModule['dialect'], { message: string; reason: string }> = {
  notion: { message: 'Error parsing JSON body.', reason: 'invalid_json' },
  google: { message: 'Invalid JSON payload received.', reason: 'parseError' },
  hubspot: { message: 'Invalid input JSON on line 1', reason: 'VALIDATION_ERROR' },
};

const FAULT_MESSAGES: Record<number, string> = {
  400: 'Bad request (injected fault).',
  401: 'Unauthorized (injected fault).',
  403: 'Forbidden (injected fault).',
  404: 'Not found (injected fault).',
  409: 'Conflict (injected fault).',
  500: 'Internal server error (injected fault).',
  502: 'Bad gateway (injected fault).',
  503: 'Service unavailable (injected fault).',
  504: 'Gateway timeout (injected fault).',
};

/**
 * The pipeline every fake API request goes through: latency, JSON body, bearer token (401 in the provider's
 * dialect), injected failures, rate limits, then the module. Modules never see an unauthenticated request.
 */
export class ApiGateway {
  private readonly seeded = new Set<string>();

  constructor(private readonly deps: GatewayDeps) {}

  /** Creates the user's sample data in every module (idempotent). */
  seedAll(user: string): void {
    for (const m of this.deps.modules.values()) this.seed(m, user);
  }

  private seed(module: ApiModule, user: string): void {
    const key = `${module.service}|${user}`;
    if (this.seeded.has(key)) return;
    this.seeded.add(key);
    module.seedUser(user, this.deps.now());
  }

  async handle(call: ApiCall): Promise<ApiResponse> {
    const { deps } = this;
    const module = deps.modules.get(call.service);
    if (!module) return { status: 404, body: { error: `no fake API for ${call.service}` } };
    const fault = deps.faults.get(call.service);
    if (fault?.latencyMs) await sleep(fault.latencyMs);

    let body: unknown;
    if (call.rawBody.trim() !== '') {
      try {
        body = secureJson.parse(call.rawBody, undefined, { protoAction: 'error', constructorAction: 'error' });
      } catch {
        const e = INVALID_JSON[module.dialect];
        return module.errorResponse(400, e.message, { reason: e.reason });
      }
    }

    const auth = this.authenticate(module, call.headers['authorization']);
    if ('response' in auth) return withAuthHeaders(module, auth.response);
    const { user, scopes, capabilities } = auth;
    this.seed(module, user);

    const injected = deps.faults.takeFailure(call.service);
    if (injected) {
      if (injected.status === 429) return this.rateLimited(module, (injected.retryAfterSeconds ?? 1) * 1000, undefined);
      return module.errorResponse(injected.status, FAULT_MESSAGES[injected.status] ?? `Error ${injected.status} (injected fault).`, {
        ...(injected.retryAfterSeconds !== undefined ? { retryAfterSeconds: injected.retryAfterSeconds } : {}),
      });
    }

    const limit = this.rateLimit(module, call, user);
    if (limit.denied) return limit.denied;

    let response: ApiResponse;
    try {
      response = await module.handle({
        method: call.method,
        path: call.path,
        query: call.query,
        headers: call.headers,
        body,
        user,
        scopes,
        ...(capabilities ? { capabilities } : {}),
        now: deps.now(),
      });
    } catch (err) {
      response = module.errorResponse(500, `Sandbox bug: ${(err as Error).message}`);
    }
    return limit.headers ? { ...response, headers: { ...response.headers, ...limit.headers } } : response;
  }

  private authenticate(
    module: ApiModule,
    header: string | undefined,
  ): { user: string; scopes: string[]; capabilities: readonly NotionCapability[] | undefined } | { response: ApiResponse } {
    const provider = PROVIDER_OF[module.service];
    const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    const looked = m?.[1] ? this.deps.store.lookupAccess(provider, m[1], this.deps.now()) : ({ ok: false, why: 'unknown' } as const);
    if (looked.ok) {
      const { record } = looked;
      return { user: record.user, scopes: record.scopes, capabilities: this.deps.store.client(provider, record.clientId)?.capabilities };
    }
    switch (module.dialect) {
      case 'notion':
        return { response: module.errorResponse(401, 'API token is invalid.', { reason: 'unauthorized' }) };
      case 'google':
        // The reason picks Google's wording and ErrorInfo (google-common/errors.ts: coreError).
        return {
          response: m?.[1]
            ? module.errorResponse(401, GOOGLE_401_INVALID, { reason: looked.why === 'expired' ? 'expired' : 'unknown' })
            : module.errorResponse(401, GOOGLE_401_MISSING, { reason: 'missing' }),
        };
      case 'hubspot': {
        if (looked.why === 'expired' && looked.record.expiresAt !== null) {
          const expiredAt = looked.record.expiresAt;
          return {
            response: module.errorResponse(401, `The OAuth token used to make this call expired ${ago(this.deps.now() - expiredAt)} ago.`, {
              reason: 'EXPIRED_AUTHENTICATION',
              details: { context: { 'expire time': [new Date(expiredAt).toISOString()] } },
            }),
          };
        }
        return {
          response: module.errorResponse(
            401,
            'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview',
            { reason: 'INVALID_AUTHENTICATION' },
          ),
        };
      }
    }
  }

  /** Applies the provider's rate-limit model; returns the 429 (or Google 403) to send, and headers for a success. */
  private rateLimit(module: ApiModule, call: ApiCall, user: string): { denied?: ApiResponse; headers?: Record<string, string> } {
    const { deps } = this;
    const configured = deps.faults.get(call.service)?.rateLimit;
    const now = deps.now();
    if (module.dialect === 'hubspot') {
      const isSearch = call.method === 'POST' && /\/search$/.test(call.path);
      const limit = configured ?? (deps.providerRateLimits ? (isSearch ? HUBSPOT_SEARCH_SECONDLY : HUBSPOT_TEN_SECONDLY) : undefined);
      if (!limit) return {};
      const r = deps.windows.hit(`${call.service}|${user}|${isSearch ? 'search' : 'general'}`, limit.max, limit.windowMs, now);
      // Search responses carry no rate-limit headers (HubSpot documents this).
      const headers = isSearch
        ? undefined
        : {
            'x-hubspot-ratelimit-max': String(limit.max),
            'x-hubspot-ratelimit-remaining': String(r.remaining),
            'x-hubspot-ratelimit-interval-milliseconds': String(limit.windowMs),
          };
      if (r.allowed) return headers ? { headers } : {};
      const denied = this.rateLimited(module, r.retryAfterMs, isSearch ? 'SECONDLY' : 'TEN_SECONDLY_ROLLING');
      return { denied: headers ? { ...denied, headers: { ...denied.headers, ...headers } } : denied };
    }
    if (!configured) return {};
    const r = deps.windows.hit(`${call.service}|${user}`, configured.max, configured.windowMs, now);
    if (r.allowed) return {};
    if (module.dialect === 'google' && configured.googleStyle403) {
      return { denied: module.errorResponse(403, 'User Rate Limit Exceeded', { reason: 'userRateLimitExceeded' }) };
    }
    return { denied: this.rateLimited(module, r.retryAfterMs, undefined) };
  }

  private rateLimited(module: ApiModule, retryAfterMs: number, policy: string | undefined): ApiResponse {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    switch (module.dialect) {
      case 'notion':
        return module.errorResponse(429, 'You have been rate limited. Please try again in a few minutes.', {
          reason: 'rate_limited',
          retryAfterSeconds: seconds,
        });
      case 'google':
        // Google sends no dependable Retry-After; clients back off exponentially.
        return module.errorResponse(429, 'Rate Limit Exceeded', { reason: 'rateLimitExceeded' });
      case 'hubspot': {
        const policyName = policy ?? 'TEN_SECONDLY_ROLLING';
        const message = policyName === 'SECONDLY' ? 'You have reached your secondly limit.' : 'You have reached your ten_secondly_rolling limit.';
        return module.errorResponse(429, message, { reason: 'RATE_LIMITS', details: { errorType: 'RATE_LIMIT', policyName } });
      }
    }
  }
}

/** Google's front end always says `WWW-Authenticate` on a 401, whatever the module's error renderer did. */
function withAuthHeaders(module: ApiModule, response: ApiResponse): ApiResponse {
  if (module.dialect !== 'google' || response.status !== 401 || response.headers?.['www-authenticate']) return response;
  return { ...response, headers: { ...response.headers, 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' } };
}

/** HubSpot's "N second(s)/minute(s)/hour(s)" wording. */
function ago(ms: number): string {
  const s = Math.max(1, Math.floor(ms / 1000));
  if (s < 60) return `${s} second(s)`;
  if (s < 3600) return `${Math.floor(s / 60)} minute(s)`;
  if (s < 86400) return `${Math.floor(s / 3600)} hour(s)`;
  return `${Math.floor(s / 86400)} day(s)`;
}
