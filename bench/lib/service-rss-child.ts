/**
 * The service's resident memory with many connected accounts loaded, in a process of its own (the bench process has
 * run code generation and load generation by then, so its own RSS says nothing about the service).
 * Opens the given SQLite data directory, builds the runtime and the HTTP service on it, reads every account once
 * and then random ones, and prints one JSON line: `{"rssMiB": N, "heapUsedMiB": N}`.
 * Run with `node --import tsx service-rss-child.ts '<json config>'`.
 */
import { createConnector } from '../../runtime/connector.js';
import { parseKeyring } from '../../runtime/crypto/keyring.js';
import { buildService } from '../../runtime/service/build-service.js';
import { openStore } from '../../runtime/store/open-store.js';

const config = JSON.parse(process.argv[2] as string) as { dataDir: string; keys: string; connectionId: string; accounts: number };
const store = await openStore({ dataDir: config.dataDir, keyring: parseKeyring(config.keys) });
const connector = await createConnector({ store, baseUrl: 'http://127.0.0.1:0' });
const app = await buildService({ connector, logger: false, rateLimit: false });
await app.ready();
for (let i = 0; i < config.accounts; i++) await store.findAccount('env_bench', config.connectionId, `user-${i}`);
for (let i = 0; i < 20_000; i++) await store.findAccount('env_bench', config.connectionId, `user-${Math.floor(Math.random() * config.accounts)}`);
const mem = process.memoryUsage();
process.stdout.write(`${JSON.stringify({ rssMiB: mem.rss / 2 ** 20, heapUsedMiB: mem.heapUsed / 2 ** 20 })}\n`);
await app.close();
await connector.close();
await store.close();
