/**
 * The `connections` table: an application's OAuth client for one connector, its client secret sealed with AAD
 * `connections|<id>|client_secret`. Names are unique per environment (a unique index), and a taken name is a
 * `conflict` that points at `/name`.
 *
 * Records are read without the secret column; `credentials` alone reads and opens it, so that a lookup or a list
 * decrypts nothing, and one secret that cannot be decrypted fails only the token requests of its own connection.
 */
import { ConnectorError } from '../errors.js';
import { SecretDecryptError, secretAad } from '../crypto/secret-box.js';
import { newId } from './ids.js';
import { toConnection, type AccountRow, type ConnectionRow } from './records.js';
import { appendAccountEvent } from './sql-events.js';
import { mapWriteError, type SqlContext } from './sql-context.js';
import type { SqlValue } from './sql-driver.js';
import type { ClientCredentials, ConnectionPatch, ConnectionRecord, NewConnection } from './types.js';

/** Every column of {@link ConnectionRow} (all but the sealed client secret), for the reads and RETURNING clauses. */
const COLUMNS = 'id, environment_id, name, connector, client_id, scopes, overrides, allowed_redirect_urls, created_at, updated_at';

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
          this.ctx.box.seal(input.clientSecret, secretAad('connections', id, 'client_secret')),
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
    const row = await this.ctx.db.get<ConnectionRow>(`SELECT ${COLUMNS} FROM connections WHERE id = ? AND environment_id = ?`, [id, environmentId]);
    return row ? toConnection(row) : null;
  }

  async getByName(environmentId: string, name: string): Promise<ConnectionRecord | null> {
    const row = await this.ctx.db.get<ConnectionRow>(`SELECT ${COLUMNS} FROM connections WHERE environment_id = ? AND name = ?`, [environmentId, name]);
    return row ? toConnection(row) : null;
  }

  async list(environmentId: string): Promise<ConnectionRecord[]> {
    const rows = await this.ctx.db.all<ConnectionRow>(`SELECT ${COLUMNS} FROM connections WHERE environment_id = ? ORDER BY created_at, id`, [environmentId]);
    return rows.map(toConnection);
  }

  async credentials(environmentId: string, id: string): Promise<ClientCredentials | null> {
    const row = await this.ctx.db.get<{ name: string; client_id: string; client_secret: string }>(
      'SELECT name, client_id, client_secret FROM connections WHERE id = ? AND environment_id = ?',
      [id, environmentId],
    );
    if (row === undefined) return null;
    try {
      return { clientId: row.client_id, clientSecret: this.ctx.box.open(row.client_secret, secretAad('connections', id, 'client_secret')) };
    } catch (error) {
      if (!(error instanceof SecretDecryptError)) throw error;
      const name = JSON.stringify(row.name);
      throw new ConnectorError(
        'invalid_request',
        `The client secret of connection ${name} cannot be decrypted (damaged, or sealed with a key no longer in AGENT_CONNECTOR_ENCRYPTION_KEY); set it again by updating the connection's client_secret.`,
        { details: { connection: row.name, reason: 'client_secret_undecryptable' }, cause: error },
      );
    }
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
        `UPDATE connections SET ${sets.join(', ')} WHERE id = ? AND environment_id = ? RETURNING ${COLUMNS}`,
        [...params, id, environmentId],
      );
      return row ? toConnection(row) : null;
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
