import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../../runtime/cli/io.js';
import { startCommand } from '../../runtime/cli/start-command.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function occupiedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

describe('agent-connector start on a port that is taken', () => {
  it('refuses as a usage error naming the address, before writing anything to the data directory', async () => {
    const port = await occupiedPort();
    const dataDir = mkdtempSync(join(tmpdir(), 'ac-port-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const out: string[] = [];
    const io: CliIo = { out: (t) => out.push(t), err: (t) => out.push(t), env: { PORT: String(port), HOST: '127.0.0.1', AGENT_CONNECTOR_DATA_DIR: dataDir } };
    await expect(startCommand(io)).rejects.toMatchObject({ name: 'UsageError', message: expect.stringContaining(`127.0.0.1:${port} is already in use`) });
    // No database, key files or development state: a running instance on this directory is left as it was, and no
    // first-start client secret was stored without being printed.
    expect(existsSync(dataDir) ? readdirSync(dataDir) : []).toEqual([]);
    expect(out.join('\n')).not.toMatch(/client secret/);
  });

  it('names HOST, not another process, when the address is not this machine\'s', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ac-port-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const io: CliIo = { out: () => {}, err: () => {}, env: { PORT: '4999', HOST: 'no-such-host.invalid', AGENT_CONNECTOR_DATA_DIR: dataDir } };
    await expect(startCommand(io)).rejects.toMatchObject({
      name: 'UsageError',
      message: expect.stringMatching(/^HOST=no-such-host\.invalid is not an address of this machine \((ENOTFOUND|EAI_AGAIN)\); set HOST to one of its addresses/),
    });
  });
});
