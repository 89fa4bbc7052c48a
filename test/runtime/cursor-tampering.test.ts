/**
 * A paging cursor is a position, not a grant: what a page holds is decided by the environment of the caller's scope
 * and the filters of its query, never by the cursor. A client that forges one (the key of another environment's row,
 * digests of filters it does not send) reads only rows it could read from the first page with its own query.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuid7 } from 'uuid';
import { expect, it } from 'vitest';
import { createConnector } from '../../runtime/connector.js';
import { encodeCursor } from '../../runtime/store/keyset-cursor.js';
import type { ExecutionRecord } from '../../runtime/store/types.js';
import { TEST_KEYS } from './connector-harness.js';

function execution(environmentId: string, second: number, identifier: string): ExecutionRecord {
  return {
    id: uuid7({ msecs: Date.UTC(2026, 0, 1, 0, 0, second) }),
    environmentId,
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
    kind: 'tool',
    connectionId: null,
    connectionName: 'crm',
    identifier,
    operation: 'crm_contacts_list',
    outcome: 'success',
    errorCode: null,
    errorMessage: null,
    upstreamStatus: 200,
    attempts: 1,
    durationMs: 1,
    input: null,
  };
}

it('a forged cursor crosses no environment and skips no filter', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ac-cursor-'));
  try {
    const connector = await createConnector({ baseUrl: 'http://localhost:1/', dataDir, encryptionKeys: TEST_KEYS });
    for (const id of ['env_a', 'env_b']) await connector.store.createEnvironment({ id, name: id });
    const a = [1, 2, 3].map((s) => execution('env_a', s, s === 2 ? 'other' : 'ana'));
    const b = [4, 5].map((s) => execution('env_b', s, 'ana'));
    await connector.store.recordExecutions([...a, ...b]);
    const envA = connector.environment('env_a');
    // The key of env_b's newest row, bound to the filter the query sends: env_a's rows before it, none of env_b's.
    const intoB = encodeCursor({ time: b[1]!.startedAt, id: b[1]!.id }, { identifier: 'ana' });
    expect((await envA.listExecutions({ identifier: 'ana', cursor: intoB })).executions.map((e) => e.id)).toEqual([a[2]!.id, a[0]!.id]);
    // Digests forged for another filter than the page's: the query's filter is what holds.
    const refiltered = encodeCursor({ time: b[1]!.startedAt, id: b[1]!.id }, { identifier: 'other' });
    expect((await envA.listExecutions({ identifier: 'other', cursor: refiltered })).executions.map((e) => e.id)).toEqual([a[1]!.id]);
    await connector.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
