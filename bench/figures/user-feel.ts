/**
 * What users feel, and the limits they would hit first: the service against a bare node:http proxy in the same run,
 * both in front of the same upstream that answers after a fixed latency (100 ms, a real API's order of magnitude),
 * in a process of its own; load from another process. The service runs with the production logger
 * (`createServiceLogger`: JSON, redaction, one synchronous write per line, as to stdout, here to /dev/null); the tool call is `crm_contact_get` through `POST /api/v1/execute_tool`.
 *
 * - added_p99_ms_vs_bare_c100: service p99 minus bare p99 at 100 calls in flight (goal <= 5 ms);
 * - throughput_vs_bare_proxy_c1000: service over bare throughput at 1,000 calls in flight (goal >= 0.95);
 * - cpu_per_call_vs_bare_r1000: CPU per call over the bare proxy's at a fixed 1,000 calls/s (goal <= 1.3);
 * - many_users_vs_one_user_throughput_c1000: 20,000 identifiers over one, on PostgreSQL (goal >= 0.9);
 * - memory_per_inflight_call_vs_bare: resident memory per call in flight at 5,000 calls (goal <= 1.3);
 * - shed_load_ok: calls past the upstream bound get a prompt 503 with Retry-After and memory stays flat (goal 1).
 */
import { openSync, closeSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type { OpenStoreOptions } from '../../runtime/store/open-store.js';
import { buildService } from '../../runtime/service/build-service.js';
import { createServiceLogger } from '../../runtime/service/logging.js';
import { ensureAppClient } from '../../runtime/service/environments.js';
import { startHarness, ENV, PROVIDER, type Harness } from '../../test/runtime/connector-harness.js';
import { newPostgresDatabase } from '../../test/runtime/store/harness.js';
import { startBareProxy } from '../lib/bare-proxy.js';
import { runLoadGen, type LoadGenOptions, type LoadGenResult } from '../lib/load-gen.js';
import { figure, type Figure } from '../lib/report.js';
import { startSlowUpstream, type SlowUpstream } from '../lib/slow-upstream.js';

const LATENCY_MS = 100;
/** The same socket pool per upstream origin for the service and the bare proxy. */
const POOL = 256;

interface Stack {
  harness: Harness;
  serviceUrl: string;
  token: string;
  bodyFor(identifier: string): string;
  close(): Promise<void>;
}

/** The service in this process, its CRM connection pointed at the slow upstream, with one authorized user. */
async function startStack(upstream: SlowUpstream, opts: { storeOptions?: Omit<OpenStoreOptions, 'keyring'>; queue?: number } = {}): Promise<Stack> {
  const harness = await startHarness({
    ...(opts.storeOptions ? { storeOptions: opts.storeOptions } : {}),
    runtime: { http: { connectionsPerOrigin: POOL, maxQueuedPerOrigin: opts.queue ?? 1024 }, baseRetryDelayMs: undefined },
  });
  const clientId = 'bench-crm-client';
  const clientSecret = 'bench-crm-secret-0123456789';
  const view = await harness.env.createConnection({
    name: 'crm',
    connector: 'crm',
    client_id: clientId,
    client_secret: clientSecret,
    overrides: { ...harness.sandbox.endpoints('crm'), apiBaseUrl: upstream.url },
  });
  harness.sandbox.control.registerClient({ provider: PROVIDER.crm, clientId, clientSecret, redirectUris: [view.redirect_uri] });
  await harness.authorize('crm', 'user-0');
  const logFd = openSync('/dev/null', 'w');
  const app = await buildService({ connector: harness.connector, logger: createServiceLogger(pino.destination({ fd: logFd, sync: true })), rateLimit: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const serviceUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const creds = await ensureAppClient(harness.store, { environmentId: ENV, environmentName: 'bench', clientId: 'bench-client' });
  const tokenRes = await fetch(`${serviceUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: creds.clientId, client_secret: creds.clientSecret }),
  });
  const { access_token } = (await tokenRes.json()) as { access_token: string };
  const bodyFor = (identifier: string) => JSON.stringify({ tool_name: 'crm_contact_get', identifier, tool_input: { contact_id: '1' } });
  const check = await fetch(`${serviceUrl}/api/v1/execute_tool`, { method: 'POST', headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' }, body: bodyFor('user-0') });
  if (check.status !== 200) throw new Error(`execute_tool answered ${check.status}: ${await check.text()}`);
  return {
    harness,
    serviceUrl,
    token: access_token,
    bodyFor,
    async close() {
      await app.close();
      closeSync(logFd);
      await harness.close();
    },
  };
}

function serviceLoad(stack: Stack, o: Omit<LoadGenOptions, 'url' | 'method'>, identifiers = ['user-0']): Promise<LoadGenResult> {
  return runLoadGen({
    ...o,
    url: `${stack.serviceUrl}/api/v1/execute_tool`,
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    bodies: identifiers.map((id) => stack.bodyFor(id)),
  });
}

/** CPU of this process (the service or the bare proxy runs here; upstream and load run elsewhere) per answered call. */
async function cpuPerCall(run: () => Promise<LoadGenResult>, seconds: number): Promise<{ result: LoadGenResult; cpuUs: number }> {
  const c0 = process.cpuUsage();
  const result = await run();
  const c = process.cpuUsage(c0);
  return { result, cpuUs: (c.user + c.system) / Math.max(1, result.opsPerSec * seconds) };
}

/** Peak resident memory growth per call while `calls` are in flight. */
async function memoryPerCall(run: () => Promise<LoadGenResult>, calls: number): Promise<number> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    await run();
  } finally {
    clearInterval(timer);
  }
  return (peak - before) / calls;
}

export async function userFeelFigures(quick: boolean): Promise<Figure[]> {
  const figures: Figure[] = [];
  const seconds = quick ? 3 : 8;
  const upstream = await startSlowUpstream(LATENCY_MS);
  const stack = await startStack(upstream);
  const token = await stack.harness.store.findAccount(ENV, (await stack.harness.env.listConnections())[0]!.id, 'user-0');
  const bare = await startBareProxy({ url: `${upstream.url}/crm/v3/objects/contacts/1`, method: 'GET', headers: { authorization: `Bearer ${token?.tokens?.accessToken ?? ''}` }, maxSockets: POOL });
  try {
    const bareLoad = (o: Omit<LoadGenOptions, 'url' | 'method'>) => runLoadGen({ ...o, url: bare.url, method: 'GET' });

    // Warm both paths (JIT, sockets) before measuring.
    await bareLoad({ concurrency: 100, durationSeconds: 1 });
    await serviceLoad(stack, { concurrency: 100, durationSeconds: 1 });

    const b100 = await bareLoad({ concurrency: 100, durationSeconds: seconds });
    const s100 = await serviceLoad(stack, { concurrency: 100, durationSeconds: seconds });
    figures.push(figure('added_p99_ms_vs_bare_c100', Math.round((s100.p99Ms - b100.p99Ms) * 10) / 10, { op: '<=', target: 5 }, `p99 ${s100.p99Ms} vs ${b100.p99Ms} ms, p50 ${s100.p50Ms} vs ${b100.p50Ms} ms; upstream ${LATENCY_MS} ms`));

    const b1000 = await bareLoad({ concurrency: 1000, durationSeconds: seconds });
    const s1000 = await serviceLoad(stack, { concurrency: 1000, durationSeconds: seconds });
    figures.push(figure('throughput_vs_bare_proxy_c1000', ratio(s1000.opsPerSec, b1000.opsPerSec), { op: '>=', target: 0.95 }, `${fmt(s1000.opsPerSec)} vs ${fmt(b1000.opsPerSec)} calls/s; p99 ${s1000.p99Ms} vs ${b1000.p99Ms} ms${failures(s1000)}`));

    const rate = quick ? 500 : 1000;
    const bCpu = await cpuPerCall(() => bareLoad({ ratePerSecond: rate, durationSeconds: seconds }), seconds);
    const sCpu = await cpuPerCall(() => serviceLoad(stack, { ratePerSecond: rate, durationSeconds: seconds }), seconds);
    figures.push(figure(`cpu_per_call_vs_bare_r${rate}`, ratio(sCpu.cpuUs, bCpu.cpuUs), { op: '<=', target: 1.3 }, `${fmt(sCpu.cpuUs)} vs ${fmt(bCpu.cpuUs)} us per call at ${rate} calls/s, production logging on`));
  } finally {
    await bare.close();
    await stack.close();
    await upstream.close();
  }

  figures.push(...(await memoryAndShedding(quick)));
  figures.push(...(await manyUsers(quick, seconds)));
  return figures;
}

/** Memory per call in flight at 5,000 calls, and load shedding past the bound; an upstream slow enough to hold them. */
async function memoryAndShedding(quick: boolean): Promise<Figure[]> {
  const figures: Figure[] = [];
  const inflight = quick ? 2000 : 5000;
  const upstream = await startSlowUpstream(3000);
  try {
    // Memory: a queue large enough that nothing is shed, so every call is held in flight.
    const stack = await startStack(upstream, { queue: inflight });
    const token = await stack.harness.store.findAccount(ENV, (await stack.harness.env.listConnections())[0]!.id, 'user-0');
    const bare = await startBareProxy({ url: `${upstream.url}/crm/v3/objects/contacts/1`, method: 'GET', headers: { authorization: `Bearer ${token?.tokens?.accessToken ?? ''}` }, maxSockets: POOL });
    try {
      const once = { concurrency: inflight, durationSeconds: 1 };
      const bareMem = await memoryPerCall(() => runLoadGen({ ...once, url: bare.url, method: 'GET' }), inflight);
      const serviceMem = await memoryPerCall(() => serviceLoad(stack, once), inflight);
      figures.push(figure('memory_per_inflight_call_vs_bare', ratio(serviceMem, Math.max(1, bareMem)), { op: '<=', target: 1.3 }, `${fmt(serviceMem / 1024)} vs ${fmt(bareMem / 1024)} KiB per call, ${inflight} in flight`));
    } finally {
      await bare.close();
      await stack.close();
    }

    // Shedding: the default bound (sockets + queue); three times as many calls as it holds.
    const queue = 1024;
    const bound = POOL + queue;
    const shed = await startStack(upstream, { queue });
    try {
      const burst = () => serviceLoad(shed, { concurrency: bound * 3, durationSeconds: 1 });
      const rss0 = process.memoryUsage().rss;
      const first = await burst();
      const rss1 = process.memoryUsage().rss;
      const second = await burst();
      const rss2 = process.memoryUsage().rss;
      const refused = second.statuses['503'] ?? 0;
      const prompt = second.refusedP99Ms !== null && second.refusedP99Ms < 500;
      const flat = rss2 - rss1 <= Math.max(32 * 2 ** 20, (rss1 - rss0) * 0.5);
      const ok = refused > 0 && second.retryAfter >= refused && prompt && flat ? 1 : 0;
      figures.push(figure('shed_load_ok', ok, { op: '==', target: 1 }, `bound ${bound}: ${refused} refused 503 (p99 ${second.refusedP99Ms} ms, ${second.retryAfter} with Retry-After), ${second.statuses['200'] ?? 0} served; RSS +${mib(rss1 - rss0)} then +${mib(rss2 - rss1)} MiB; first burst ${first.statuses['503'] ?? 0} refused`));
    } finally {
      await shed.close();
    }
  } finally {
    await upstream.close();
  }
  return figures;
}

/** 20,000 distinct identifiers over one, on PostgreSQL: every call a lookup of another account. */
async function manyUsers(quick: boolean, seconds: number): Promise<Figure[]> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) return [figure('many_users_vs_one_user_throughput_c1000', null, { op: '>=', target: 0.9 }, 'needs DATABASE_URL (PostgreSQL)')];
  const users = quick ? 2000 : 20_000;
  const db = await newPostgresDatabase(databaseUrl);
  const upstream = await startSlowUpstream(LATENCY_MS);
  const stack = await startStack(upstream, { storeOptions: db.options as Omit<OpenStoreOptions, 'keyring'> });
  try {
    const store = stack.harness.store;
    const connection = (await stack.harness.env.listConnections())[0]!;
    const template = (await store.findAccount(ENV, connection.id, 'user-0'))!.tokens!;
    const identifiers: string[] = [];
    for (let i = 1; i <= users; i++) {
      const identifier = `user-${i}`;
      const account = await store.ensureAccount(ENV, connection.id, identifier);
      await store.saveTokens(account.id, template);
      identifiers.push(identifier);
    }
    await serviceLoad(stack, { concurrency: 200, durationSeconds: 1 });
    const one = await serviceLoad(stack, { concurrency: 1000, durationSeconds: seconds });
    const many = await serviceLoad(stack, { concurrency: 1000, durationSeconds: seconds }, identifiers);
    return [figure('many_users_vs_one_user_throughput_c1000', ratio(many.opsPerSec, one.opsPerSec), { op: '>=', target: 0.9 }, `${fmt(many.opsPerSec)} vs ${fmt(one.opsPerSec)} calls/s, ${users.toLocaleString('en-US')} identifiers, PostgreSQL${failures(many)}`)];
  } finally {
    await stack.close();
    await upstream.close();
    await db.destroy();
  }
}

const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;
const fmt = (v: number) => Math.round(v).toLocaleString('en-US');
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const failures = (r: LoadGenResult) => {
  const bad = Object.entries(r.statuses).filter(([s]) => !s.startsWith('2'));
  return bad.length ? `; not 2xx: ${bad.map(([s, n]) => `${s} x${n}`).join(', ')}` : '';
};
