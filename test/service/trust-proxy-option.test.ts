import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connector } from '../../runtime/api.js';
import { createConnector } from '../../runtime/connector.js';
import { buildService, type ServiceOptions } from '../../runtime/service/build-service.js';

let connector: Connector;
const dataDir = mkdtempSync(join(tmpdir(), 'ac-trust-option-'));
beforeAll(async () => {
  connector = await createConnector({ baseUrl: 'http://127.0.0.1:1', dataDir, encryptionKeys: `k1:${randomBytes(32).toString('base64')}` });
});
afterAll(async () => {
  await connector?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The client address fastify derives for a request from 127.0.0.1 forwarded for 203.0.113.7, and the log lines. */
async function clientAddress(trustProxy: ServiceOptions['trustProxy']): Promise<{ ip: string; logs: string }> {
  let logs = '';
  const stream = new Writable({ write: (chunk, _enc, cb) => ((logs += String(chunk)), cb()) });
  const app = await buildService({ connector, trustProxy, logger: pino({ level: 'warn' }, stream) });
  app.get('/ip-probe', async (request) => ({ ip: request.ip }));
  const res = await app.inject({ method: 'GET', url: '/ip-probe', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.7' } });
  await app.close();
  return { ip: (res.json() as { ip: string }).ip, logs };
}

describe('ServiceOptions.trustProxy reaches fastify in all its forms', () => {
  it('an address list, a comma-separated string and true trust the loopback proxy', async () => {
    expect((await clientAddress(['127.0.0.1/8'])).ip).toBe('203.0.113.7');
    expect((await clientAddress('10.0.0.0/8, 127.0.0.1')).ip).toBe('203.0.113.7');
    expect((await clientAddress(true)).ip).toBe('203.0.113.7');
  });

  it('a list without the proxy, and the default, ignore X-Forwarded-For', async () => {
    expect((await clientAddress(['10.0.0.0/8'])).ip).toBe('127.0.0.1');
    expect((await clientAddress(undefined)).ip).toBe('127.0.0.1');
  });
});
