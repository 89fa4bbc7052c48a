import { NOTION_CAPABILITIES, type NotionCapability, type OAuthProvider, type RegisteredClient, type SandboxControl, type SandboxEndpoints, type SandboxService, type Fault } from '../types.js';
import type { ConnectorName } from '../../runtime/types.js';
import { CONNECTOR_NAMES } from '../../runtime/types.js';
import secureJson from 'secure-json-parse';

const PROVIDERS: readonly OAuthProvider[] = ['notion', 'google', 'hubspot'];

function isService(s: unknown): s is SandboxService {
  return (
    typeof s === 'string' &&
    ((CONNECTOR_NAMES as readonly string[]).includes(s) || (s.startsWith('oauth:') && PROVIDERS.includes(s.slice(6) as OAuthProvider)))
  );
}

function isProvider(s: unknown): s is OAuthProvider {
  return typeof s === 'string' && PROVIDERS.includes(s as OAuthProvider);
}

export interface ControlHttpResult {
  status: number;
  body?: unknown;
}

/**
 * The control API under `/_sandbox/`, for the CLI and for tests in another process:
 * - `GET /` endpoints per connector; `POST /clients` a {@link RegisteredClient} (with optional Notion `capabilities`);
 * - `POST /faults {service, fault}`, `DELETE /faults[?service=]`;
 * - `GET /requests[?service=]`, `DELETE /requests`;
 * - `POST /expire {provider, user?}`, `POST /revoke {provider, user?}`;
 * - `GET /token-requests?provider=[&grant_type=]`; `POST /tokens {provider, user, scopes?}` issues tokens.
 */
export function handleControl(
  control: SandboxControl,
  endpoints: (c: ConnectorName) => SandboxEndpoints,
  method: string,
  path: string,
  query: URLSearchParams,
  rawBody: string,
): ControlHttpResult {
  let body: Record<string, unknown> = {};
  if (rawBody.trim()) {
    try {
      const parsed: unknown = secureJson.parse(rawBody, undefined, { protoAction: 'error', constructorAction: 'error' });
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
    } catch {
      return { status: 400, body: { error: 'body must be JSON' } };
    }
  }
  const bad = (message: string): ControlHttpResult => ({ status: 400, body: { error: message } });
  const route = `${method} ${path.replace(/\/$/, '') || '/'}`;
  switch (route) {
    case 'GET /':
      return { status: 200, body: { endpoints: Object.fromEntries(CONNECTOR_NAMES.map((c) => [c, endpoints(c)])) } };
    case 'POST /clients': {
      const c = body as Partial<RegisteredClient>;
      if (!isProvider(c.provider) || typeof c.clientId !== 'string' || typeof c.clientSecret !== 'string' || !Array.isArray(c.redirectUris)) {
        return bad('expected {provider, clientId, clientSecret, redirectUris[]}');
      }
      if (c.capabilities !== undefined && (!Array.isArray(c.capabilities) || !c.capabilities.every((x) => NOTION_CAPABILITIES.includes(x as NotionCapability)))) {
        return bad(`capabilities must be an array of ${NOTION_CAPABILITIES.join(', ')}`);
      }
      control.registerClient({
        provider: c.provider,
        clientId: c.clientId,
        clientSecret: c.clientSecret,
        redirectUris: c.redirectUris.map(String),
        ...(c.capabilities ? { capabilities: [...c.capabilities] } : {}),
      });
      return { status: 204 };
    }
    case 'POST /faults':
      if (!isService(body.service) || !body.fault || typeof body.fault !== 'object') return bad('expected {service, fault}');
      control.setFault(body.service, body.fault as Fault);
      return { status: 204 };
    case 'DELETE /faults': {
      const service = query.get('service');
      if (service !== null && !isService(service)) return bad('unknown service');
      control.clearFaults(service ?? undefined);
      return { status: 204 };
    }
    case 'GET /requests': {
      const service = query.get('service');
      if (service !== null && !isService(service)) return bad('unknown service');
      return { status: 200, body: { requests: control.requests(service ?? undefined) } };
    }
    case 'DELETE /requests':
      control.clearRequests();
      return { status: 204 };
    case 'POST /expire':
    case 'POST /revoke': {
      if (!isProvider(body.provider)) return bad('expected {provider, user?}');
      const user = typeof body.user === 'string' ? body.user : undefined;
      if (route === 'POST /expire') control.expireAccessTokens(body.provider, user);
      else control.revokeRefreshTokens(body.provider, user);
      return { status: 204 };
    }
    case 'GET /token-requests': {
      const provider = query.get('provider');
      if (!isProvider(provider)) return bad('expected ?provider=');
      const grant = query.get('grant_type');
      const count = control.tokenRequestCount(
        provider,
        grant === 'authorization_code' || grant === 'refresh_token' ? grant : undefined,
      );
      return { status: 200, body: { count } };
    }
    case 'POST /tokens': {
      if (!isProvider(body.provider) || typeof body.user !== 'string') return bad('expected {provider, user, scopes?}');
      const scopes = Array.isArray(body.scopes) ? body.scopes.map(String) : undefined;
      return { status: 200, body: control.issueTokens(body.provider, body.user, scopes ? { scopes } : {}) };
    }
    default:
      return { status: 404, body: { error: `no control route ${route}` } };
  }
}
