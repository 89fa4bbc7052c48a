/**
 * The sandbox: local fakes of the five providers' OAuth servers and APIs, on one HTTP server.
 *
 * Layout of the one server (all under `http://127.0.0.1:{port}`):
 *   /notion/...     Notion: OAuth (`/notion/v1/oauth/authorize|token|revoke|introspect`) and API (`/notion/v1/...`)
 *   /google/...     Google OAuth: `/google/o/oauth2/v2/auth`, `/google/token`, `/google/revoke`
 *   /calendar/...   stands for https://www.googleapis.com      (API paths `/calendar/calendar/v3/...`)
 *   /sheets/...     stands for https://sheets.googleapis.com   (API paths `/sheets/v4/...`)
 *   /docs/...       stands for https://docs.googleapis.com     (API paths `/docs/v1/...`)
 *   /hubspot/...    HubSpot: OAuth (`/hubspot/oauth/authorize`, `/hubspot/oauth/v1/token`,
 *                   `/hubspot/oauth/v1/refresh-tokens/{token}`) and API (`/hubspot/crm/v3/...`)
 *
 * The control API (`POST /_sandbox/faults`, `GET /_sandbox/requests`, ...) is on an origin of its own,
 * `sandbox.controlUrl`, and never on the providers' origins, so no connection pointed at the providers reaches it.
 *
 * So a connection points at the sandbox by setting its overrides to `sandbox.endpoints(connector)`; the runtime then
 * joins tool paths (which start from the real host's root) to `apiBaseUrl` exactly as it would to the real host.
 *
 * Each provider is also served at the root of an origin of its own (`sandbox.origins`), at the real API's paths: an
 * official client pointed at `origins.calendar` sends `/calendar/v3/...` exactly as it would to www.googleapis.com.
 * Google's clients keep only the host of their `rootUrl`, so a path prefix would not reach them.
 */
import type { ConnectorName, ErrorDialect } from '../runtime/types.js';

/** An OAuth server family. Calendar, Sheets and Docs share Google's. */
export type OAuthProvider = 'notion' | 'google' | 'hubspot';

/** What fault injection and request records are keyed by: an API, or an OAuth server. */
export type SandboxService = ConnectorName | `oauth:${OAuthProvider}`;

/** The origins of their own that each fake provider is also served on (see the layout above). */
export type ProviderOrigin = 'notion' | 'google' | 'calendar' | 'sheets' | 'docs' | 'hubspot';

/** The path prefix on the main server that each provider origin stands for. */
export const PROVIDER_ORIGIN_PREFIXES: Readonly<Record<ProviderOrigin, string>> = {
  notion: '/notion',
  google: '/google',
  calendar: '/calendar',
  sheets: '/sheets',
  docs: '/docs',
  hubspot: '/hubspot',
};

export interface SandboxEndpoints {
  authorizationUrl: string;
  tokenUrl: string;
  revocationUrl: string;
  apiBaseUrl: string;
}

/**
 * A Notion integration's content and comment capabilities (set on the integration, not per token; Notion has no
 * OAuth scopes). User-information capabilities are not modelled.
 * @see https://developers.notion.com/reference/capabilities
 */
export type NotionCapability = 'read_content' | 'update_content' | 'insert_content' | 'read_comments' | 'insert_comments';

export const NOTION_CAPABILITIES: readonly NotionCapability[] = ['read_content', 'update_content', 'insert_content', 'read_comments', 'insert_comments'];

export interface RegisteredClient {
  provider: OAuthProvider;
  clientId: string;
  clientSecret: string;
  /** Exact redirect URIs; the authorize and token endpoints refuse any other. */
  redirectUris: string[];
  /**
   * Notion only: the integration's capabilities; an endpoint needing one it lacks answers 403 `restricted_resource`.
   * Absent means every capability. Read on each request, so re-registering the client changes live tokens too.
   */
  capabilities?: NotionCapability[];
}

export interface RecordedRequest {
  service: SandboxService;
  method: string;
  /** Path after the service prefix, e.g. `/calendar/v3/users/me/calendarList`. */
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body: unknown;
  status: number;
  at: number;
  /** The fake has no route for it (see {@link ApiResponse.unmodelled}). */
  unmodelled?: true;
}

export interface Fault {
  /** Fail the next `count` requests (that reach the service) with this status and the provider's error body. */
  failNext?: { count: number; status: number; retryAfterSeconds?: number };
  /** Add this many milliseconds before answering every request. */
  latencyMs?: number;
  /** Requests allowed per rate-limit window before 429 (or Google's 403 usageLimits where `googleStyle403`). */
  rateLimit?: { max: number; windowMs: number; googleStyle403?: boolean };
}

export interface SandboxControl {
  registerClient(client: RegisteredClient): void;
  /** Sets (merges) faults for a service; `clearFaults` removes them. */
  setFault(service: SandboxService, fault: Fault): void;
  clearFaults(service?: SandboxService): void;
  /** Makes every access token issued to this user by this provider expire now (the API answers 401 in dialect). */
  expireAccessTokens(provider: OAuthProvider, user?: string): void;
  /** Revokes refresh tokens so the next refresh gets `invalid_grant`. */
  revokeRefreshTokens(provider: OAuthProvider, user?: string): void;
  requests(service?: SandboxService): RecordedRequest[];
  clearRequests(): void;
  /** Number of token-endpoint requests, optionally by grant type. */
  tokenRequestCount(provider: OAuthProvider, grantType?: 'authorization_code' | 'refresh_token'): number;
  /**
   * Issues tokens for a user as if the user had consented (no HTTP, not counted as a token request), for tests and
   * benchmarks that need a working token without driving the consent page.
   */
  issueTokens(provider: OAuthProvider, user: string, options?: { clientId?: string; scopes?: string[] }): IssuedTokens;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string | null;
  /** Seconds, or null for a token that does not expire by time (Notion). */
  expiresIn: number | null;
}

export interface Sandbox {
  /** `http://127.0.0.1:{port}`: the fake providers. */
  url: string;
  port: number;
  /** `http://127.0.0.1:{another port}`: the control API only (`/_sandbox/...`). */
  controlUrl: string;
  /**
   * Each provider at the root of an origin of its own, at its real paths (e.g. `origins.calendar` stands for
   * https://www.googleapis.com, `origins.sheets` for https://sheets.googleapis.com). Empty when
   * `providerOrigins: false`.
   */
  origins: Readonly<Partial<Record<ProviderOrigin, string>>>;
  endpoints(connector: ConnectorName): SandboxEndpoints;
  control: SandboxControl;
  close(): Promise<void>;
}

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** Clock for token expiry and timestamps (ms since epoch); tests may move it. */
  now?: () => number;
  /** Register these OAuth clients at start. */
  clients?: RegisteredClient[];
  /**
   * Apply the providers' own rate limits when no fault sets one (HubSpot: 110 requests per 10-second window per
   * account, search 5 per second). Default true; benchmarks turn it off.
   */
  providerRateLimits?: boolean;
  /**
   * A JSON file to keep the sandbox's state in across restarts (clients, grants, tokens and each user's data): read
   * at start, written shortly after each change and at close. Its port is kept too: with `port` unset or 0, the
   * sandbox listens on the port it had, or on a new one if that port is taken. Absent: state lives in memory only.
   */
  stateFile?: string;
  /** Also serve each provider at the root of an origin of its own (an ephemeral port each). Default true. */
  providerOrigins?: boolean;
}

/** Everything an API module sees of one request, after the core has authenticated it. */
export interface ApiRequest {
  method: string;
  /** Path after the service prefix, percent-decoding NOT applied (modules decode segments themselves). */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  /** Parsed JSON body (undefined when there is none). A body that is not valid JSON never reaches a module. */
  body: unknown;
  /** The user the bearer token belongs to (sandbox user id, an e-mail address). */
  user: string;
  /** Scopes granted to the token. */
  scopes: string[];
  /** Capabilities of the client the token was issued to, when it declares any (Notion); undefined means all. */
  capabilities?: readonly NotionCapability[];
  now: number;
}

export interface ApiResponse {
  status: number;
  headers?: Record<string, string>;
  /** JSON body; undefined for an empty body (e.g. 204). */
  body?: unknown;
  /**
   * No route of the fake matched: the sandbox does not model this request, and answered it as the provider answers an
   * unknown address. Recorded (never sent), so a test can tell it from a known route's not-found.
   */
  unmodelled?: true;
}

/** One fake API. The core does auth, faults, rate limits and recording; a module only implements the API. */
export interface ApiModule {
  service: ConnectorName;
  dialect: ErrorDialect;
  /** Creates the user's sample data the first time the user is seen. */
  seedUser(user: string, now: number): void;
  /** Each user's data, by sandbox user: what a state file saves and restores (see `persist/state-file.ts`). */
  readonly users: Map<string, unknown>;
  handle(req: ApiRequest): ApiResponse | Promise<ApiResponse>;
  /** An error in this provider's shape, used by the core for 401/429/injected faults. */
  errorResponse(
    status: number,
    message: string,
    extra?: { reason?: string; retryAfterSeconds?: number; details?: Record<string, unknown> },
  ): ApiResponse;
}
