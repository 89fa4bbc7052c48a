/**
 * The account events outbox (`account_events`), appended inside the transaction of the account change an event
 * reports, and fanned out there and then into one `webhook_deliveries` row per endpoint subscribed to its type. A
 * process killed at any point therefore leaves the change and its deliveries together, or neither.
 */
import type { AccountEventDraft, AccountEventType } from '../webhooks/event-types.js';
import { newId } from './ids.js';
import { isoTime, readJson, type AccountRow, type Json, type Time } from './records.js';
import type { SqlQueries } from './sql-driver.js';
import type { AccountEventRecord } from './types.js';

export interface AccountEventRow {
  id: string;
  environment_id: string;
  account_id: string;
  type: string;
  payload: string;
  created_at: Time;
}

export function toAccountEvent(row: AccountEventRow): AccountEventRecord {
  return {
    id: row.id,
    environmentId: row.environment_id,
    accountId: row.account_id,
    type: row.type as AccountEventType,
    payload: row.payload,
    createdAt: isoTime(row.created_at),
  };
}

/** Whether an endpoint's `events` column (null: every type) includes `type`. */
export function subscribes(events: Json | null, type: AccountEventType): boolean {
  return events === null || readJson<string[]>(events).includes(type);
}

/**
 * Appends `draft` about the account as `account` now stands (the row as written by the change), with a delivery for
 * each subscribed endpoint of its environment. Returns null when an event with the same dedupe key exists.
 *
 * The payload follows the Standard Webhooks shape (`type`, `timestamp`, `data`) and is stored as the exact text
 * every delivery sends and signs, so retries carry byte-identical bodies.
 * @see https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md#payload-structure
 */
export async function appendAccountEvent(
  tx: SqlQueries,
  account: Pick<AccountRow, 'id' | 'environment_id' | 'connection_id' | 'identifier' | 'status' | 'status_reason'>,
  draft: AccountEventDraft,
): Promise<AccountEventRecord | null> {
  const connection = await tx.get<{ name: string; connector: string }>('SELECT name, connector FROM connections WHERE id = ?', [account.connection_id]);
  const id = newId('evt');
  const createdAt = new Date().toISOString();
  const data = {
    ...draft.details,
    // The account's own facts win over any detail of the same name.
    account_id: account.id,
    environment_id: account.environment_id,
    identifier: account.identifier,
    connection_id: account.connection_id,
    connection_name: connection?.name ?? null,
    connector: connection?.connector ?? null,
    status: account.status,
    status_reason: account.status_reason,
  };
  const payload = JSON.stringify({ type: draft.type, timestamp: createdAt, data });
  const inserted = await tx.run(
    `INSERT INTO account_events (id, environment_id, account_id, type, payload, dedupe_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (dedupe_key) DO NOTHING`,
    [id, account.environment_id, account.id, draft.type, payload, draft.dedupeKey ?? null, createdAt],
  );
  if (inserted === 0) return null;
  const endpoints = await tx.all<{ id: string; events: Json | null }>('SELECT id, events FROM webhook_endpoints WHERE environment_id = ?', [
    account.environment_id,
  ]);
  for (const endpoint of endpoints) {
    if (!subscribes(endpoint.events, draft.type)) continue;
    await tx.run(
      `INSERT INTO webhook_deliveries (id, environment_id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
      [newId('whdl'), account.environment_id, endpoint.id, id, createdAt, createdAt, createdAt],
    );
  }
  return { id, environmentId: account.environment_id, accountId: account.id, type: draft.type, payload, createdAt };
}
