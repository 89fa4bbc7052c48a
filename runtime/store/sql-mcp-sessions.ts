/**
 * The `mcp_sessions` table: per-user MCP credentials minted by an application. The token is never stored, only its
 * SHA-256 (a 256-bit random value needs no stretching, and `/mcp` looks a session up on every request). Revocation
 * sets `revoked_at` rather than deleting, so a listing still shows what was revoked until the row expires and is
 * purged with the other expired records.
 */
import { newId } from './ids.js';
import { isoTime, normalizeTime, readJson, type Json, type Time } from './records.js';
import { mapWriteError, type SqlContext } from './sql-context.js';
import type { McpSessionMode, McpSessionRecord, NewMcpSession } from './types.js';

interface McpSessionRow {
  id: string;
  environment_id: string;
  identifier: string;
  token_hash: string;
  connections: Json | null;
  tools: Json | null;
  read_only: number | string;
  mode: string;
  expires_at: Time;
  revoked_at: Time | null;
  created_at: Time;
}

function toMcpSession(row: McpSessionRow): McpSessionRecord {
  return {
    id: row.id,
    environmentId: row.environment_id,
    identifier: row.identifier,
    tokenHash: row.token_hash,
    connections: row.connections === null ? null : readJson<string[]>(row.connections),
    tools: row.tools === null ? null : readJson<string[]>(row.tools),
    readOnly: Number(row.read_only) === 1,
    mode: row.mode as McpSessionMode,
    expiresAt: isoTime(row.expires_at),
    revokedAt: row.revoked_at === null ? null : isoTime(row.revoked_at),
    createdAt: isoTime(row.created_at),
  };
}

export class SqlMcpSessions {
  constructor(private readonly ctx: SqlContext) {}

  async create(input: NewMcpSession): Promise<McpSessionRecord> {
    const rec: McpSessionRecord = {
      ...input,
      id: newId('mcps'),
      connections: input.connections === null ? null : [...input.connections],
      tools: input.tools === null ? null : [...input.tools],
      expiresAt: normalizeTime(input.expiresAt),
      revokedAt: null,
      createdAt: new Date().toISOString(),
    };
    try {
      await this.ctx.db.run(
        `INSERT INTO mcp_sessions (id, environment_id, identifier, token_hash, connections, tools, read_only, mode, expires_at, revoked_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)`,
        [
          rec.id,
          rec.environmentId,
          rec.identifier,
          rec.tokenHash,
          rec.connections === null ? null : JSON.stringify(rec.connections),
          rec.tools === null ? null : JSON.stringify(rec.tools),
          rec.readOnly ? 1 : 0,
          rec.mode,
          rec.expiresAt,
          rec.createdAt,
        ],
      );
    } catch (err) {
      throw mapWriteError(err, 'MCP session', input.environmentId);
    }
    return rec;
  }

  async getByTokenHash(tokenHash: string): Promise<McpSessionRecord | null> {
    const row = await this.ctx.db.get<McpSessionRow>('SELECT * FROM mcp_sessions WHERE token_hash = ?', [tokenHash]);
    return row ? toMcpSession(row) : null;
  }

  async get(environmentId: string, id: string): Promise<McpSessionRecord | null> {
    const row = await this.ctx.db.get<McpSessionRow>('SELECT * FROM mcp_sessions WHERE environment_id = ? AND id = ?', [environmentId, id]);
    return row ? toMcpSession(row) : null;
  }

  async list(environmentId: string, filter: { identifier?: string } = {}): Promise<McpSessionRecord[]> {
    const rows =
      filter.identifier === undefined
        ? await this.ctx.db.all<McpSessionRow>('SELECT * FROM mcp_sessions WHERE environment_id = ? ORDER BY created_at DESC, id', [environmentId])
        : await this.ctx.db.all<McpSessionRow>('SELECT * FROM mcp_sessions WHERE environment_id = ? AND identifier = ? ORDER BY created_at DESC, id', [
            environmentId,
            filter.identifier,
          ]);
    return rows.map(toMcpSession);
  }

  /** COALESCE keeps the first revocation time; RETURNING reads the row as stored in the same statement. */
  async revoke(environmentId: string, id: string, at: string = new Date().toISOString()): Promise<McpSessionRecord | null> {
    const row = await this.ctx.db.get<McpSessionRow>(
      'UPDATE mcp_sessions SET revoked_at = COALESCE(revoked_at, ?) WHERE environment_id = ? AND id = ? RETURNING *',
      [normalizeTime(at), environmentId, id],
    );
    return row ? toMcpSession(row) : null;
  }

  async purgeExpired(cutoff: string): Promise<number> {
    return this.ctx.db.run('DELETE FROM mcp_sessions WHERE expires_at < ?', [cutoff]);
  }
}
