/**
 * The `connections` table: an application's OAuth client for one connector, its client secret sealed with AAD
 * `connections|<id>|client_secret`. Names are unique per environment (a unique index), and a taken name is a
 * `conflict` that points at `/name`.
 */
import { secretAad } from '../crypto/secret-box.js';
import { newId } from './ids.js';
import { toConnection, type AccountRow, type ConnectionRow } from './records.js';
import { appendAccountEvent } from './sql-events.js';
import { mapWriteError, type SqlContext } from './sql-context.js';
import type { SqlValue } from './sql-driver.js';
import type { ConnectionPatch, ConnectionRecord, NewConnection } from './types.js';

/** The `/name` violation of a name another connection of the environment already has. */
function nameTaken(name: string): { pointer: string; message: string } {
  return { pointer: '/name', message: `name "${name}" is already used by another connection in this environment` };
}

export class SqlConnections {
  constructor(private readonly ctx: SqlContext) {}

  async create(input: NewConnection): Promise<ConnectionRecord> {
    const id = newId('conn');
    const now = new Date().toISOString();
    const rec: ConnectionRecord = {
      id,
      environmentId: input.environmentId,
      name: input.name,
      connector: input.connector,
      clientId: input.clientId,
      clientSecret: input.clientSecret,
      scopes: [...input.scopes],
      overrides: { ...(input.overrides ?? {}) },
      allowedRedirectUrls: [...(input.allowedRedirectUrls ?? [])],
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.ctx.db.run(
        `INSERT INTO connections (id, environment_id, name, connector, client_id, client_secret, scopes, overrides,
           allowed_redirect_urls, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          id,
          rec.environmentId,
          rec.name,
          rec.connector,
          rec.clientId,
          this.ctx.box.seal(rec.clientSecret, secretAad('connections', id, 'client_secret')),
          JSON.stringify(rec.scopes),
          JSON.stringify(rec.overrides),
          JSON.stringify(rec.allowedRedirectUrls),
          now,
          now,
        ],
      );
    } catch (err) {
      throw mapWriteError(err, `connection "${input.name}"`, input.environmentId, nameTaken(input.name));
    }
    return rec;
  }

  async get(environmentId: string, id: string): Promise<ConnectionRecord | null> {
    const row = await this.ctx.db.get<ConnectionRow>('SELECT * FROM connections WHERE id = ? AND environment_id = ?', [id, environmentId]);
    return row ? toConnection(row, this.ctx.box) : null;
  }

  async getById(id: string): Promise<ConnectionRecord | null> {
    const row = await this.ctx.db.get<ConnectionRow>('SELECT * FROM connections WHERE id = ?', [id]);
    return row ? toConnection(row, this.ctx.box) : null;
  }

  async getByName(environmentId: string, name: string): Promise<ConnectionRecord | null> {
    const row = await this.ctx.db.get<ConnectionRow>('SELECT * FROM connections WHERE environment_id = ? AND name = ?', [environmentId, name]);
    return row ? toConnection(row, this.ctx.box) : null;
  }

  async list(environmentId: string): Promise<ConnectionRecord[]> {
    const rows = await this.ctx.db.all<ConnectionRow>('SELECT * FROM connections WHERE environment_id = ? ORDER BY created_at, id', [environmentId]);
    return rows.map((r) => toConnection(r, this.ctx.box));
  }

  async update(environmentId: string, id: string, patch: ConnectionPatch): Promise<ConnectionRecord | null> {
    // Column names come from this fixed list, never from the caller.
    const sets: string[] = [];
    const params: SqlValue[] = [];
    const set = (column: string, value: SqlValue) => {
      sets.push(`${column} = ?`);
      params.push(value);
    };
    if (patch.name !== undefined) set('name', patch.name);
    if (patch.clientId !== undefined) set('client_id', patch.clientId);
    if (patch.clientSecret !== undefined) set('client_secret', this.ctx.box.seal(patch.clientSecret, secretAad('connections', id, 'client_secret')));
    if (patch.scopes !== undefined) set('scopes', JSON.stringify(patch.scopes));
    if (patch.overrides !== undefined) set('overrides', JSON.stringify(patch.overrides));
    if (patch.allowedRedirectUrls !== undefined) set('allowed_redirect_urls', JSON.stringify(patch.allowedRedirectUrls));
    set('updated_at', new Date().toISOString());
    try {
      const row = await this.ctx.db.get<ConnectionRow>(
        `UPDATE connections SET ${sets.join(', ')} WHERE id = ? AND environment_id = ? RETURNING *`,
        [...params, id, environmentId],
      );
      return row ? toConnection(row, this.ctx.box) : null;
    } catch (err) {
      throw mapWriteError(err, `connection "${patch.name ?? id}"`, environmentId, patch.name === undefined ? undefined : nameTaken(patch.name));
    }
  }

  async delete(environmentId: string, id: string): Promise<boolean> {
    return this.ctx.db.transaction(async (tx) => {
      // Every account that held tokens is disconnected by the deletion: say so, in the same transaction.
      const connected = await tx.all<AccountRow>(
        'SELECT * FROM connected_accounts WHERE connection_id = ? AND environment_id = ? AND access_token IS NOT NULL ORDER BY created_at, id',
        [id, environmentId],
      );
      for (const account of connected) {
        await appendAccountEvent(tx, { ...account, status: 'DISCONNECTED', status_reason: 'connection_deleted' }, { type: 'account.disconnected' });
      }
      // ON DELETE CASCADE removes the accounts (and with them their tokens), links and pending states.
      return (await tx.run('DELETE FROM connections WHERE id = ? AND environment_id = ?', [id, environmentId])) > 0;
    });
  }
}
