/**
 * The execution history table: one row per tool call or proxy request, written after the call has answered, read
 * one by id (within its environment) or listed newest first with keyset paging (a page starts below the key of the
 * last row seen, so pages stay stable while new rows arrive; the API layer turns that key into a cursor and back),
 * and deleted by age.
 */
import { isoTime, normalizeTime, readJson, type Json, type Time } from './records.js';
import type { SqlContext } from './sql-context.js';
import type { SqlValue } from './sql-driver.js';
import type { ExecutionFilter, ExecutionOutcome, ExecutionPage, ExecutionRecord } from './types.js';

interface ExecutionRow {
  id: string; environment_id: string; started_at: Time; kind: string; connection_id: string | null;
  connection_name: string | null; identifier: string | null; operation: string; outcome: string; error_code: string | null;
  error_message: string | null;
  upstream_status: number | string | null; attempts: number | string; duration_ms: number | string; input: Json | null;
}

function toExecution(row: ExecutionRow): ExecutionRecord {
  return {
    id: row.id,
    environmentId: row.environment_id,
    startedAt: isoTime(row.started_at),
    kind: row.kind as ExecutionRecord['kind'],
    connectionId: row.connection_id,
    connectionName: row.connection_name,
    identifier: row.identifier,
    operation: row.operation,
    outcome: row.outcome as ExecutionOutcome,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    upstreamStatus: row.upstream_status === null ? null : Number(row.upstream_status),
    attempts: Number(row.attempts),
    durationMs: Number(row.duration_ms),
    input: row.input === null ? null : readJson(row.input),
  };
}

export class SqlExecutions {
  constructor(private readonly ctx: SqlContext) {}

  /** Rows per INSERT: 15 parameters each, well under either database's limit on parameters per statement. */
  static readonly ROWS_PER_STATEMENT = 200;

  async record(recs: readonly ExecutionRecord[]): Promise<void> {
    for (let i = 0; i < recs.length; i += SqlExecutions.ROWS_PER_STATEMENT) {
      const chunk = recs.slice(i, i + SqlExecutions.ROWS_PER_STATEMENT);
      const params: SqlValue[] = [];
      for (const rec of chunk) {
        params.push(
          rec.id, rec.environmentId, normalizeTime(rec.startedAt), rec.kind, rec.connectionId, rec.connectionName, rec.identifier,
          rec.operation, rec.outcome, rec.errorCode, rec.errorMessage, rec.upstreamStatus, rec.attempts, Math.round(rec.durationMs),
          rec.input === null || rec.input === undefined ? null : JSON.stringify(rec.input),
        );
      }
      await this.ctx.db.run(
        `INSERT INTO executions (id, environment_id, started_at, kind, connection_id, connection_name, identifier, operation, outcome,
           error_code, error_message, upstream_status, attempts, duration_ms, input) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        params,
      );
    }
  }

  async list(environmentId: string, filter: ExecutionFilter, page: ExecutionPage): Promise<ExecutionRecord[]> {
    const where: string[] = ['environment_id = ?'];
    const params: SqlValue[] = [environmentId];
    const equal = (column: string, value: string | undefined) => {
      if (value === undefined) return;
      where.push(`${column} = ?`);
      params.push(value);
    };
    equal('connection_name', filter.connectionName);
    equal('identifier', filter.identifier);
    equal('operation', filter.operation);
    equal('outcome', filter.outcome);
    equal('error_code', filter.errorCode);
    if (filter.since !== undefined) {
      where.push('started_at >= ?');
      params.push(normalizeTime(filter.since));
    }
    if (filter.until !== undefined) {
      where.push('started_at < ?');
      params.push(normalizeTime(filter.until));
    }
    if (page.before !== undefined) {
      // Before (started_at, id) in list order, as one row-value comparison: both databases search the
      // (environment_id, started_at, id) index backwards from that key, so a page costs its own rows however deep it
      // is. The spelled-out `started_at < ? OR (started_at = ? AND id < ?)` reads past every newer row first.
      where.push('(started_at, id) < (?, ?)');
      params.push(normalizeTime(page.before.startedAt), page.before.id);
    }
    params.push(Math.max(1, Math.floor(page.limit)));
    const rows = await this.ctx.db.all<ExecutionRow>(
      `SELECT * FROM executions WHERE ${where.join(' AND ')} ORDER BY started_at DESC, id DESC LIMIT ?`,
      params,
    );
    return rows.map(toExecution);
  }

  /** By primary key, within the environment: another environment's id finds nothing. */
  async get(environmentId: string, id: string): Promise<ExecutionRecord | null> {
    const row = await this.ctx.db.get<ExecutionRow>('SELECT * FROM executions WHERE id = ? AND environment_id = ?', [id, environmentId]);
    return row === undefined ? null : toExecution(row);
  }

  purge(before: string): Promise<number> {
    return this.ctx.db.run('DELETE FROM executions WHERE started_at < ?', [normalizeTime(before)]);
  }
}
