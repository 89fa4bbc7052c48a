import type { ConnectorName } from '../../runtime/types.js';
import type { OAuthProvider, SandboxService } from '../types.js';

/** Which OAuth family issues the tokens each API accepts. */
export const PROVIDER_OF: Record<ConnectorName, OAuthProvider> = {
  workspace: 'notion',
  calendar: 'google',
  sheets: 'google',
  docs: 'google',
  crm: 'hubspot',
};

/** Lifetimes of issued access tokens (seconds; null = no time expiry). */
export const ACCESS_TOKEN_SECONDS: Record<OAuthProvider, number | null> = { notion: null, google: 3599, hubspot: 1800 };

export type Route =
  | { kind: 'oauth'; provider: OAuthProvider; service: SandboxService; prefix: string; path: string }
  | { kind: 'api'; service: ConnectorName; prefix: string; path: string }
  | { kind: 'control'; path: string };

/** Maps a request path to a service by its first segment (the layout in `types.ts`). */
export function route(pathname: string): Route | null {
  const m = /^\/([^/]+)(\/.*)?$/.exec(pathname);
  if (!m) return null;
  const prefix = `/${m[1]}`;
  const rest = m[2] ?? '/';
  switch (m[1]) {
    case '_sandbox':
      return { kind: 'control', path: rest };
    case 'notion':
      return rest.startsWith('/v1/oauth/')
        ? { kind: 'oauth', provider: 'notion', service: 'oauth:notion', prefix, path: rest }
        : { kind: 'api', service: 'workspace', prefix, path: rest };
    case 'google':
      return { kind: 'oauth', provider: 'google', service: 'oauth:google', prefix, path: rest };
    case 'hubspot':
      return rest.startsWith('/oauth/')
        ? { kind: 'oauth', provider: 'hubspot', service: 'oauth:hubspot', prefix, path: rest }
        : { kind: 'api', service: 'crm', prefix, path: rest };
    case 'calendar':
      return { kind: 'api', service: 'calendar', prefix, path: rest };
    case 'sheets':
      return { kind: 'api', service: 'sheets', prefix, path: rest };
    case 'docs':
      return { kind: 'api', service: 'docs', prefix, path: rest };
    default:
      return null;
  }
}
