/**
 * The `dashboard_form_sends` table: which of a dashboard session's one-time forms were sent, and what each did. A
 * form that acts (a webhook endpoint, a secret rotation, an authorization link, a tool run) carries a random token;
 * its first send claims the row and records the outcome, and the same form sent again (a reload of the page after
 * it, the Back button, a double click) finds the row instead of doing the work twice. In the store, not in a
 * process, so a re-send that reaches another instance finds it too.
 *
 * The row's id is the SHA-256 of the session id, the action, what it acts on and the token (once-forms.ts): the
 * session id, the subject and the token are not stored; the action is. The outcome is sealed
 * (`dashboard_form_sends|<id>|result`): an authorization link is a credential. A webhook secret is never put in it.
 */
import { isoTime, normalizeTime, type Time } from './records.js';
import type { SqlContext } from './sql-context.js';
import type { FormSendRecord, NewFormSend } from './types.js';

interface FormSendRow {
  id: string;
  environment_id: string;
  action: string;
  result: string | null;
  created_at: Time;
  expires_at: Time;
}

const aad = (id: string): string => `dashboard_form_sends|${id}|result`;

export class SqlFormSends {
  constructor(private readonly ctx: SqlContext) {}

  #toRecord(row: FormSendRow): FormSendRecord {
    return {
      id: row.id,
      environmentId: row.environment_id,
      action: row.action,
      result: row.result === null ? null : (JSON.parse(this.ctx.box.open(row.result, aad(row.id))) as Record<string, unknown>),
      createdAt: isoTime(row.created_at),
      expiresAt: isoTime(row.expires_at),
    };
  }

  /**
   * One statement decides between two sends of one form, on either database: the insert that takes the row answers
   * null; any later one reads the row the first made (its result null while the first is still at work).
   */
  async claim(input: NewFormSend): Promise<FormSendRecord | null> {
    const claimed = await this.ctx.db.get<{ id: string }>(
      `INSERT INTO dashboard_form_sends (id, environment_id, action, result, created_at, expires_at) VALUES (?, ?, ?, NULL, ?, ?)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [input.id, input.environmentId, input.action, new Date().toISOString(), normalizeTime(input.expiresAt)],
    );
    if (claimed !== undefined) return null;
    const row = await this.ctx.db.get<FormSendRow>('SELECT * FROM dashboard_form_sends WHERE id = ? AND environment_id = ?', [input.id, input.environmentId]);
    // Gone between the two statements (purged, or released by a send that failed): the next claim decides.
    return row ? this.#toRecord(row) : this.claim(input);
  }

  async finish(id: string, result: Record<string, unknown>): Promise<void> {
    await this.ctx.db.run('UPDATE dashboard_form_sends SET result = ? WHERE id = ?', [this.ctx.box.seal(JSON.stringify(result), aad(id)), id]);
  }

  /** A send that did nothing (refused, failed) gives its claim back: sending the form again tries again. */
  async release(id: string): Promise<void> {
    await this.ctx.db.run('DELETE FROM dashboard_form_sends WHERE id = ? AND result IS NULL', [id]);
  }

  async purgeExpired(cutoff: string): Promise<number> {
    return this.ctx.db.run('DELETE FROM dashboard_form_sends WHERE expires_at < ?', [cutoff]);
  }
}
