/**
 * MCP sessions as the application manages them (`/api/v1/mcp_sessions`) and as `/mcp` checks them.
 *
 * A session is a bearer token for one end user, one tool set and one environment. It is shown once, stored as a
 * SHA-256, expires (default one hour, at most 24) and can be revoked. Every `/mcp` request looks it up in the store,
 * so a revocation on one service instance holds on all of them at once, with no cache to go stale.
 */
import type { Connector } from '../api.js';
import { ConnectorError } from '../errors.js';
import type { McpSessionMode, McpSessionRecord } from '../store/types.js';
import { checkSessionScope, type SessionScope, type SessionScopeInput } from './session-scope.js';
import { looksLikeSessionToken, newSessionToken, sessionTokenHash } from './session-token.js';
import { violationError } from '../validation/violation-error.js';

export const DEFAULT_SESSION_SECONDS = 3600;
export const MAX_SESSION_SECONDS = 24 * 3600;
export const MIN_SESSION_SECONDS = 60;

export interface CreateMcpSessionInput extends SessionScopeInput {
  /** Lifetime in seconds, 60 to 86400; default 3600. */
  expires_in?: number | null;
}

/** A session as the API shows it: never the token (except once, in the creation answer). */
export interface McpSessionView {
  id: string;
  identifier: string;
  url: string;
  connections: string[] | null;
  tools: string[] | null;
  read_only: boolean;
  mode: McpSessionMode;
  status: 'active' | 'expired' | 'revoked';
  expires_at: string;
  revoked_at: string | null;
  created_at: string;
}

export function mcpUrl(baseUrl: string): string {
  return `${baseUrl}/mcp`;
}

export function sessionView(rec: McpSessionRecord, baseUrl: string, now: number): McpSessionView {
  const status = rec.revokedAt !== null ? 'revoked' : Date.parse(rec.expiresAt) <= now ? 'expired' : 'active';
  return {
    id: rec.id,
    identifier: rec.identifier,
    url: mcpUrl(baseUrl),
    connections: rec.connections,
    tools: rec.tools,
    read_only: rec.readOnly,
    mode: rec.mode,
    status,
    expires_at: rec.expiresAt,
    revoked_at: rec.revokedAt,
    created_at: rec.createdAt,
  };
}

export function scopeOf(rec: McpSessionRecord): SessionScope {
  return { environmentId: rec.environmentId, identifier: rec.identifier, connections: rec.connections, tools: rec.tools, readOnly: rec.readOnly, mode: rec.mode };
}

/** Mints a session after checking the scope against the environment; the token appears in this answer only. */
export async function createMcpSession(
  connector: Connector,
  environmentId: string,
  input: CreateMcpSessionInput,
  now: number,
): Promise<McpSessionView & { token: string }> {
  const expiresIn = input.expires_in ?? DEFAULT_SESSION_SECONDS;
  if (!Number.isInteger(expiresIn) || expiresIn < MIN_SESSION_SECONDS || expiresIn > MAX_SESSION_SECONDS) {
    throw violationError('invalid_input', `expires_in must be a whole number of seconds from ${MIN_SESSION_SECONDS} to ${MAX_SESSION_SECONDS}`, {
      pointer: '/expires_in',
      message: `must be an integer from ${MIN_SESSION_SECONDS} to ${MAX_SESSION_SECONDS}`,
      keyword: 'range',
    });
  }
  const scope = await checkSessionScope(connector, environmentId, input);
  const { token, tokenHash } = newSessionToken();
  const rec = await connector.store.createMcpSession({
    environmentId,
    identifier: scope.identifier,
    tokenHash,
    connections: scope.connections === null ? null : [...scope.connections],
    tools: scope.tools === null ? null : [...scope.tools],
    readOnly: scope.readOnly,
    mode: scope.mode,
    expiresAt: new Date(now + expiresIn * 1000).toISOString(),
  });
  return { ...sessionView(rec, connector.baseUrl, now), token };
}

export async function listMcpSessions(connector: Connector, environmentId: string, filter: { identifier?: string }, now: number): Promise<McpSessionView[]> {
  return (await connector.store.listMcpSessions(environmentId, filter)).map((rec) => sessionView(rec, connector.baseUrl, now));
}

export async function revokeMcpSession(connector: Connector, environmentId: string, id: string, now: number): Promise<McpSessionView> {
  const rec = await connector.store.revokeMcpSession(environmentId, id, new Date(now).toISOString());
  if (rec === null) throw new ConnectorError('not_found', `No MCP session ${JSON.stringify(id.slice(0, 100))} in this environment.`);
  return sessionView(rec, connector.baseUrl, now);
}

/** Why `/mcp` refused a bearer token; the message is safe to show (it never repeats the token). */
export type SessionRefusal = { ok: false; message: string };

/** The live session a `/mcp` bearer token names, or why it is refused. */
export async function authenticateSession(connector: Connector, token: string, now: number): Promise<{ ok: true; session: McpSessionRecord } | SessionRefusal> {
  if (!looksLikeSessionToken(token)) {
    return { ok: false, message: '/mcp takes an MCP session token (from POST /api/v1/mcp_sessions), not an application access token' };
  }
  const session = await connector.store.getMcpSessionByTokenHash(sessionTokenHash(token));
  if (session === null) return { ok: false, message: 'The MCP session token is unknown' };
  if (session.revokedAt !== null) return { ok: false, message: 'The MCP session was revoked' };
  if (Date.parse(session.expiresAt) <= now) return { ok: false, message: 'The MCP session expired; mint a new one' };
  return { ok: true, session };
}
