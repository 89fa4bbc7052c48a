import type { GrantStore } from '../oauth/grant-store.js';
import type { IssuedTokens, OAuthProvider, RegisteredClient, SandboxControl } from '../types.js';
import type { FaultTable, RollingWindows } from './faults.js';
import type { RequestRecorder } from './recorder.js';
import { ACCESS_TOKEN_SECONDS } from './services.js';

export interface ControlDeps {
  store: GrantStore;
  faults: FaultTable;
  windows: RollingWindows;
  recorder: RequestRecorder;
  now(): number;
  seedUser(user: string): void;
}

/** The in-process {@link SandboxControl}. */
export function createControl(deps: ControlDeps): SandboxControl {
  return {
    registerClient(client: RegisteredClient) {
      deps.store.registerClient(client);
    },
    setFault(service, fault) {
      deps.faults.set(service, fault);
    },
    clearFaults(service) {
      deps.faults.clear(service);
      // A cleared rate limit should not leave a half-used window behind.
      deps.windows.clear();
    },
    expireAccessTokens(provider, user) {
      deps.store.expireAccessTokens(provider, user, deps.now());
    },
    revokeRefreshTokens(provider, user) {
      deps.store.revokeRefreshTokens(provider, user);
    },
    requests(service) {
      return deps.recorder.all(service);
    },
    clearRequests() {
      deps.recorder.clear();
    },
    tokenRequestCount(provider, grantType) {
      return deps.store.countTokenRequests(provider, grantType);
    },
    issueTokens(provider: OAuthProvider, user: string, options = {}): IssuedTokens {
      const clientId = options.clientId ?? deps.store.firstClient(provider)?.clientId ?? 'sandbox-client';
      deps.seedUser(user);
      const grant = deps.store.createGrant(provider, clientId, user, options.scopes ?? []);
      const lifetime = ACCESS_TOKEN_SECONDS[provider];
      const access = deps.store.issueAccessToken(grant, deps.now(), lifetime);
      const refresh = deps.store.issueRefreshToken(grant);
      return { accessToken: access.token, refreshToken: refresh.token, expiresIn: lifetime };
    },
  };
}
