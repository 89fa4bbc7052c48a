/**
 * A second (third, ...) service process for the cross-process refresh tests: opens the same store, waits for "go"
 * on stdin, makes `calls` concurrent proxy calls, prints one JSON line with the statuses and error codes.
 * Run with `node --import tsx refresh-child.ts '<json config>'`.
 */
import { createInterface } from 'node:readline';
import { createConnector } from '../../../runtime/connector.js';
import { parseKeyring } from '../../../runtime/crypto/keyring.js';
import { openStore, type OpenStoreOptions } from '../../../runtime/store/open-store.js';
import { BASE_URL, ENV, loadDefinitions, TEST_KEYS } from '../connector-harness.js';

interface ChildConfig {
  storeOptions: Omit<OpenStoreOptions, 'keyring'>;
  connectionName: string;
  identifier: string;
  path: string;
  calls: number;
  leaseTtlMs?: number;
}

const config = JSON.parse(process.argv[2] as string) as ChildConfig;
const store = await openStore({ ...config.storeOptions, keyring: parseKeyring(TEST_KEYS) });
const connector = await createConnector({
  store,
  baseUrl: BASE_URL,
  definitions: await loadDefinitions(),
  http: { timeoutMs: 10_000, maxRetries: 0 },
  ...(config.leaseTtlMs === undefined ? {} : { refresh: { leaseTtlMs: config.leaseTtlMs } }),
});
const env = connector.environment(ENV);
process.stdout.write('ready\n');

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() !== 'go') continue;
  const outcomes = await Promise.all(
    Array.from({ length: config.calls }, () =>
      env.proxy({ connection_name: config.connectionName, identifier: config.identifier, method: 'GET', path: config.path }).then(
        (r) => String(r.status),
        (e: { code?: string }) => e.code ?? 'crash',
      ),
    ),
  );
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o] = (counts[o] ?? 0) + 1;
  process.stdout.write(`${JSON.stringify(counts)}\n`);
  break;
}
lines.close();
await connector.close();
await store.close();
