/**
 * AGENT_CONNECTOR_TRUST_PROXY reaches fastify: the credential rate limit on /oauth/token is keyed by the client
 * address, which comes from X-Forwarded-For only when the proxy is trusted.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../runtime/service/start.js';

const CREDENTIAL_BUDGET = 60; // buildService's default credential checks per client address per minute
const CLOCK = Date.parse('2026-11-22T12:00:00Z');

let service: RunningService | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await service?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  service = undefined;
  dataDir = undefined;
});

async function start(trustProxy: string | undefined): Promise<RunningService> {
  dataDir = mkdtempSync(join(tmpdir(), 'ac-trust-proxy-'));
  service = await startService({
    env: {
      PORT: '0',
      AGENT_CONNECTOR_SANDBOX: '0',
      AGENT_CONNECTOR_DATA_DIR: dataDir,
      AGENT_CONNECTOR_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}`,
      ...(trustProxy === undefined ? {} : { AGENT_CONNECTOR_TRUST_PROXY: trustProxy }),
    },
    logger: false,
    // A frozen clock: the budget never refills while the test spends it, so the counts below are exact.
    now: () => CLOCK,
  });
  return service;
}

/** Status of a token request with wrong credentials, as if forwarded for `forwardedFor` by a proxy on loopback. */
async function tokenRequest(running: RunningService, forwardedFor: string): Promise<number> {
  const res = await running.app.inject({
    method: 'POST',
    url: '/oauth/token',
    remoteAddress: '127.0.0.1',
    headers: { 'x-forwarded-for': forwardedFor, 'content-type': 'application/json' },
    payload: { grant_type: 'client_credentials', client_id: 'ac_nobody', client_secret: 'wrong' },
  });
  return res.statusCode;
}

/** Spends the address's whole budget: exactly CREDENTIAL_BUDGET answers before the first refusal. */
async function exhaust(running: RunningService, forwardedFor: string): Promise<void> {
  let answered = 0;
  while ((await tokenRequest(running, forwardedFor)) === 401) {
    answered += 1;
    if (answered > CREDENTIAL_BUDGET * 2) throw new Error('the credential rate limit never refused');
  }
  expect(answered).toBe(CREDENTIAL_BUDGET);
}

describe('AGENT_CONNECTOR_TRUST_PROXY', () => {
  it('trusting the loopback proxy: each forwarded client address has its own budget', async () => {
    const running = await start('127.0.0.1/8');
    await exhaust(running, '203.0.113.7');
    expect(await tokenRequest(running, '203.0.113.8')).toBe(401);
  });

  it('unset: X-Forwarded-For is ignored, every request counts against the proxy address', async () => {
    const running = await start(undefined);
    await exhaust(running, '203.0.113.7');
    expect(await tokenRequest(running, '203.0.113.8')).toBe(429);
  });
});
