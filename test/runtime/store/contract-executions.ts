/** Contract, execution history: record, filter, page newest first by keyset, purge by age, tenancy. */
import { describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../../runtime/store/types.js';
import type { ContractContext } from './contract.js';

function execution(n: number, over: Partial<ExecutionRecord> = {}): ExecutionRecord {
  return {
    id: `exe_${String(n).padStart(3, '0')}`,
    environmentId: 'env_a',
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    kind: 'tool',
    connectionId: 'con_1',
    connectionName: 'calendar',
    identifier: 'user-1',
    operation: 'calendar_list_events',
    outcome: 'success',
    errorCode: null,
    errorMessage: null,
    upstreamStatus: 200,
    attempts: 1,
    durationMs: 12,
    input: null,
    ...over,
  };
}

export function executionsContract(ctx: ContractContext): void {
  describe('execution history', () => {
    it('records and lists newest first, every field as written', async () => {
      const a = execution(1);
      const b = execution(2, { kind: 'proxy', operation: 'GET /calendar/v3/users/me/calendarList', outcome: 'error', errorCode: 'upstream_error', errorMessage: 'The upstream API answered 503', upstreamStatus: 503, attempts: 3, input: { path: '/x', body: { n: 1 } } });
      const c = execution(3, { connectionId: null, connectionName: null, identifier: null, errorCode: 'invalid_input', errorMessage: 'Invalid input for calendar_list_events: max_results must be <= 250', outcome: 'error', upstreamStatus: null, attempts: 0 });
      await ctx.store.recordExecutions([a, b, c]);
      expect(await ctx.store.listExecutions('env_a', {}, { limit: 10 })).toEqual([c, b, a]);
      // A batch holding a known id is refused whole: the new record in it is not written either.
      await expect(ctx.store.recordExecutions([execution(7), a])).rejects.toThrow();
      expect(await ctx.store.listExecutions('env_a', {}, { limit: 10 })).toHaveLength(3);
      // More rows than one statement takes are written in several.
      await ctx.store.recordExecutions(Array.from({ length: 450 }, (_, i) => execution(100 + i, { id: `bulk_${i}`, environmentId: 'env_bulk' })));
      expect(await ctx.store.listExecutions('env_bulk', {}, { limit: 500 })).toHaveLength(450);
      expect(await ctx.store.purgeExecutions('2100-01-01T00:00:00.000Z')).toBe(453);
    });

    it('filters by each field and by time range, and keeps environments apart', async () => {
      await ctx.store.recordExecutions([execution(1)]);
      await ctx.store.recordExecutions([execution(2, { connectionName: 'crm', identifier: 'user-2', operation: 'crm_contact_get' })]);
      await ctx.store.recordExecutions([execution(3, { outcome: 'error', errorCode: 'reauthorization_required', upstreamStatus: 401 })]);
      await ctx.store.recordExecutions([execution(4, { environmentId: 'env_b' })]);
      const ids = async (filter: Parameters<typeof ctx.store.listExecutions>[1]) =>
        (await ctx.store.listExecutions('env_a', filter, { limit: 10 })).map((e) => e.id);
      expect(await ids({ connectionName: 'crm' })).toEqual(['exe_002']);
      expect(await ids({ identifier: 'user-1' })).toEqual(['exe_003', 'exe_001']);
      expect(await ids({ operation: 'crm_contact_get' })).toEqual(['exe_002']);
      expect(await ids({ outcome: 'error' })).toEqual(['exe_003']);
      expect(await ids({ errorCode: 'reauthorization_required' })).toEqual(['exe_003']);
      expect(await ids({ since: execution(2).startedAt, until: execution(3).startedAt })).toEqual(['exe_002']);
      expect((await ctx.store.listExecutions('env_b', {}, { limit: 10 })).map((e) => e.id)).toEqual(['exe_004']);
    });

    it('pages by keyset before an execution: ties on startedAt broken by id, filters kept, newer records shift no page', async () => {
      for (let n = 1; n <= 5; n++) await ctx.store.recordExecutions([execution(n)]);
      // Two records in the same millisecond are ordered by id, so no page skips or repeats either.
      await ctx.store.recordExecutions([execution(5, { id: 'exe_005b' })]);
      await ctx.store.recordExecutions([execution(2, { id: 'exe_002b', identifier: 'user-2' })]);
      const ids = (page: ExecutionRecord[]) => page.map((e) => e.id);
      const first = await ctx.store.listExecutions('env_a', {}, { limit: 4 });
      expect(ids(first)).toEqual(['exe_005b', 'exe_005', 'exe_004', 'exe_003']);
      // A record written meanwhile is newer than every page read: the pages before a key do not move.
      await ctx.store.recordExecutions([execution(9)]);
      const key = (e: ExecutionRecord) => ({ startedAt: e.startedAt, id: e.id });
      const second = await ctx.store.listExecutions('env_a', {}, { limit: 4, before: key(first[3]!) });
      expect(ids(second)).toEqual(['exe_002b', 'exe_002', 'exe_001']);
      // Within a tie: after its first id, the rest of the tie, then older rows.
      expect(ids(await ctx.store.listExecutions('env_a', {}, { limit: 2, before: key(first[0]!) }))).toEqual(['exe_005', 'exe_004']);
      expect(ids(await ctx.store.listExecutions('env_a', {}, { limit: 10, before: key(second[0]!) }))).toEqual(['exe_002', 'exe_001']);
      // The key alone places the page (its row need not exist), in any ISO form of its time; the filter still applies.
      const gone = { startedAt: '2026-01-01T01:00:03+01:00', id: 'exe_003a' };
      expect(ids(await ctx.store.listExecutions('env_a', {}, { limit: 10, before: gone }))).toEqual(['exe_003', 'exe_002b', 'exe_002', 'exe_001']);
      expect(ids(await ctx.store.listExecutions('env_a', { identifier: 'user-1' }, { limit: 10, before: gone }))).toEqual(['exe_003', 'exe_002', 'exe_001']);
      expect(await ctx.store.listExecutions('env_a', {}, { limit: 10, before: key(second[2]!) })).toEqual([]);
    });

    it('gets one record by id, every field as written, within its environment only', async () => {
      const tool = execution(1, { input: { email: '[redacted]', nested: { n: 1, list: ['a', null] } } });
      const proxy = execution(2, { kind: 'proxy', operation: 'GET /crm/v3/objects/contacts/{}', outcome: 'error', errorCode: 'upstream_error', errorMessage: 'The upstream API answered 503', upstreamStatus: 503, attempts: 3 });
      // A message as long as the tracker keeps, with quotes, a newline and characters outside ASCII, comes back as written.
      const message = `Invalid input for calendar_create_event: start_datetime: "2026-13-01" is not a date-time, expected e.g. "2026-12-01T10:00:00+01:00"; summary: ‘Réunion’ ☕\n${'x'.repeat(1_900)}…`;
      const bare = execution(3, { connectionId: null, connectionName: null, identifier: null, outcome: 'error', errorCode: 'invalid_input', errorMessage: message, upstreamStatus: null, attempts: 0 });
      const other = execution(4, { environmentId: 'env_b' });
      await ctx.store.recordExecutions([tool, proxy, bare, other]);
      expect(await ctx.store.getExecution('env_a', tool.id)).toEqual(tool);
      expect(await ctx.store.getExecution('env_a', proxy.id)).toEqual(proxy);
      expect(await ctx.store.getExecution('env_a', bare.id)).toEqual(bare);
      // The same record as the list gives.
      expect((await ctx.store.listExecutions('env_a', {}, { limit: 10 })).find((e) => e.id === proxy.id)).toEqual(await ctx.store.getExecution('env_a', proxy.id));
      // Another environment's id is null, in either direction; so is an id no record has.
      expect(await ctx.store.getExecution('env_a', other.id)).toBeNull();
      expect(await ctx.store.getExecution('env_b', tool.id)).toBeNull();
      expect(await ctx.store.getExecution('env_b', other.id)).toEqual(other);
      expect(await ctx.store.getExecution('env_a', 'exe_999')).toBeNull();
      expect(await ctx.store.getExecution('env_missing', tool.id)).toBeNull();
      // Purged is gone.
      await ctx.store.purgeExecutions(execution(2).startedAt);
      expect(await ctx.store.getExecution('env_a', tool.id)).toBeNull();
      expect(await ctx.store.getExecution('env_a', proxy.id)).toEqual(proxy);
    });

    it('reads a record written before the error message was kept (migration 11) with no message', async () => {
      await ctx.db.query(
        `INSERT INTO executions (id, environment_id, started_at, kind, connection_id, connection_name, identifier, operation, outcome, error_code, upstream_status, attempts, duration_ms, input)
         VALUES ('exe_old', 'env_a', '${execution(1).startedAt}', 'tool', NULL, NULL, 'user-1', 'calendar_list_events', 'error', 'invalid_input', NULL, 0, 3, NULL)`,
      );
      expect(await ctx.store.getExecution('env_a', 'exe_old')).toEqual(
        execution(1, { id: 'exe_old', connectionId: null, connectionName: null, outcome: 'error', errorCode: 'invalid_input', errorMessage: null, upstreamStatus: null, attempts: 0, durationMs: 3 }),
      );
    });

    it('purges records older than the cutoff only', async () => {
      for (let n = 1; n <= 4; n++) await ctx.store.recordExecutions([execution(n, { environmentId: n % 2 ? 'env_a' : 'env_b' })]);
      expect(await ctx.store.purgeExecutions(execution(3).startedAt)).toBe(2);
      expect((await ctx.store.listExecutions('env_a', {}, { limit: 10 })).map((e) => e.id)).toEqual(['exe_003']);
      expect((await ctx.store.listExecutions('env_b', {}, { limit: 10 })).map((e) => e.id)).toEqual(['exe_004']);
    });
  });
}
