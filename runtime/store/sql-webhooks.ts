/**
 * Webhook endpoints (`webhook_endpoints`, secrets sealed with AAD `webhook_endpoints|<id>|secret` and
 * `|previous_secret`) and the delivery side of the outbox: claiming due deliveries for one attempt, logging each
 * attempt (`webhook_attempts`) and moving the delivery on.
 *
 * Claims are leases: `lease_owner`/`lease_until` on the delivery row, taken by one conditional UPDATE. On PostgreSQL
 * the candidate rows are picked `FOR UPDATE SKIP LOCKED`, so instances claiming at the same moment take disjoint
 * rows instead of queueing on each other; SQLite has one writer at a time, which serializes claims by itself.
 * @see https://www.postgresql.org/docs/current/sql-select.html#SQL-FOR-UPDATE-SHARE
 */
import { secretAad } from '../crypto/secret-box.js';
import type { AccountEventType } from '../webhooks/event-types.js';
import { newId } from './ids.js';
import { isoTime, normalizeTime, readJson, type Json, type Time } from './records.js';
import { mapWriteError, type SqlContext } from './sql-context.js';
import type { SqlValue } from './sql-driver.js';
import { toAccountEvent, type AccountEventRow } from './sql-events.js';
import type {
  ClaimedDelivery,
  NewWebhookEndpoint,
  WebhookAttemptOutcome,
  WebhookAttemptRecord,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
  WebhookEndpointRecord,
} from './types.js';

interface EndpointRow {
  id: string; environment_id: string; url: string; events: Json | null; secret: string;
  previous_secret: string | null; previous_secret_expires_at: Time | null; created_at: Time; updated_at: Time;
}
interface DeliveryRow {
  id: string; environment_id: string; endpoint_id: string; event_id: string; event_type: string; status: string;
  attempts: number | string; next_attempt_at: Time | null; last_status_code: number | null; last_error: string | null;
  created_at: Time; updated_at: Time;
}
interface AttemptRow { id: string; delivery_id: string; attempted_at: Time; status_code: number | null; duration_ms: number | string; error: string | null }

/** How long an event is kept once nothing is left to deliver: the delivery log looks back this far. */
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** Longest error text kept per attempt: enough to say what went wrong, not a receiver's whole page. */
const MAX_ERROR_LENGTH = 500;
const DELIVERY_COLUMNS = `d.id, d.environment_id, d.endpoint_id, d.event_id, e.type AS event_type, d.status, d.attempts, d.next_attempt_at,
  d.last_status_code, d.last_error, d.created_at, d.updated_at`;

function toDelivery(row: DeliveryRow): WebhookDeliveryRecord {
  return {
    id: row.id,
    environmentId: row.environment_id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type as AccountEventType,
    status: row.status as WebhookDeliveryStatus,
    attempts: Number(row.attempts),
    nextAttemptAt: row.status === 'pending' && row.next_attempt_at !== null ? isoTime(row.next_attempt_at) : null,
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error,
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
  };
}

function toAttempt(row: AttemptRow): WebhookAttemptRecord {
  return {
    id: row.id,
    deliveryId: row.delivery_id,
    attemptedAt: isoTime(row.attempted_at),
    statusCode: row.status_code === null ? null : Number(row.status_code),
    durationMs: Number(row.duration_ms),
    error: row.error,
  };
}

export class SqlWebhooks {
  constructor(private readonly ctx: SqlContext) {}

  #seal(id: string, column: 'secret' | 'previous_secret', value: string): string {
    return this.ctx.box.seal(value, secretAad('webhook_endpoints', id, column));
  }

  #toEndpoint(row: EndpointRow): WebhookEndpointRecord {
    return {
      id: row.id,
      environmentId: row.environment_id,
      url: row.url,
      events: row.events === null ? null : readJson<AccountEventType[]>(row.events),
      secret: this.ctx.box.open(row.secret, secretAad('webhook_endpoints', row.id, 'secret')),
      previousSecret: row.previous_secret === null ? null : this.ctx.box.open(row.previous_secret, secretAad('webhook_endpoints', row.id, 'previous_secret')),
      previousSecretExpiresAt: row.previous_secret_expires_at === null ? null : isoTime(row.previous_secret_expires_at),
      createdAt: isoTime(row.created_at),
      updatedAt: isoTime(row.updated_at),
    };
  }

  async createEndpoint(input: NewWebhookEndpoint): Promise<WebhookEndpointRecord> {
    const id = newId('whep');
    const now = new Date().toISOString();
    try {
      const row = await this.ctx.db.get<EndpointRow>(
        `INSERT INTO webhook_endpoints (id, environment_id, url, events, secret, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        [id, input.environmentId, input.url, input.events === null ? null : JSON.stringify(input.events), this.#seal(id, 'secret', input.secret), now, now],
      );
      return this.#toEndpoint(row as EndpointRow);
    } catch (err) {
      throw mapWriteError(err, `webhook endpoint "${id}"`, input.environmentId);
    }
  }

  async listEndpoints(environmentId: string): Promise<WebhookEndpointRecord[]> {
    const rows = await this.ctx.db.all<EndpointRow>('SELECT * FROM webhook_endpoints WHERE environment_id = ? ORDER BY created_at, id', [environmentId]);
    return rows.map((r) => this.#toEndpoint(r));
  }

  async getEndpoint(environmentId: string, id: string): Promise<WebhookEndpointRecord | null> {
    const row = await this.ctx.db.get<EndpointRow>('SELECT * FROM webhook_endpoints WHERE id = ? AND environment_id = ?', [id, environmentId]);
    return row ? this.#toEndpoint(row) : null;
  }

  async rotateSecret(environmentId: string, id: string, secret: string, previousSecretExpiresAt: string): Promise<WebhookEndpointRecord | null> {
    return this.ctx.db.transaction(async (tx) => {
      const current = await tx.get<EndpointRow>('SELECT * FROM webhook_endpoints WHERE id = ? AND environment_id = ?', [id, environmentId]);
      if (current === undefined) return null;
      // The outgoing secret is re-sealed under its new column's AAD (a sealed value is bound to its column).
      const outgoing = this.ctx.box.open(current.secret, secretAad('webhook_endpoints', id, 'secret'));
      const row = await tx.get<EndpointRow>(
        `UPDATE webhook_endpoints SET secret = ?, previous_secret = ?, previous_secret_expires_at = ?, updated_at = ?
         WHERE id = ? AND environment_id = ? RETURNING *`,
        [this.#seal(id, 'secret', secret), this.#seal(id, 'previous_secret', outgoing), normalizeTime(previousSecretExpiresAt), new Date().toISOString(), id, environmentId],
      );
      return row ? this.#toEndpoint(row) : null;
    });
  }

  async deleteEndpoint(environmentId: string, id: string): Promise<boolean> {
    return (await this.ctx.db.run('DELETE FROM webhook_endpoints WHERE id = ? AND environment_id = ?', [id, environmentId])) > 0;
  }

  async claim(opts: { owner: string; now: string; leaseMs: number; limit: number }): Promise<ClaimedDelivery[]> {
    const now = normalizeTime(opts.now);
    const until = new Date(Date.parse(now) + Math.max(0, Math.floor(opts.leaseMs))).toISOString();
    const limit = Math.max(1, Math.floor(opts.limit));
    const skipLocked = this.ctx.kind === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : '';
    // Leases and due times are judged by the caller's clock (`now`), which tests move; instances on several hosts need
    // clocks within a lease (the dispatcher's default is 40 s) of each other, or a lapsed-looking claim could be taken
    // over while its attempt is still running. NTP keeps hosts far closer than that.
    // The candidates are picked once, in a materialized CTE: PostgreSQL may evaluate an `IN (SELECT ... LIMIT n FOR
    // UPDATE)` subquery more than once and so claim more than n rows. The outer conditions repeat the pick's, so a
    // row claimed by someone else in between is not taken over.
    const claimed = await this.ctx.db.all<{ id: string }>(
      `WITH picked AS MATERIALIZED (
         SELECT id FROM webhook_deliveries
         WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)
         ORDER BY next_attempt_at, id LIMIT ${limit} ${skipLocked}
       )
       UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ?
       WHERE id IN (SELECT id FROM picked) AND status = 'pending' AND (lease_until IS NULL OR lease_until < ?)
       RETURNING id`,
      [now, now, opts.owner, until, now],
    );
    if (claimed.length === 0) return [];
    const marks = claimed.map(() => '?').join(', ');
    const rows = await this.ctx.db.all<Record<string, unknown>>(
      `SELECT ${DELIVERY_COLUMNS}, d.lease_owner,
         e.id AS ev_id, e.environment_id AS ev_environment_id, e.account_id AS ev_account_id, e.type AS ev_type, e.payload AS ev_payload,
         e.created_at AS ev_created_at,
         w.id AS ep_id, w.environment_id AS ep_environment_id, w.url AS ep_url, w.events AS ep_events, w.secret AS ep_secret,
         w.previous_secret AS ep_previous_secret, w.previous_secret_expires_at AS ep_previous_secret_expires_at,
         w.created_at AS ep_created_at, w.updated_at AS ep_updated_at
       FROM webhook_deliveries d JOIN account_events e ON e.id = d.event_id JOIN webhook_endpoints w ON w.id = d.endpoint_id
       WHERE d.id IN (${marks}) AND d.lease_owner = ? ORDER BY d.next_attempt_at, d.id`,
      [...claimed.map((c) => c.id), opts.owner],
    );
    return rows.map((row) => {
      const pick = <T>(prefix: string): T =>
        Object.fromEntries(Object.entries(row).filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v])) as T;
      return { delivery: toDelivery(row as unknown as DeliveryRow), event: toAccountEvent(pick<AccountEventRow>('ev_')), endpoint: this.#toEndpoint(pick<EndpointRow>('ep_')) };
    });
  }

  async recordAttempt(deliveryId: string, owner: string, outcome: WebhookAttemptOutcome): Promise<boolean> {
    const error = outcome.error === null ? null : outcome.error.slice(0, MAX_ERROR_LENGTH);
    const attemptedAt = normalizeTime(outcome.attemptedAt);
    return this.ctx.db.transaction(async (tx) => {
      await tx.run('INSERT INTO webhook_attempts (id, delivery_id, attempted_at, status_code, duration_ms, error) VALUES (?, ?, ?, ?, ?, ?)', [
        newId('what'),
        deliveryId,
        attemptedAt,
        outcome.statusCode,
        Math.max(0, Math.round(outcome.durationMs)),
        error,
      ]);
      const next = outcome.next;
      const params: SqlValue[] = [
        next.status,
        next.status === 'pending' ? normalizeTime(next.nextAttemptAt) : null,
        outcome.statusCode,
        error,
        new Date().toISOString(),
        deliveryId,
        owner,
      ];
      const changed = await tx.run(
        `UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, next_attempt_at = ?, last_status_code = ?, last_error = ?,
           lease_owner = NULL, lease_until = NULL, updated_at = ? WHERE id = ? AND lease_owner = ?`,
        params,
      );
      return changed === 1;
    });
  }

  /**
   * Makes a delivery that is not delivered (pending, or failed after its 24 hours) due at `now`, for the dispatcher's
   * next poll: an operator's "send again now" once the receiver is fixed. Its attempts and log are kept, so a failed
   * attempt of it is scheduled as its count says (a failed delivery's next failure fails it again). A delivery being
   * attempted (a lease not yet lapsed) is left alone. Whether it was changed.
   */
  async retryDelivery(environmentId: string, id: string, now: string): Promise<boolean> {
    const at = normalizeTime(now);
    const changed = await this.ctx.db.run(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, updated_at = ?
         WHERE id = ? AND environment_id = ? AND status <> 'delivered' AND (lease_until IS NULL OR lease_until < ?)`,
      [at, new Date().toISOString(), id, environmentId, at],
    );
    return changed === 1;
  }

  /**
   * Deletes events older than {@link EVENT_RETENTION_MS} before `cutoff` with no delivery still pending (their
   * deliveries and attempts go with them, by cascade). Returns how many events were removed.
   */
  async purge(cutoff: string): Promise<number> {
    const oldest = new Date(Date.parse(normalizeTime(cutoff)) - EVENT_RETENTION_MS).toISOString();
    return this.ctx.db.run(
      `DELETE FROM account_events WHERE created_at < ?
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = account_events.id AND d.status = 'pending')`,
      [oldest],
    );
  }

  async listDeliveries(environmentId: string, filter: WebhookDeliveryFilter = {}): Promise<WebhookDeliveryRecord[]> {
    const where = ['d.environment_id = ?'];
    const params: SqlValue[] = [environmentId];
    if (filter.endpointId !== undefined) (where.push('d.endpoint_id = ?'), params.push(filter.endpointId));
    if (filter.status !== undefined) (where.push('d.status = ?'), params.push(filter.status));
    if (filter.before !== undefined) {
      // Before (created_at, id) in list order, as one row-value comparison, as the account and execution lists do:
      // both databases search the (environment_id, created_at, id) index backwards from that key, so a page costs its
      // own rows however deep it is.
      where.push('(d.created_at, d.id) < (?, ?)');
      params.push(normalizeTime(filter.before.createdAt), filter.before.id);
    }
    params.push(Math.max(1, Math.floor(filter.limit ?? 50)));
    const rows = await this.ctx.db.all<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN account_events e ON e.id = d.event_id
       WHERE ${where.join(' AND ')} ORDER BY d.created_at DESC, d.id DESC LIMIT ?`,
      params,
    );
    return rows.map(toDelivery);
  }

  async getDelivery(environmentId: string, id: string): Promise<WebhookDeliveryRecord | null> {
    const row = await this.ctx.db.get<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN account_events e ON e.id = d.event_id WHERE d.id = ? AND d.environment_id = ?`,
      [id, environmentId],
    );
    return row ? toDelivery(row) : null;
  }

  async listAttempts(environmentId: string, deliveryId: string): Promise<WebhookAttemptRecord[]> {
    const rows = await this.ctx.db.all<AttemptRow>(
      `SELECT a.* FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
       WHERE a.delivery_id = ? AND d.environment_id = ? ORDER BY a.attempted_at, a.id`,
      [deliveryId, environmentId],
    );
    return rows.map(toAttempt);
  }
}
