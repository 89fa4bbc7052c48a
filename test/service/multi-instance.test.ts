/**
 * Several instances on one PostgreSQL behave as one: three service processes behind a round-robin front (a load
 * balancer stand-in), so each step of a flow lands on another instance. Application tokens, authorization links,
 * one refresh per storm, MCP sessions and revocations hold across them, and with REDIS_URL so does the
 * per-environment rate limit. Needs DATABASE_URL, and REDIS_URL for the rate limit (CI sets both); `postgresSuite`
 * and `redisSuite` (test/server-suites.ts) say what happens without them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../runtime/cli/consent.js';
import { createClient, type HttpClient } from '../../runtime/client/index.js';
import { startSandbox } from '../../sandbox/index.js';
import type { Sandbox } from '../../sandbox/types.js';
import { newPostgresDatabase, type TestDatabase } from '../runtime/store/harness.js';
import { postgresSuite, redisSuite } from '../server-suites.js';

/** With it the instances share their rate-limit counters through Redis; whether the test of that runs is `redisSuite`'s rule. */
const redisUrl = process.env.REDIS_URL;
/** The per-environment budget the instances share through Redis (the whole file stays well inside one minute). */
const RATE_LIMIT = 300;
/** A Redis database of this run's own, so counters from other tests or runs do not count here. */
const redisDb = 1 + Math.floor(Math.random() * 15);
const CHILD = fileURLToPath(new URL('./fixtures/instance-child.ts', import.meta.url));

/** A front that sends each request to the next instance in turn, as a round-robin load balancer does. */
async function startFront(): Promise<{ url: string; targets: string[]; hits: number[]; close(): Promise<void> }> {
  const targets: string[] = [];
  const hits: number[] = [];
  let next = 0;
  const server = http.createServer((req, res) => {
    const i = next++ % targets.length;
    hits[i] = (hits[i] ?? 0) + 1;
    const target = new URL(targets[i] as string);
    const out = http.request({ hostname: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    targets,
    hits,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

async function startInstance(env: NodeJS.ProcessEnv): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    proc.once('exit', (code) => reject(new Error(`instance exited ${code}: ${err.slice(-2000)}`)));
  });
  return { url, proc };
}

postgresSuite('three instances on one PostgreSQL', (databaseUrl) => {
  let db: TestDatabase;
  let sandbox: Sandbox;
  let front: Awaited<ReturnType<typeof startFront>>;
  const instances: ChildProcess[] = [];
  const dirs: string[] = [];
  let client: HttpClient;

  beforeAll(async () => {
    db = await newPostgresDatabase(databaseUrl);
    const schema = (db.options as { pgSchema: string }).pgSchema;
    // The instances find their tables through search_path (in DATABASE_URL), so the schema must exist first.
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await admin.end();
    sandbox = await startSandbox();
    front = await startFront();
    const shared = {
      ...process.env,
      DATABASE_URL: `${databaseUrl}${databaseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      AGENT_CONNECTOR_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}`,
      AGENT_CONNECTOR_TOKEN_SIGNING_KEY: randomBytes(32).toString('hex'),
      AGENT_CONNECTOR_BASE_URL: front.url,
      AGENT_CONNECTOR_CLIENT_ID: 'multi-app',
      AGENT_CONNECTOR_CLIENT_SECRET: 'multi-instance-secret-0123456789',
      HOST: '127.0.0.1',
      PORT: '0',
      ...(redisUrl ? { REDIS_URL: `${redisUrl.replace(/\/\d*$/, '')}/${redisDb}`, AGENT_CONNECTOR_RATE_LIMIT: String(RATE_LIMIT) } : {}),
    };
    if (redisUrl) {
      const { Redis } = await import('ioredis');
      const redis = new Redis(`${redisUrl.replace(/\/\d*$/, '')}/${redisDb}`);
      await redis.flushdb();
      redis.disconnect();
    }
    for (let i = 0; i < 3; i++) {
      const dir = mkdtempSync(join(tmpdir(), `ac-multi-${i}-`));
      dirs.push(dir);
      // One after another: the first migrates the schema.
      const started = await startInstance({ ...shared, AGENT_CONNECTOR_DATA_DIR: dir });
      instances.push(started.proc);
      front.targets.push(started.url);
    }
    client = createClient({ envUrl: front.url, clientId: 'multi-app', clientSecret: 'multi-instance-secret-0123456789' });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(instances.map((p) => new Promise<void>((resolve) => {
      p.once('exit', () => resolve());
      p.kill('SIGTERM');
    })));
    await front?.close();
    await sandbox?.close();
    await db?.destroy();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }, 60_000);

  it('serves one application through every instance: its token, a connection, a link opened and completed across them, one refresh per storm', async () => {
    const connection = await client.createConnection({ name: 'crm', connector: 'crm', client_id: 'multi-crm', client_secret: 'multi-crm-secret', overrides: sandbox.endpoints('crm') });
    sandbox.control.registerClient({ provider: 'hubspot', clientId: 'multi-crm', clientSecret: 'multi-crm-secret', redirectUris: [connection.redirect_uri] });
    expect(connection.redirect_uri.startsWith(front.url)).toBe(true);

    // Created on one instance, opened on the next, called back on a third.
    const { link } = await client.authorizationLink({ connection_name: 'crm', identifier: 'ana' });
    expect((await consentThroughSandbox(link, { user: 'ana@example.com' })).status).toBe(200);
    const [account] = await client.listAccounts({ identifier: 'ana' });
    expect(account?.status).toBe('ACTIVE');

    // A storm of calls over expired tokens, spread over the three instances: one refresh between them.
    sandbox.control.expireAccessTokens('hubspot');
    const before = sandbox.control.tokenRequestCount('hubspot', 'refresh_token');
    const results = await Promise.all(
      Array.from({ length: 30 }, () => client.executeTool({ tool_name: 'crm_contacts_list', identifier: 'ana', tool_input: { limit: 1 } })),
    );
    expect(results.every((r) => Array.isArray((r.data as { results: unknown[] }).results))).toBe(true);
    expect(sandbox.control.tokenRequestCount('hubspot', 'refresh_token') - before).toBe(1);
    expect(front.hits.every((n) => n > 5)).toBe(true);
  }, 60_000);

  it('an MCP session minted on one instance works on the others, and its revocation holds on all', async () => {
    const session = await client.createMcpSession({ identifier: 'ana' });
    const mcpUrl = new URL(session.url);
    const connect = async () => {
      const mcp = new McpClient({ name: 'multi-instance-test', version: '1.0.0' });
      await mcp.connect(new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers: { authorization: `Bearer ${session.token}` } } }));
      return mcp;
    };
    const mcp = await connect();
    // Each of these requests goes to another instance.
    for (let i = 0; i < 3; i++) expect((await mcp.listTools()).tools.map((t) => t.name)).toContain('crm_contacts_list');
    await mcp.close();

    await client.revokeMcpSession(session.id);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(mcpUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(res.status).toBe(401);
    }
  }, 60_000);

  redisSuite('with Redis', () => {
    it('shares one rate limit per environment between the instances (Redis), not one each', async () => {
      const tokenRes = await fetch(`${front.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'multi-app', client_secret: 'multi-instance-secret-0123456789' }),
      });
      const { access_token } = (await tokenRes.json()) as { access_token: string };
      const statuses: number[] = [];
      // Far fewer than three budgets, more than one: counters of their own would answer every one of these.
      for (let i = 0; i < RATE_LIMIT + 100; i++) {
        const res = await fetch(`${front.url}/api/v1/connections`, { headers: { authorization: `Bearer ${access_token}` } });
        statuses.push(res.status);
        await res.arrayBuffer();
      }
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
      expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(RATE_LIMIT);
    }, 60_000);
  });
});
